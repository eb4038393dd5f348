import type { JobResource } from "../schemas/jobs";

/**
 * The broadcast the pipeline sends on every stage change and terminal transition of a job
 * (services/pipeline/announce.ts), received by every gateway's job-event hub over the transport
 * (services/gateway/job-events/). It carries the whole Job resource, so a receiver needs no read.
 */
export const JOB_CHANGED_EVENT = "pipeline.jobChanged";

export interface JobChangedPayload {
  org_id: string;
  job: JobResource;
}

export function isJobChangedPayload(value: unknown): value is JobChangedPayload {
  const v = value as Partial<JobChangedPayload> | null;
  return (
    typeof v?.org_id === "string" &&
    typeof v.job === "object" &&
    v.job !== null &&
    typeof v.job.id === "string" &&
    typeof v.job.status === "string" &&
    Array.isArray(v.job.stages)
  );
}
