import type { Collection, Db } from "mongodb";
import { isDuplicateKeyError } from "../../../shared/db/duplicate-key";
import { ApiError, NotFoundError } from "../../../shared/errors";
import type { Clock } from "../../../shared/clock";
import { isFinalStatus, type JobEventPayload, type JobResource, type JobType } from "../../../shared/schemas/jobs";
import { jobTypeSpec, stagesOf } from "../../../shared/job-types";
import { JOBS, type Finalization, type JobDoc } from "./store";

export const jobs = (db: Db): Collection<JobDoc> => db.collection<JobDoc>(JOBS);

export interface NewJob {
  job_id: string;
  org_id: string;
  type: JobType;
  input: Record<string, unknown>;
  credits_charged: number;
  stages?: string[];
}

/**
 * Queues a job. The caller chooses the id, so that creating it again after a crash
 * (same id) is a no-op that returns the job already queued.
 */
export async function createJob(db: Db, spec: NewJob, clock: Clock): Promise<JobDoc> {
  const now = clock.now();
  const doc: JobDoc = {
    _id: spec.job_id,
    org_id: spec.org_id,
    type: spec.type,
    status: "queued",
    stage: null,
    stages: stagesOf(spec.type, spec.stages).map((s) => ({ key: s.key, label: s.label, status: "pending" })),
    input: spec.input,
    state: {},
    result: {},
    error: null,
    credits_charged: spec.credits_charged,
    created_at: now,
    updated_at: now,
    finished_at: null,
    attempts: 0,
    lease: null,
    fence: 0,
    run_after: now,
    cancel_requested_at: null,
    finalize: null,
  };
  try {
    await jobs(db).insertOne(doc);
    return doc;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const existing = await jobs(db).findOne({ _id: spec.job_id });
    if (!existing || existing.org_id !== spec.org_id) throw err;
    return existing;
  }
}

/**
 * A job as the API reads it. When none is found, the articles service may hold an article acknowledged (202)
 * before its job could be created: `finishAccepted` has it create the job now (docs/failure-semantics.md).
 * If articles cannot say (unreachable, or billing down for a debit to settle), the answer is 503, not a 404
 * it may contradict.
 */
export async function readJob(
  db: Db,
  orgId: string,
  jobId: string,
  finishAccepted: (params: { org_id: string; id: string }) => Promise<{ finished: boolean }>,
): Promise<JobResource> {
  try {
    return toJobResource(await getJob(db, orgId, jobId));
  } catch (err) {
    if ((err as { type?: unknown }).type !== "not_found") throw err;
    const accepted = await finishAccepted({ org_id: orgId, id: jobId }).catch((cause: unknown) => {
      throw new ApiError("service_unavailable", "The job cannot be read right now. Retry with backoff.", { cause: String(cause) });
    });
    if (!accepted.finished) throw err;
    return toJobResource(await getJob(db, orgId, jobId));
  }
}

/** Cancels a job (see `requestCancel`); one canceled at once is finalized now. Returns the job as it then is. */
export async function cancelJob(db: Db, orgId: string, jobId: string, finalize: (job: JobDoc) => Promise<void>, clock: Clock): Promise<JobResource> {
  const { job, canceledNow } = await requestCancel(db, orgId, jobId, clock);
  if (canceledNow) await finalize(job);
  return toJobResource(await getJob(db, orgId, jobId));
}

/** A job of the organization; another organization's job is indistinguishable from a missing one. */
export async function getJob(db: Db, orgId: string, jobId: string): Promise<JobDoc> {
  const doc = await jobs(db).findOne({ _id: jobId, org_id: orgId });
  if (!doc) throw new NotFoundError("job");
  return doc;
}

export function toJobResource(doc: JobDoc): JobResource {
  return {
    id: doc._id,
    object: "job",
    type: doc.type,
    status: doc.status,
    stage: doc.stage,
    stages: doc.stages,
    result: doc.result,
    error: doc.error,
    credits_charged: doc.credits_charged,
    created_at: doc.created_at.toISOString(),
    finished_at: doc.finished_at ? doc.finished_at.toISOString() : null,
  };
}

export function toEventPayload(doc: JobDoc): JobEventPayload {
  const { stages: _stages, object: _object, stage: _stage, ...payload } = toJobResource(doc);
  return payload;
}


/**
 * Cancels a job: a queued one at once; a processing one at its next stage boundary
 * (the worker finishes it as `canceled`). A finished job cannot be canceled.
 * Returns the job and whether it was canceled right away (then its finalization is due).
 */
export async function requestCancel(db: Db, orgId: string, jobId: string, clock: Clock): Promise<{ job: JobDoc; canceledNow: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getJob(db, orgId, jobId);
    if (isFinalStatus(current.status)) {
      throw new ApiError("invalid_request", `Job ${jobId} has already finished (${current.status}) and cannot be canceled.`);
    }
    const now = clock.now();
    if (current.status === "queued") {
      const canceled = await jobs(db).findOneAndUpdate(
        { _id: jobId, status: "queued", lease: null },
        {
          $set: {
            status: "canceled",
            finished_at: now,
            updated_at: now,
            cancel_requested_at: now,
            finalize: finalizationFor(current, "canceled"),
          },
        },
        { returnDocument: "after" },
      );
      if (canceled) return { job: canceled, canceledNow: true };
      continue; // claimed meanwhile: cancel it as a running job
    }
    const running = await jobs(db).findOneAndUpdate(
      { _id: jobId, status: "processing" },
      { $set: { cancel_requested_at: now, updated_at: now } },
      { returnDocument: "after" },
    );
    if (running) return { job: running, canceledNow: false };
  }
  throw new ApiError("service_unavailable", "The job changed state while canceling; retry.");
}

/** What a job owes once it reaches `status`. */
export function finalizationFor(job: Pick<JobDoc, "type" | "credits_charged">, status: "succeeded" | "failed" | "canceled"): Finalization {
  return {
    refund: status !== "succeeded" && job.credits_charged > 0 ? "pending" : "none",
    notify: jobTypeSpec(job.type).onFinish ? "pending" : "none",
    event: status === "canceled" ? "none" : "pending",
  };
}
