import { rootLogger } from "../../shared/logger";
import { debitRequest, queueRequestedJob, type CreationDeps } from "./create-article";
import { articleCollections } from "./store";

/** A request still `charging` after this long was abandoned by its process (a request takes well under the gateway's timeout). */
export const STRANDED_AFTER_MS = 60_000;

export interface RecoveryReport {
  /** Charged (now or before the crash) and queued. */
  queued: number;
  /** The debit is refused now: nothing was charged, the request is dropped. */
  dropped: number;
  /** Billing or the pipeline failed again: left for the next sweep. */
  failed: number;
}

/**
 * Finishes requests a crash left between "recorded" and "queued" (docs/articles.md#recovery).
 * It re-issues the debit under the same reference: billing replays it if it was applied, or
 * charges it now; either way the customer has paid, so the job is created (idempotent on its
 * id). A debit refused with 402 proves nothing was charged: the request is dropped.
 */
export async function recoverStrandedRequests(deps: CreationDeps, strandedBefore: Date, limit = 100): Promise<RecoveryReport> {
  const c = articleCollections(deps.db);
  const report: RecoveryReport = { queued: 0, dropped: 0, failed: 0 };
  const stranded = await c.requests.find({ state: "charging", updated_at: { $lte: strandedBefore } }).sort({ updated_at: 1 }).limit(limit).toArray();
  for (const request of stranded) {
    try {
      await debitRequest(deps, c, request);
      await queueRequestedJob(deps, c, request);
      report.queued++;
    } catch (err) {
      if ((err as { type?: unknown }).type === "insufficient_credits") {
        report.dropped++;
      } else {
        report.failed++;
        rootLogger().warn({ err, job_id: request._id, org_id: request.org_id }, "recovering a stranded article request failed; retried at the next sweep");
      }
    }
  }
  return report;
}
