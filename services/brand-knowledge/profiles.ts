import type { Collection, Db } from "mongodb";
import type { z } from "zod";
import { NotFoundError } from "../../shared/errors";
import type { Clock } from "../../shared/clock";
import { newId } from "../../shared/ids";
import type { CreateBrandProfileBody } from "../../shared/schemas/brand";
import { pageNewestFirst, type PageRequest } from "../../shared/db/paging";
import type { ListPage } from "../../shared/schemas/pagination";
import { PROFILES, SOURCES, type BrandProfileDoc, type SourceDoc } from "./store";
import { insertOrReplay } from "../../shared/idempotency";

export const profiles = (db: Db): Collection<BrandProfileDoc> => db.collection<BrandProfileDoc>(PROFILES);

/** Stores a new profile; under a key (`keyed`: its id and request hash), a retry gets the stored one (`replayed`). */
export async function createProfile(
  db: Db,
  orgId: string,
  body: z.output<typeof CreateBrandProfileBody>,
  clock: Clock,
  keyed?: { _id: string; request_hash: string },
): Promise<{ doc: BrandProfileDoc; replayed: boolean }> {
  const now = clock.now();
  const doc: BrandProfileDoc = {
    _id: newId(),
    ...keyed,
    org_id: orgId,
    name: body.name,
    website_url: body.website_url ?? null,
    description: body.description ?? null,
    voice_status: "none",
    voice_error: null,
    voice_profile: null,
    fact_sheet: null,
    index_version: 0,
    created_at: now,
    updated_at: now,
  };
  return insertOrReplay(profiles(db), doc);
}

/** A profile of the organization; another organization's is indistinguishable from a missing one. */
export async function requireProfile(db: Db, orgId: string, profileId: string): Promise<BrandProfileDoc> {
  const doc = await profiles(db).findOne({ _id: profileId, org_id: orgId });
  if (!doc) throw new NotFoundError("brand profile");
  return doc;
}

interface Counts {
  sources: number;
  chunks: number;
}

async function countsFor(db: Db, profileIds: string[]): Promise<Map<string, Counts>> {
  const rows = await db
    .collection<SourceDoc>(SOURCES)
    .aggregate<{ _id: string; sources: number; chunks: number }>([
      { $match: { profile_id: { $in: profileIds } } },
      { $group: { _id: "$profile_id", sources: { $sum: 1 }, chunks: { $sum: "$chunks" } } },
    ])
    .toArray();
  return new Map(rows.map((r) => [r._id, { sources: r.sources, chunks: r.chunks }]));
}

export function toProfileSummary(doc: BrandProfileDoc, counts: Counts) {
  return {
    id: doc._id,
    object: "brand_profile" as const,
    name: doc.name,
    website_url: doc.website_url,
    description: doc.description,
    voice_status: doc.voice_status,
    sources: counts.sources,
    chunks: counts.chunks,
    created_at: doc.created_at.toISOString(),
  };
}

/** Newest first, paged by `starting_after`, each with its counts of sources and chunks. */
export async function listProfiles(db: Db, orgId: string, page: PageRequest): Promise<ListPage<ReturnType<typeof toProfileSummary>>> {
  const { docs, has_more } = await pageNewestFirst(profiles(db), { org_id: orgId }, page, { what: "brand profile" });
  const counts = await countsFor(db, docs.map((d) => d._id));
  return { object: "list", data: docs.map((d) => toProfileSummary(d, counts.get(d._id) ?? { sources: 0, chunks: 0 })), has_more };
}

/** The full profile: summary, fact sheet and voice profile. */
export async function profileDetail(db: Db, orgId: string, profileId: string) {
  const doc = await requireProfile(db, orgId, profileId);
  const counts = (await countsFor(db, [doc._id])).get(doc._id) ?? { sources: 0, chunks: 0 };
  return {
    ...toProfileSummary(doc, counts),
    voice_error: doc.voice_error,
    voice_profile: doc.voice_profile,
    fact_sheet: doc.fact_sheet ? { facts: doc.fact_sheet.facts, updated_at: doc.fact_sheet.updated_at.toISOString() } : null,
    updated_at: doc.updated_at.toISOString(),
  };
}
