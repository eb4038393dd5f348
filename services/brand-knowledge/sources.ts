import type { Collection, Db } from "mongodb";
import type { z } from "zod";
import type { Clock } from "../../shared/clock";
import { NotFoundError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import type { CreateSourceBody } from "../../shared/schemas/brand";
import { requireProfile } from "./profiles";
import { SOURCES, type SourceDoc } from "./store";
import { assertSameRequest, idForKey, insertOrReplay } from "../../shared/idempotency";

export const sources = (db: Db): Collection<SourceDoc> => db.collection<SourceDoc>(SOURCES);

/** Queues the ingest job of a source; idempotent on the job id (the pipeline's createJob). */
export type StartIngest = (source: Pick<SourceDoc, "_id" | "org_id" | "profile_id" | "ingest_job_id">) => Promise<unknown>;

function defaultTitle(body: z.output<typeof CreateSourceBody>): string {
  if (body.title) return body.title;
  if (body.url) return new URL(body.url).hostname + new URL(body.url).pathname.replace(/\/$/, "");
  return body.type === "writing_sample" ? "Writing sample" : "Text";
}

/**
 * Registers a source and starts its ingest job. The source is stored first with the id of
 * its job-to-be, so a crash before the job exists is repaired by `requeueStrandedSources`.
 * A `website` or `url` source already registered on the profile is re-ingested in place.
 *
 * Once the source is stored the request is accepted for good (docs/failure-semantics.md): when the
 * pipeline cannot take the job now, the source is marked `ingest_queued: false` and the answer is
 * still the acknowledgement; the sweeper queues the job (same id) as soon as the pipeline answers.
 */
export async function addSource(
  db: Db,
  orgId: string,
  profileId: string,
  body: z.output<typeof CreateSourceBody>,
  startIngest: StartIngest,
  clock: Clock,
  onDeferred?: (err: unknown, source: SourceDoc) => void,
  keyed?: { key: string; request_hash: string },
): Promise<SourceDoc> {
  await requireProfile(db, orgId, profileId);
  const now = clock.now();
  // Under an Idempotency-Key the ingest job's id (and a new source's) derive from the key: a retry finds what the first request did.
  const jobId = keyed ? idForKey("brand-knowledge.ingest", orgId, keyed.key) : newId();
  const hash = keyed ? { request_hash: keyed.request_hash } : {};
  if (keyed) {
    const earlier = await sources(db).findOne({ org_id: orgId, ingest_job_id: jobId });
    if (earlier) {
      assertSameRequest(earlier.request_hash, keyed.request_hash);
      // Its ingest job may not have been queued (the first request died first): queue it, idempotent on the job id.
      if (earlier.status === "pending") await startIngest(earlier).catch((err: unknown) => onDeferred?.(err, earlier));
      return earlier;
    }
  }
  let doc: SourceDoc | null = null;
  if (body.url && (body.type === "website" || body.type === "url")) {
    doc = await sources(db).findOneAndUpdate(
      { org_id: orgId, profile_id: profileId, type: body.type, url: body.url, status: { $in: ["ready", "failed"] } },
      { $set: { status: "pending", error: null, ingest_job_id: jobId, title: defaultTitle(body), updated_at: now, ...hash } },
      { returnDocument: "after" },
    );
  }
  if (!doc) {
    doc = {
      ...hash,
      _id: keyed ? idForKey("brand-knowledge.source", orgId, keyed.key) : newId(),
      org_id: orgId,
      profile_id: profileId,
      type: body.type,
      title: defaultTitle(body),
      url: body.url ?? null,
      content: body.content ?? null,
      status: "pending",
      error: null,
      pages: 0,
      chunks: 0,
      ingest_job_id: jobId,
      active_generation: null,
      active_job: null,
      active_fence: 0,
      created_at: now,
      updated_at: now,
      ingested_at: null,
    };
    const stored = await insertOrReplay(sources(db), doc);
    if (stored.replayed) return stored.doc;
  }
  try {
    await startIngest(doc);
  } catch (err) {
    await sources(db).updateOne({ _id: doc._id, ingest_job_id: doc.ingest_job_id }, { $set: { ingest_queued: false } });
    onDeferred?.(err, doc);
  }
  return doc;
}

export function toSourceResource(doc: SourceDoc) {
  return {
    id: doc._id,
    object: "kb_source" as const,
    type: doc.type,
    title: doc.title,
    url: doc.url,
    status: doc.status,
    error: doc.error,
    pages: doc.pages,
    chunks: doc.chunks,
    ingest_job_id: doc.ingest_job_id,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    ingested_at: doc.ingested_at ? doc.ingested_at.toISOString() : null,
  };
}

/** One source of the profile with its text (pasted sources): what a citation of a pasted text links to. */
export async function sourceDetail(db: Db, orgId: string, profileId: string, sourceId: string) {
  await requireProfile(db, orgId, profileId);
  const doc = await sources(db).findOne({ _id: sourceId, org_id: orgId, profile_id: profileId });
  if (!doc) throw new NotFoundError("source");
  return { ...toSourceResource(doc), content: doc.content };
}

export async function listSources(db: Db, orgId: string, profileId: string) {
  await requireProfile(db, orgId, profileId);
  const docs = await sources(db).find({ org_id: orgId, profile_id: profileId }).sort({ created_at: -1, _id: -1 }).toArray();
  return { object: "list" as const, data: docs.map(toSourceResource) };
}

/** The end of a source's ingest job (the pipeline's onFinish): idempotent. */
export async function recordIngestEnd(
  db: Db,
  end: { job_id: string; status: string; error: string | null; result: Record<string, unknown> },
  clock: Clock,
): Promise<void> {
  const now = clock.now();
  if (end.status === "succeeded") {
    await sources(db).updateOne({ ingest_job_id: end.job_id }, { $set: { status: "ready", error: null, updated_at: now } });
    return;
  }
  const error = end.status === "canceled" ? "Ingestion was canceled." : (end.error ?? "Ingestion failed.");
  await sources(db).updateOne({ ingest_job_id: end.job_id, status: { $ne: "ready" } }, { $set: { status: "failed", error, updated_at: now } });
}

/**
 * Pending sources whose job may not be queued: those whose queueing failed (at once) and those
 * a crash may have left between the two writes (after `olderThan`). Queueing is idempotent on the job id.
 */
export async function requeueStrandedSources(db: Db, olderThan: Date, startIngest: StartIngest): Promise<number> {
  const stranded = await sources(db)
    .find({ status: "pending", $or: [{ ingest_queued: false }, { updated_at: { $lte: olderThan } }] })
    .limit(100)
    .toArray();
  for (const s of stranded) {
    await startIngest(s);
    if (s.ingest_queued === false) await sources(db).updateOne({ _id: s._id, ingest_job_id: s.ingest_job_id }, { $unset: { ingest_queued: "" } });
  }
  return stranded.length;
}
