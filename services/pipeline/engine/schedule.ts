import { stageNeeds } from "../../../shared/job-types";
import type { JobType } from "../../../shared/schemas/jobs";

/**
 * The stages of a job that may start now: not done, not already started by this run, and every stage each
 * one needs (`after` in shared/job-types.ts) done. A needed stage the job did not queue (an optional stage
 * nobody asked for) does not hold anything up. Several may be ready at once: they run side by side.
 */
export function readyStages(type: JobType, stages: readonly { key: string; status: string }[], started: ReadonlySet<number>): number[] {
  const status = new Map(stages.map((s) => [s.key, s.status]));
  return stages.flatMap((s, i) => {
    if (s.status === "done" || started.has(i)) return [];
    const waiting = stageNeeds(type, s.key).some((need) => status.has(need) && status.get(need) !== "done");
    return waiting ? [] : [i];
  });
}
