import { requestHash } from "../../shared/idempotency";
import type { ArticleJobInput, JobAcknowledgement } from "../../shared/schemas/articles";
import type { ArticleCollections, ArticleRequestDoc } from "./store";

/**
 * The hash an Idempotency-Key is bound to: the request as validated, defaults applied and
 * `target_keyword` filled, so two bodies that ask for the same article hash the same
 * (`derivatives` is a set: its order does not matter).
 */
export function hashArticleRequest(input: ArticleJobInput): string {
  return requestHash({ ...input, derivatives: [...input.derivatives].sort() });
}

export const findKeyedRequest = (c: ArticleCollections, orgId: string, key: string) => c.requests.findOne({ org_id: orgId, idempotency_key: key });

/** The acknowledgement of an accepted (or queued) request, replayed; null while it is still `charging`. */
export function replayOf(request: ArticleRequestDoc): JobAcknowledgement | null {
  return request.state !== "charging" && request.ack ? { ...request.ack, replayed: true } : null;
}
