import { rootLogger } from "../../shared/logger";
import { debitRequest, queueRequestedJob, type CreationDeps } from "./create-article";
import { articleCollections, type ArticleRequestDoc } from "./store";

/** A request still `charging` after this long was abandoned by its process (a request takes well under the gateway's timeout). */
export const STRANDED_AFTER_MS = 60_000;

export interface RecoveryReport {
  /** Charged (now or before) and queued. */
  queued: number;
  /** The debit is refused now: nothing was charged, the request is dropped. */
  dropped: number;
  /** Billing or the pipeline failed again: left for the next sweep. */
  failed: number;
}

/**
 * Rolls requests forward (docs/articles.md#recovery, docs/failure-semantics.md):
 * every `accepted` one at once (acknowledged with 202, so its job must exist), and `charging` ones a
 * crash left behind once they are older than `strandedBefore`. The debit is re-issued under the same
 * reference unless it is known to be applied (billing replays it if it was), then the job is created
 * (idempotent on its id). A debit refused with 402 proves nothing was charged: the request is dropped.
 */
export async function recoverStrandedRequests(deps: CreationDeps, strandedBefore: Date, limit = 100): Promise<RecoveryReport> {
  const c = articleCollections(deps.db);
  const report: RecoveryReport = { queued: 0, dropped: 0, failed: 0 };
  const stranded = await c.requests
    .find({ $or: [{ state: "accepted" }, { state: "charging", updated_at: { $lte: strandedBefore } }] })
    .sort({ updated_at: 1 })
    .limit(limit)
    .toArray();
  for (const request of stranded) {
    try {
      await rollForward(deps, request);
      report.queued++;
    } catch (err) {
      if ((err as { type?: unknown }).type === "insufficient_credits") {
        report.dropped++;
        if (request.state === "accepted") {
          rootLogger().error({ job_id: request._id, org_id: request.org_id }, "an accepted request whose debit outcome was unknown is refused by billing now: dropped, nothing charged");
        }
      } else {
        report.failed++;
        rootLogger().warn({ err, job_id: request._id, org_id: request.org_id }, "recovering an article request failed; retried at the next sweep");
      }
    }
  }
  return report;
}

/** Finishes one accepted or stranded request: the debit unless known applied, then the job (both idempotent). */
export async function rollForward(deps: CreationDeps, request: ArticleRequestDoc): Promise<void> {
  const c = articleCollections(deps.db);
  if (!(request.state === "accepted" && request.charged !== false)) await debitRequest(deps, c, request);
  await queueRequestedJob(deps, c, request);
}

/**
 * A job read that found no job: if it is an article request accepted with that job id, it is finished
 * now, so the acknowledged id never reads as missing (docs/failure-semantics.md). True when it was.
 */
export async function finishAcceptedRequest(deps: CreationDeps, orgId: string, jobId: string): Promise<boolean> {
  const request = await articleCollections(deps.db).requests.findOne({ _id: jobId, org_id: orgId, state: "accepted" });
  if (!request) return false;
  await rollForward(deps, request);
  return true;
}
