import type { ServiceBroker } from "moleculer";
import { JOB_CHANGED_EVENT, type JobChangedPayload } from "../../../shared/events/job-changed";
import { rootLogger } from "../../../shared/logger";
import { isFinalStatus } from "../../../shared/schemas/jobs";
import { jobsFinished, jobStageDuration } from "../../../shared/metrics";
import { toJobResource } from "./jobs";
import type { JobDoc } from "./store";

/**
 * Tells every gateway that a job changed (a stage started or ended, or the job ended), for the live
 * job event streams (docs/job-events.md). Called with the job as the change wrote it, so each change
 * is announced with its own state; a broadcast reaches every node with a subscriber (every gateway).
 * Best effort: a lost announcement costs a stream one event, which a reconnect (Last-Event-ID)
 * recovers from the stored job; it never fails the job.
 */
export function announceJobChange(broker: ServiceBroker, job: JobDoc): void {
  recordJobMetrics(job);
  const payload: JobChangedPayload = { org_id: job.org_id, job: toJobResource(job) };
  Promise.resolve(broker.broadcast(JOB_CHANGED_EVENT, payload)).catch((err: unknown) => rootLogger().debug({ err, job_id: job._id }, "job change not announced"));
}

/** Metrics of a change (shared/metrics.ts): a job's end by type and status; a stage's duration when it just ended. */
function recordJobMetrics(job: JobDoc): void {
  if (isFinalStatus(job.status)) {
    jobsFinished.inc({ type: job.type, status: job.status });
    return;
  }
  // `stage` names the stage last started: when it is done or in error, this change is its end.
  const stage = job.stages.find((s) => s.key === job.stage);
  if (!stage || (stage.status !== "done" && stage.status !== "error") || !stage.startedAt || !stage.endedAt) return;
  const seconds = (Date.parse(stage.endedAt) - Date.parse(stage.startedAt)) / 1000;
  if (seconds >= 0) jobStageDuration.observe({ type: job.type, stage: stage.key, outcome: stage.status }, seconds);
}
