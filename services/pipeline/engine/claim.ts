import type { Db, UpdateFilter } from "mongodb";
import type { Clock } from "../../../shared/clock";
import { claimOne, renewLease as renewLeaseOf } from "../../../shared/db/lease";
import { jobs } from "./jobs";
import type { JobDoc } from "./store";

/**
 * Claims the oldest runnable job: queued, or processing under an expired lease (its worker died).
 * The claim bumps the fence; every later write of this worker is conditioned on it.
 */
export async function claimNextJob(db: Db, owner: string, leaseMs: number, clock: Clock): Promise<JobDoc | null> {
  const now = clock.now();
  return claimOne(jobs(db), { status: { $in: ["queued", "processing"] }, run_after: { $lte: now } }, {
    owner,
    leaseMs,
    now,
    set: { status: "processing", updated_at: now },
    inc: { attempts: 1 },
    sort: { run_after: 1 },
  });
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
  if (!(await renewLeaseOf(jobs(db), jobId, fence, leaseMs, now, { updated_at: now }))) throw new LostLeaseError(jobId);
}
