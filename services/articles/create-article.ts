import type { Db } from "mongodb";
import type { z } from "zod";
import type { Clock } from "../../shared/clock";
import { ApiError } from "../../shared/errors";
import { stagesOf, type ArticleStageKey } from "../../shared/job-types";
import { newId } from "../../shared/ids";
import type { ArticleJobInput, CreateArticleParams, JobAcknowledgement } from "../../shared/schemas/articles";
import { call } from "../../shared/action";
import { BillingActions } from "../../shared/schemas/billing";
import { BrandKnowledgeActions } from "../../shared/schemas/brand";
import { PipelineActions } from "../../shared/schemas/jobs";
import { rootLogger } from "../../shared/logger";
import { findKeyedRequest, hashArticleRequest, replayOf } from "./idempotency";
import { assertSameRequest } from "../../shared/idempotency";
import { isDuplicateKeyError } from "../../shared/db/duplicate-key";
import { articleCollections, type ArticleCollections, type ArticleRequestDoc } from "./store";

/** Calls another service's action (the broker in the service, a fake in tests). */
export type CallAction = <R>(action: string, params: Record<string, unknown>) => Promise<R>;

export interface CreationDeps {
  db: Db;
  call: CallAction;
  clock: Clock;
  /** How long a queued request, and so its Idempotency-Key, is remembered. */
  idempotencyTtlMs: number;
}

/** Whether the request asks for each optional stage of the article job. */
const REQUESTED: Partial<Record<ArticleStageKey, (input: Pick<ArticleJobInput, "image" | "derivatives">) => boolean>> = {
  image: (input) => input.image,
  derivatives: (input) => input.derivatives.length > 0,
};

/** The pipeline stages an article job runs, as the job type declares them: every one that is not optional, and those requested. */
export function articleStages(input: Pick<ArticleJobInput, "image" | "derivatives">): string[] {
  return stagesOf("article")
    .filter((s) => !s.optional || REQUESTED[s.key as ArticleStageKey]?.(input))
    .map((s) => s.key);
}

/** What the price of an article depends on. */
const articleSpec = (input: ArticleJobInput) => ({ mode: input.mode, image: input.image, derivatives: input.derivatives, language: input.language });

/** The job input: the validated request with its defaults applied and `target_keyword` filled. */
export function articleJobInput(body: Omit<z.output<typeof CreateArticleParams>, "org_id" | "idempotency_key">): ArticleJobInput {
  return { ...body, target_keyword: body.target_keyword ?? body.topic };
}

export function acknowledgement(jobId: string, status: string, credits: number): JobAcknowledgement {
  return { id: jobId, object: "job", type: "article", status, credits_charged: credits, replayed: false, links: { self: `/v1/jobs/${jobId}` } };
}

/** A competing request under the same key may vanish (it was refused) while we look at it; then ours goes ahead, a few times at most. */
const MAX_KEY_ROUNDS = 5;

/**
 * POST /v1/articles after validation (docs/articles.md#creation, docs/failure-semantics.md):
 * an earlier request with the same key is replayed, or settled now when it is still `charging` →
 * check the brand profile → price → record the request (`charging`, its acknowledgement known up
 * front) → settle it: debit under the job id, mark it `accepted`, create the job, mark it `queued`.
 *
 * A 4xx or 5xx answer means nothing changed: a refusal before the debit, the 402 of the debit, or a
 * billing that could not be reached leave nothing behind. Once the debit is applied (or its outcome
 * is unknown), the request is accepted for good: the answer is the 202 and recovery finishes it.
 */
export async function createArticleJob(deps: CreationDeps, params: z.output<typeof CreateArticleParams>): Promise<JobAcknowledgement> {
  const { org_id, idempotency_key, ...body } = params;
  const c = articleCollections(deps.db);
  const input = articleJobInput(body);
  const bodyHash = hashArticleRequest(input);
  const key = idempotency_key ?? null;

  if (key) {
    const earlier = await findKeyedRequest(c, org_id, key);
    if (earlier) {
      assertSameRequest(earlier.body_hash, bodyHash);
      const answer = replayOf(earlier) ?? (await settleRequest(deps, c, earlier));
      if (answer) return answer;
    }
  }

  if (input.brand_profile_id) await call(deps, BrandKnowledgeActions.getProfile, { org_id, id: input.brand_profile_id });
  // The price is recorded with the request and acknowledged before the charge's outcome is known (a 202 may
  // answer a charge whose reply was lost); billing prices the same article again when it charges it.
  const quote = await call(deps, BillingActions.quote, articleSpec(input));

  for (let round = 0; round < MAX_KEY_ROUNDS; round++) {
    const now = deps.clock.now();
    const id = newId();
    const request: ArticleRequestDoc = {
      _id: id,
      org_id,
      idempotency_key: key,
      body_hash: bodyHash,
      input,
      stages: articleStages(input),
      credits: quote.credits,
      state: "charging",
      ack: acknowledgement(id, "queued", quote.credits),
      created_at: now,
      updated_at: now,
    };
    try {
      await c.requests.insertOne(request);
    } catch (err) {
      if (!key || !isDuplicateKeyError(err)) throw err;
      const earlier = await findKeyedRequest(c, org_id, key);
      if (!earlier) continue;
      assertSameRequest(earlier.body_hash, bodyHash);
      const answer = replayOf(earlier) ?? (await settleRequest(deps, c, earlier));
      if (answer) return answer;
      continue;
    }
    const answer = await settleRequest(deps, c, request);
    if (answer) return answer;
  }
  throw new ApiError("service_unavailable", "Requests with this Idempotency-Key keep failing concurrently. Retry shortly.");
}

/** Errors that prove the call never reached a billing node: nothing can have been charged. */
export function neverDelivered(err: unknown): boolean {
  const name = (err as { name?: unknown })?.name;
  return name === "ServiceNotFoundError" || name === "ServiceNotAvailableError";
}

/**
 * Settles a `charging` request now, whoever started it (its own request, or a retry with the same
 * key: every step is idempotent on the job id, so they may run at once).
 * Returns the acknowledgement (`replayed` unless this call accepted it), or null when the request
 * vanished meanwhile (the caller may record its own). Throws the 402, or a 503 that changed nothing.
 */
export async function settleRequest(deps: CreationDeps, c: ArticleCollections, request: ArticleRequestDoc): Promise<JobAcknowledgement | null> {
  let charged = true;
  try {
    await debitRequest(deps, c, request);
  } catch (err) {
    const refused = (err as { type?: unknown }).type === "insufficient_credits";
    if (!refused && !neverDelivered(err)) {
      // Billing may have applied it (a timeout, a node lost mid-call): accepted, recovery re-issues the debit.
      charged = false;
      rootLogger().warn({ err, job_id: request._id, org_id: request.org_id }, "debit outcome unknown: request accepted, recovery settles the debit");
    } else {
      if (!refused) await c.requests.deleteOne({ _id: request._id, state: "charging" });
      // A concurrent attempt may have accepted it meanwhile: its answer stands.
      const current = await c.requests.findOne({ _id: request._id });
      const replay = current && replayOf(current);
      if (replay) return replay;
      if (refused) throw err;
      throw new ApiError("service_unavailable", "Billing is unreachable; nothing was charged and no job was created. Retry with backoff.");
    }
  }
  const first = await markAccepted(deps, c, request, charged);
  const ack = { ...(request.ack ?? acknowledgement(request._id, "queued", request.credits)), replayed: !first };
  if (charged) {
    try {
      await queueRequestedJob(deps, c, request);
    } catch (err) {
      rootLogger().warn({ err, job_id: request._id, org_id: request.org_id }, "job not created yet (pipeline unreachable): request accepted, recovery creates it");
    }
  }
  return ack;
}

/**
 * Charges the request's article under its job id: billing prices it and debits that price (a repeat is replayed). A 402 removes the request
 * while nobody has acknowledged it (nothing was charged, its key is free again).
 */
export async function debitRequest(deps: CreationDeps, c: ArticleCollections, request: ArticleRequestDoc): Promise<void> {
  try {
    await call(deps, BillingActions.chargeArticle, { org_id: request.org_id, reference: request._id, reason: `article job ${request._id}`, article: articleSpec(request.input) });
  } catch (err) {
    if ((err as { type?: unknown }).type === "insufficient_credits") await c.requests.deleteOne({ _id: request._id, state: { $in: ["charging", "accepted"] } });
    throw err;
  }
}

/**
 * `charging` → `accepted`: from here the job will exist. True when this call made the change.
 * A request deleted meanwhile by an attempt that found billing unreachable is recorded again,
 * since this attempt's debit went through. A database failure here is left to recovery (the
 * record is still `charging`), and the request is acknowledged all the same.
 */
async function markAccepted(deps: CreationDeps, c: ArticleCollections, request: ArticleRequestDoc, charged: boolean): Promise<boolean> {
  const now = deps.clock.now();
  const accepted = { state: "accepted" as const, charged, updated_at: now, expires_at: new Date(now.getTime() + deps.idempotencyTtlMs) };
  try {
    const r = await c.requests.updateOne({ _id: request._id, state: "charging" }, { $set: accepted });
    if (r.matchedCount) return true;
    const current = await c.requests.findOne({ _id: request._id });
    if (current) {
      if (charged && current.state === "accepted" && current.charged === false) await c.requests.updateOne({ _id: request._id, state: "accepted" }, { $set: { charged: true } });
      return false;
    }
    if (charged) await recordAgain(c, { ...request, ...accepted });
    return true;
  } catch (err) {
    rootLogger().warn({ err, job_id: request._id, org_id: request.org_id }, "recording an accepted request failed; recovery finishes it");
    return true;
  }
}

async function recordAgain(c: ArticleCollections, doc: ArticleRequestDoc): Promise<void> {
  try {
    await c.requests.insertOne(doc);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    if (await c.requests.findOne({ _id: doc._id }, { projection: { _id: 1 } })) return;
    // Its key was taken by a newer request: this one is paid, so it is kept without the key.
    await c.requests.insertOne({ ...doc, idempotency_key: null });
  }
}

/** Creates the job the request paid for (idempotent on the job id) and marks the request `queued`. */
export async function queueRequestedJob(deps: CreationDeps, c: ArticleCollections, request: ArticleRequestDoc): Promise<JobAcknowledgement> {
  const job = await call(deps, PipelineActions.createJob, {
    job_id: request._id,
    org_id: request.org_id,
    type: "article",
    input: request.input,
    credits_charged: request.credits,
    stages: request.stages,
  });
  const ack = request.ack ?? acknowledgement(job.id, job.status, request.credits);
  const now = deps.clock.now();
  await c.requests.updateOne(
    { _id: request._id, state: { $in: ["charging", "accepted"] } },
    { $set: { state: "queued", ack, updated_at: now, expires_at: new Date(now.getTime() + deps.idempotencyTtlMs) }, $unset: { charged: "" } },
  );
  return ack;
}
