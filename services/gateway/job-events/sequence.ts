import { isFinalStatus, type JobResource, type JobStatus } from "../../../shared/schemas/jobs";

/**
 * A job's event id, derived from its persisted state (no counter to keep): it only grows as the
 * job moves on, so it orders events and resumes a stream (`Last-Event-ID`) on any gateway.
 *
 *   queued                          → 1
 *   processing, stages at weight S  → 2 + S   (a stage weighs 0 pending, 1 running, 2 done or error)
 *   succeeded | failed | canceled   → 2·n + 3 (n stages: above any state before the end)
 *
 * A stage never goes back (a resumed job runs its running stage again: same state, same id), so
 * two snapshots with the same id carry the same stage statuses.
 */
export function jobEventId(job: Pick<JobResource, "status" | "stages">): number {
  if (isFinal(job.status)) return 2 * job.stages.length + 3;
  if (job.status === "queued") return 1;
  let weight = 0;
  for (const s of job.stages) weight += s.status === "running" ? 1 : s.status === "done" || s.status === "error" ? 2 : 0;
  return 2 + weight;
}

export function isFinal(status: JobStatus): boolean {
  return isFinalStatus(status);
}

/** The SSE `event:` names: the first event is a snapshot, then one per change; the last is named by the job's end. */
export type JobEventName = "job.snapshot" | "job.progress" | "job.succeeded" | "job.failed" | "job.canceled";
export const JOB_EVENT_NAMES: readonly JobEventName[] = ["job.snapshot", "job.progress", "job.succeeded", "job.failed", "job.canceled"];

export function jobEventName(job: Pick<JobResource, "status">, first: boolean): JobEventName {
  if (isFinal(job.status)) return `job.${job.status}` as JobEventName;
  return first ? "job.snapshot" : "job.progress";
}
