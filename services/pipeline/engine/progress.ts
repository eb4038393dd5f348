import type { Db } from "mongodb";
import type { Clock } from "../../../shared/clock";
import { FINAL_JOB_STATUSES, type StageProgressParams } from "../../../shared/schemas/jobs";
import { jobs } from "./jobs";

/**
 * A running stage's progress, shown in its `meta` (never once the stage is done). Fenced: `false` tells the stage that the job moved
 * to another worker (the superseded run should stop). Never written to a job in a final status: a
 * handler still running after its job ended (a stage timeout fails the job but cannot stop the
 * handler) must not change a finished job, whose resource gateways cache as immutable
 * (docs/request-path.md#edge-read-cache).
 */
export async function recordProgress(db: Db, { job_id, fence, stage_index, meta }: StageProgressParams, clock: Clock): Promise<boolean> {
  const res = await jobs(db).updateOne(
    // Only while the stage runs: a progress report that arrives after its stage recorded its outcome (reports are
    // sent without waiting, and stages run side by side) must not replace the stage's final meta.
    { _id: job_id, fence, status: { $nin: [...FINAL_JOB_STATUSES] }, [`stages.${stage_index}.status`]: "running" },
    { $set: { [`stages.${stage_index}.meta`]: meta, updated_at: clock.now() } },
  );
  return res.matchedCount === 1;
}
