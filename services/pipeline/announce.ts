import type { ServiceBroker } from "moleculer";
import { JOB_CHANGED_EVENT, type JobChangedPayload } from "../../shared/events/job-changed";
import { rootLogger } from "../../shared/logger";
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
  const payload: JobChangedPayload = { org_id: job.org_id, job: toJobResource(job) };
  Promise.resolve(broker.broadcast(JOB_CHANGED_EVENT, payload)).catch((err: unknown) => rootLogger().debug({ err, job_id: job._id }, "job change not announced"));
}
