import { z } from "zod";
import { contract } from "../action";
import { orgId, uuid } from "../validation";
import { resourceId, timestamp } from "./resource";

export const JOB_TYPES = ["article", "ingest_source"] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const JOB_STATUSES = ["queued", "processing", "succeeded", "failed", "canceled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
/** The statuses a job ends in: it never changes after. */
export const FINAL_JOB_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "canceled"];
export function isFinalStatus(status: string): boolean {
  return (FINAL_JOB_STATUSES as readonly string[]).includes(status);
}
export const STAGE_STATUSES = ["pending", "running", "done", "error"] as const;
export type StageStatus = (typeof STAGE_STATUSES)[number];

export const JobStage = z.strictObject({
  key: z.string(),
  label: z.string(),
  status: z.enum(STAGE_STATUSES),
  startedAt: timestamp.optional(),
  endedAt: timestamp.optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type JobStage = z.output<typeof JobStage>;

/** The Job resource (rule: a job shows every stage it will run, with its status). */
export const JobResource = z.strictObject({
  id: resourceId,
  object: z.literal("job"),
  type: z.enum(JOB_TYPES),
  status: z.enum(JOB_STATUSES),
  stage: z.string().nullable(),
  stages: z.array(JobStage),
  result: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  credits_charged: z.number().int().min(0),
  created_at: timestamp,
  finished_at: timestamp.nullable(),
});
export type JobResource = z.output<typeof JobResource>;

/** The job as events carry it: the resource without `stages` (rule: job events carry the job without its stages). */
export type JobEventPayload = Omit<JobResource, "stages" | "object" | "stage">;

export const JobPath = z.strictObject({ id: uuid });
/** The SSE `Last-Event-ID` a reconnecting client sends: an event id of `GET /v1/jobs/{id}/events` (a whole number). */
export const LastEventId = z
  .string()
  .regex(/^\d{1,9}$/, "must be an event id this stream sent (a whole number)")
  .transform(Number);
/** A job of the organization (another organization's is a 404). */
export const GetJobParams = JobPath.extend({ org_id: orgId });
/** The dashboard's jobs view: an organization's most recent jobs, newest first. */
export const RecentJobsParams = z.strictObject({ org_id: orgId, limit: z.number().int().min(1).max(100).default(20) });

/** A stage as a job type declares it: where its handler runs. */
export interface StageSpec {
  key: string;
  label: string;
  /** The action that runs the stage; it may live in any service. */
  action: string;
  /** Run only when the request asks for it (e.g. an article's cover image). */
  optional?: boolean;
  /**
   * The stages whose results this one needs: it starts as soon as they are done, beside any other stage that
   * is ready (an article's search metadata is written while its sections are). Absent: the stage declared
   * before it. A needed stage the job did not queue (an optional one not asked for) counts as done.
   */
  after?: string[];
}

/** What the pipeline passes to a stage handler action. */
export const StageCall = z.strictObject({
  job_id: uuid,
  org_id: uuid,
  type: z.enum(JOB_TYPES),
  stage: z.string(),
  stage_index: z.number().int().min(0),
  fence: z.number().int(),
  input: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()),
});
export type StageCallParams = z.output<typeof StageCall>;

/** What a stage handler returns: state for later stages, meta to show, and the job's result when it is the last. */
export interface StageOutcome {
  state?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

/** A stage handler's progress report, fenced by the lease it runs under. */
export const StageProgress = z.strictObject({
  job_id: uuid,
  fence: z.number().int(),
  stage_index: z.number().int().min(0),
  meta: z.record(z.string(), z.unknown()),
});
export type StageProgressParams = z.output<typeof StageProgress>;
/** `pipeline.reportProgress`'s reply: false when the job has moved to another worker. */
export interface StageProgressReply {
  accepted: boolean;
}

export const CreateJob = z.strictObject({
  job_id: uuid,
  org_id: uuid,
  type: z.enum(JOB_TYPES),
  input: z.record(z.string(), z.unknown()),
  credits_charged: z.number().int().min(0),
  /** Stage keys to run, in order; defaults to every stage of the type. */
  stages: z.array(z.string()).optional(),
});

// The pipeline's actions other services call: params and reply declared once (shared/action.ts `contract`).
export const PipelineActions = {
  createJob: contract<JobResource>()("pipeline.createJob", CreateJob),
  reportProgress: contract<StageProgressReply>()("pipeline.reportProgress", StageProgress),
  get: contract<JobResource>()("pipeline.get", GetJobParams),
  recentJobs: contract<{ object: "list"; data: JobResource[] }>()("pipeline.recentJobs", RecentJobsParams),
};
