import type { Db } from "mongodb";
import type { z } from "zod";
import type { Clock } from "../../shared/clock";
import { ApiError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import type { ArticleJobInput, CreateArticleParams, JobAcknowledgement } from "../../shared/schemas/articles";
import type { Quote } from "../../shared/schemas/billing";
import type { JobResource } from "../../shared/schemas/jobs";
import { findKeyedRequest, hashArticleRequest, replayEarlierRequest } from "./idempotency";
import { articleCollections, isDuplicateKeyError, type ArticleCollections, type ArticleRequestDoc } from "./store";

/** Calls another service's action (the broker in the service, a fake in tests). */
export type CallAction = <R>(action: string, params: Record<string, unknown>) => Promise<R>;

export interface CreationDeps {
  db: Db;
  call: CallAction;
  clock: Clock;
  /** How long a queued request, and so its Idempotency-Key, is remembered. */
  idempotencyTtlMs: number;
}

const ALWAYS_RUN_STAGES = ["recon", "plan", "research", "draft", "edit", "seo", "score"];

/** The pipeline stages an article job runs: the fixed ones, then `image` and `derivatives` when requested. */
export function articleStages(input: Pick<ArticleJobInput, "image" | "derivatives">): string[] {
  return [...ALWAYS_RUN_STAGES, ...(input.image ? ["image"] : []), ...(input.derivatives.length ? ["derivatives"] : [])];
}

/** The job input: the validated request with its defaults applied and `target_keyword` filled. */
export function articleJobInput(body: Omit<z.output<typeof CreateArticleParams>, "org_id" | "idempotency_key">): ArticleJobInput {
  return { ...body, target_keyword: body.target_keyword ?? body.topic };
}

export function acknowledgement(jobId: string, status: string, credits: number): JobAcknowledgement {
  return { id: jobId, object: "job", type: "article", status, credits_charged: credits, replayed: false, links: { self: `/v1/jobs/${jobId}` } };
}

/** A competing request under the same key may vanish (it was refused) while we wait on it; then ours goes ahead, a few times at most. */
const MAX_KEY_ROUNDS = 5;

/**
 * POST /v1/articles after validation (docs/articles.md#creation):
 * replay an earlier request with the same key → check the brand profile → price → record the
 * request (`charging`) → debit under the job id → create the job → mark the request `queued`.
 * A refusal before the debit, or the 402 of the debit itself, leaves nothing behind.
 */
export async function createArticleJob(deps: CreationDeps, params: z.output<typeof CreateArticleParams>): Promise<JobAcknowledgement> {
  const { org_id, idempotency_key, ...body } = params;
  const c = articleCollections(deps.db);
  const input = articleJobInput(body);
  const bodyHash = hashArticleRequest(input);
  const key = idempotency_key ?? null;

  if (key) {
    const earlier = await findKeyedRequest(c, org_id, key);
    const replay = earlier && (await replayEarlierRequest(c, earlier, bodyHash));
    if (replay) return replay;
  }

  if (input.brand_profile_id) await deps.call("brand-knowledge.getProfile", { org_id, id: input.brand_profile_id });
  const quote = await deps.call<Quote>("billing.quote", { mode: input.mode, image: input.image, derivatives: input.derivatives, language: input.language });

  for (let round = 0; round < MAX_KEY_ROUNDS; round++) {
    const now = deps.clock.now();
    const request: ArticleRequestDoc = {
      _id: newId(),
      org_id,
      idempotency_key: key,
      body_hash: bodyHash,
      input,
      stages: articleStages(input),
      credits: quote.credits,
      state: "charging",
      ack: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await c.requests.insertOne(request);
    } catch (err) {
      if (!key || !isDuplicateKeyError(err)) throw err;
      const earlier = await findKeyedRequest(c, org_id, key);
      const replay = earlier && (await replayEarlierRequest(c, earlier, bodyHash));
      if (replay) return replay;
      continue;
    }
    await debitRequest(deps, c, request);
    return queueRequestedJob(deps, c, request);
  }
  throw new ApiError("service_unavailable", "Requests with this Idempotency-Key keep failing concurrently. Retry shortly.");
}

/**
 * Debits the request's price under its job id. A 402 removes the request (nothing was charged,
 * its key is free again); any other failure leaves it `charging` for recovery to decide.
 */
export async function debitRequest(deps: CreationDeps, c: ArticleCollections, request: ArticleRequestDoc): Promise<void> {
  try {
    await deps.call("billing.debit", { org_id: request.org_id, amount: request.credits, reference: request._id, reason: `article job ${request._id}` });
  } catch (err) {
    if ((err as { type?: unknown }).type === "insufficient_credits") await c.requests.deleteOne({ _id: request._id, state: "charging" });
    throw err;
  }
}

/** Creates the job the request paid for (idempotent on the job id) and remembers its acknowledgement. */
export async function queueRequestedJob(deps: CreationDeps, c: ArticleCollections, request: ArticleRequestDoc): Promise<JobAcknowledgement> {
  const job = await deps.call<JobResource>("pipeline.createJob", {
    job_id: request._id,
    org_id: request.org_id,
    type: "article",
    input: request.input,
    credits_charged: request.credits,
    stages: request.stages,
  });
  const ack = acknowledgement(job.id, job.status, request.credits);
  const now = deps.clock.now();
  await c.requests.updateOne(
    { _id: request._id, state: "charging" },
    { $set: { state: "queued", ack, updated_at: now, expires_at: new Date(now.getTime() + deps.idempotencyTtlMs) } },
  );
  return ack;
}
