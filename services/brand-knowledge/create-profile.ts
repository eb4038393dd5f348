import type { Db } from "mongodb";
import type { z } from "zod";
import type { Clock } from "../../shared/clock";
import { rootLogger } from "../../shared/logger";
import type { UrlPolicy } from "../../shared/net/url-guard";
import { registerOutboundUrl } from "../../shared/net/url-guard";
import type { CreateBrandProfileBody } from "../../shared/schemas/brand";
import { deferredIngest } from "./ingest-queue";
import { createProfile, profiles } from "./profiles";
import { addSource, type StartIngest } from "./sources";

/**
 * Creates a profile and, when asked, its website as a first source with its ingest job. If the website
 * source cannot be stored, the profile is undone, so the error changed nothing (docs/failure-semantics.md).
 */
export async function createProfileWithWebsite(
  db: Db,
  orgId: string,
  body: z.output<typeof CreateBrandProfileBody>,
  deps: { policy: UrlPolicy; startIngest: StartIngest; clock: Clock },
) {
  if (body.website_url) body.website_url = await registerOutboundUrl(body.website_url, deps.policy, { field: "website_url" });
  const profile = await createProfile(db, orgId, body, deps.clock);
  let ingestJobId: string | undefined;
  if (body.website_url && body.ingest_website) {
    const website = { type: "website" as const, url: body.website_url, title: `${body.name} website` };
    let source;
    try {
      source = await addSource(db, orgId, profile._id, website, deps.startIngest, deps.clock, deferredIngest);
    } catch (err) {
      await profiles(db).deleteOne({ _id: profile._id }).catch((undo) => rootLogger().error({ err: undo, profile_id: profile._id }, "undoing a profile failed"));
      throw err;
    }
    ingestJobId = source.ingest_job_id;
  }
  return {
    id: profile._id,
    object: "brand_profile" as const,
    name: profile.name,
    website_url: profile.website_url,
    voice_status: profile.voice_status,
    ...(ingestJobId ? { ingest_job_id: ingestJobId } : {}),
  };
}
