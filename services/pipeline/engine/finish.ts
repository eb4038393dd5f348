import type { Db } from "mongodb";
import type { Clock } from "../../../shared/clock";
import { isDuplicateKeyError } from "../../../shared/db/duplicate-key";
import { newId } from "../../../shared/ids";
import { jobs, toEventPayload } from "./jobs";
import { jobTypeSpec } from "../../../shared/job-types";
import { OUTBOX, type JobDoc, type OutboxDoc } from "./store";

export interface FinalizationDeps {
  refund: (orgId: string, reference: string) => Promise<unknown>;
  notify: (action: string, job: JobDoc) => Promise<unknown>;
}

/**
 * Completes what a terminal job still owes, in order and each once: the refund (billing is
 * idempotent on the job id), the job type's `onFinish` (idempotent receivers), then the event
 * in the outbox (unique per job and kind), so `job.failed` is written only after the refund.
 * Safe to run again after a crash at any point; the sweeper does exactly that.
 */
export async function completeFinalization(db: Db, job: JobDoc, deps: FinalizationDeps, clock: Clock): Promise<void> {
  if (!job.finalize) return;
  if (job.finalize.refund === "pending") {
    await deps.refund(job.org_id, job._id);
    await jobs(db).updateOne({ _id: job._id }, { $set: { "finalize.refund": "done" } });
  }
  const onFinish = jobTypeSpec(job.type).onFinish;
  if (job.finalize.notify === "pending" && onFinish) {
    await deps.notify(onFinish, job);
    await jobs(db).updateOne({ _id: job._id }, { $set: { "finalize.notify": "done" } });
  }
  if (job.finalize.event === "pending") {
    const kind = job.status === "succeeded" ? "job.succeeded" : "job.failed";
    const event: OutboxDoc = {
      _id: newId(),
      org_id: job.org_id,
      job_id: job._id,
      kind,
      payload: { ...toEventPayload(job) },
      created_at: clock.now(),
      pending: true,
      delivered_at: null,
    };
    try {
      await db.collection<OutboxDoc>(OUTBOX).insertOne(event);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    await jobs(db).updateOne({ _id: job._id }, { $set: { "finalize.event": "done" } });
  }
}

/** Terminal jobs whose finalization was interrupted (a crash between the steps). */
export async function unfinishedFinalizations(db: Db, olderThan: Date, limit = 50): Promise<JobDoc[]> {
  return jobs(db)
    .find({
      $or: [{ "finalize.refund": "pending" }, { "finalize.notify": "pending" }, { "finalize.event": "pending" }],
      updated_at: { $lte: olderThan },
    })
    .limit(limit)
    .toArray();
}
