import type { Db } from "mongodb";
import { STAGING, type StagingDoc } from "../store";

/**
 * Stage outputs between ingest stages, tagged with the fence of the run that wrote them. A stage
 * reads only the fence its producer recorded in the job state, so the leftovers of a run that
 * lost its lease (a killed pipeline worker) are never read twice.
 */
export async function writeStaging(db: Db, jobId: string, fence: number, kind: StagingDoc["kind"], items: Record<string, unknown>[]): Promise<void> {
  const col = db.collection<StagingDoc>(STAGING);
  await col.deleteMany({ job_id: jobId, kind, fence });
  if (!items.length) return;
  const docs = items.map((data, seq) => ({ _id: `${jobId}:${kind}:${fence}:${seq}`, job_id: jobId, fence, kind, seq, data }));
  for (let i = 0; i < docs.length; i += 200) await col.insertMany(docs.slice(i, i + 200), { ordered: false });
}

export async function readStaging<T>(db: Db, jobId: string, kind: StagingDoc["kind"], fence: number): Promise<{ id: string; data: T }[]> {
  const docs = await db.collection<StagingDoc>(STAGING).find({ job_id: jobId, kind, fence }).sort({ seq: 1 }).toArray();
  return docs.map((d) => ({ id: d._id, data: d.data as T }));
}

export async function patchStaging(db: Db, updates: { id: string; set: Record<string, unknown> }[]): Promise<void> {
  if (!updates.length) return;
  const ops = updates.map((u) => ({
    updateOne: { filter: { _id: u.id }, update: { $set: Object.fromEntries(Object.entries(u.set).map(([k, v]) => [`data.${k}`, v])) } },
  }));
  for (let i = 0; i < ops.length; i += 200) await db.collection<StagingDoc>(STAGING).bulkWrite(ops.slice(i, i + 200), { ordered: false });
}

export async function clearStaging(db: Db, jobId: string): Promise<void> {
  await db.collection<StagingDoc>(STAGING).deleteMany({ job_id: jobId });
}
