import type { Db } from "mongodb";
import type { Clock } from "../../../shared/clock";
import type { StageProgressParams } from "../../../shared/schemas/jobs";
import { fencedUpdate, LostLeaseError } from "./claim";

/**
 * A running stage's progress, shown in its `meta`. Fenced: `false` tells the stage that the job moved
 * to another worker (the superseded run should stop).
 */
export async function recordProgress(db: Db, { job_id, fence, stage_index, meta }: StageProgressParams, clock: Clock): Promise<boolean> {
  try {
    await fencedUpdate(db, job_id, fence, { $set: { [`stages.${stage_index}.meta`]: meta, updated_at: clock.now() } });
    return true;
  } catch (err) {
    if (err instanceof LostLeaseError) return false;
    throw err;
  }
}
