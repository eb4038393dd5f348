import type { Db } from "mongodb";
import type { z } from "zod";
import type { Clock } from "../../shared/clock";
import { idForKey, requestHash } from "../../shared/idempotency";
import { rootLogger } from "../../shared/logger";
import type { UrlPolicy } from "../../shared/net/url-guard";
import { registerOutboundUrl } from "../../shared/net/url-guard";
import type { CreateBrandProfileBody } from "../../shared/schemas/brand";
import { deferredIngest } from "./ingest-queue";
import { createProfile, profiles } from "./profiles";
import { addSource, sources, type StartIngest } from "./sources";

/**
 * Creates a profile and, when asked, its website as a first source with its ingest job. If the website
 * source cannot be stored, the profile is undone, so the error changed nothing (docs/failure-semantics.md).
 * Under an Idempotency-Key the profile's id derives from the key: a retry answers the profile the first
 * request stored, completing its website source if that request died before storing it.
 */
export async function createProfileWithWebsite(
  db: Db,
  orgId: string,
  body: z.output<typeof CreateBrandProfileBody>,
  deps: { policy: UrlPolicy; startIngest: StartIngest; clock: Clock },
  idempotencyKey?: string,
) {
  const keyed = idempotencyKey ? { _id: idForKey("brand-knowledge.profile", orgId, idempotencyKey), request_hash: requestHash(body) } : undefined;
  if (body.website_url) body.website_url = await registerOutboundUrl(body.website_url, deps.policy, { field: "website_url" });
  const { doc: profile, replayed } = await createProfile(db, orgId, body, deps.clock, keyed);
  let ingestJobId: string | undefined;
  if (body.website_url && body.ingest_website) {
    const website = { type: "website" as const, url: body.website_url, title: `${body.name} website` };
    // A retry under the key finds the website source the first request stored (or stores it, if that request died first).
    const earlier = replayed ? await sources(db).findOne({ org_id: orgId, profile_id: profile._id, type: "website", url: body.website_url }) : null;
    let source = earlier;
    try {
      source ??= await addSource(db, orgId, profile._id, website, deps.startIngest, deps.clock, deferredIngest);
    } catch (err) {
      if (!replayed) await profiles(db).deleteOne({ _id: profile._id }).catch((undo) => rootLogger().error({ err: undo, profile_id: profile._id }, "undoing a profile failed"));
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
