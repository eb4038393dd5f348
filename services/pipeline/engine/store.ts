import type { Lease } from "../../../shared/db/lease";
import type { CollectionSpec } from "../../../shared/db/mixin";
import type { JobStage, JobStatus, JobType } from "../../../shared/schemas/jobs";

/** What is still owed after a job reached a terminal state: each step is done once, in order. */
export type FinalizationStep = "pending" | "done" | "none";
export interface Finalization {
  refund: FinalizationStep;
  /** The job type's `onFinish` action. */
  notify: FinalizationStep;
  event: FinalizationStep;
}

export interface JobDoc {
  _id: string;
  org_id: string;
  type: JobType;
  status: JobStatus;
  stage: string | null;
  stages: JobStage[];
  input: Record<string, unknown>;
  /** Outputs of finished stages, read by later stages. */
  state: Record<string, unknown>;
  result: Record<string, unknown>;
  error: string | null;
  credits_charged: number;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  /** Claims so far; a job that keeps losing its worker fails after JOB_MAX_ATTEMPTS. */
  attempts: number;
  /** Releases because a stage handler was unreachable (no service registered): waited for, not attempts. */
  unreachable_retries?: number;
  lease: Lease | null;
  /** Incremented by every claim: a write carrying an older fence is from a worker that lost its lease. */
  fence: number;
  run_after: Date;
  cancel_requested_at: Date | null;
  finalize: Finalization | null;
}

export type JobEventKind = "job.succeeded" | "job.failed";

/** A job event waiting to be handed to the webhooks service. */
export interface OutboxDoc {
  _id: string;
  org_id: string;
  job_id: string;
  kind: JobEventKind;
  payload: Record<string, unknown>;
  created_at: Date;
  /** True until the webhooks service has recorded the event. */
  pending: boolean;
  delivered_at: Date | null;
}

export const JOBS = "jobs";
export const OUTBOX = "outbox";

export const PIPELINE_COLLECTIONS: CollectionSpec[] = [
  {
    name: JOBS,
    indexes: [
      { key: { status: 1, run_after: 1 }, name: "claimable" },
      { key: { org_id: 1, created_at: -1 }, name: "org_created" },
      { key: { "finalize.refund": 1 }, name: "finalize_refund", partialFilterExpression: { "finalize.refund": "pending" } },
      { key: { "finalize.notify": 1 }, name: "finalize_notify", partialFilterExpression: { "finalize.notify": "pending" } },
      { key: { "finalize.event": 1 }, name: "finalize_event", partialFilterExpression: { "finalize.event": "pending" } },
    ],
  },
  {
    name: OUTBOX,
    indexes: [
      { key: { job_id: 1, kind: 1 }, name: "one_event_per_job_kind", unique: true },
      { key: { pending: 1, created_at: 1 }, name: "pending_events", partialFilterExpression: { pending: true } },
    ],
  },
];
