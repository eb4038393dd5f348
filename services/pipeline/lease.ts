import type { Db, UpdateFilter } from "mongodb";
import type { Clock } from "../../shared/clock";
import { jobs } from "./jobs";
import type { JobDoc } from "./store";

/**
 * Claims the oldest runnable job: queued, or processing under an expired lease (its worker died).
 * The claim bumps the fence; every later write of this worker is conditioned on it.
 */
export async function claimNextJob(db: Db, owner: string, leaseMs: number, clock: Clock): Promise<JobDoc | null> {
  const now = clock.now();
  return jobs(db).findOneAndUpdate(
    {
      status: { $in: ["queued", "processing"] },
      run_after: { $lte: now },
      $or: [{ lease: null }, { "lease.expires_at": { $lte: now } }],
    },
    {
      $set: { status: "processing", lease: { owner, expires_at: new Date(now.getTime() + leaseMs) }, updated_at: now },
      $inc: { attempts: 1, fence: 1 },
    },
    { sort: { run_after: 1 }, returnDocument: "after" },
  );
}

/** Thrown when a write finds the job under another worker's fence: this worker must stop. */
export class LostLeaseError extends Error {
  constructor(jobId: string) {
    super(`lost the lease on job ${jobId}`);
    this.name = "LostLeaseError";
  }
}

/** Applies `update` only while `fence` is still the job's fence; returns the job as updated. */
export async function fencedUpdate(db: Db, jobId: string, fence: number, update: UpdateFilter<JobDoc>): Promise<JobDoc> {
  const after = await jobs(db).findOneAndUpdate({ _id: jobId, fence }, update, { returnDocument: "after" });
  if (!after) throw new LostLeaseError(jobId);
  return after;
}

export async function renewLease(db: Db, jobId: string, fence: number, leaseMs: number, clock: Clock): Promise<void> {
  const now = clock.now();
  await fencedUpdate(db, jobId, fence, { $set: { "lease.expires_at": new Date(now.getTime() + leaseMs), updated_at: now } });
}
