import { createHash } from "node:crypto";
import { ValidationError } from "../../shared/errors";
import { canonicalJson } from "../../shared/idempotency";

export { canonicalJson };
import type { ArticleJobInput, JobAcknowledgement } from "../../shared/schemas/articles";
import type { ArticleCollections, ArticleRequestDoc } from "./store";

/**
 * The hash an Idempotency-Key is bound to: the request as validated, defaults applied and
 * `target_keyword` filled, so two bodies that ask for the same article hash the same
 * (`derivatives` is a set: its order does not matter).
 */
export function hashArticleRequest(input: ArticleJobInput): string {
  const canonical = canonicalJson({ ...input, derivatives: [...input.derivatives].sort() });
  return createHash("sha256").update(canonical).digest("hex");
}

export const findKeyedRequest = (c: ArticleCollections, orgId: string, key: string) => c.requests.findOne({ org_id: orgId, idempotency_key: key });

/** A request under the same key must be for the same body: anything else is a 400, never a silent replay. */
export function assertSameBody(earlier: ArticleRequestDoc, bodyHash: string): void {
  if (earlier.body_hash !== bodyHash) {
    throw new ValidationError("Idempotency-Key: was already used with a different request body (use a new key for a different request)");
  }
}

/** The acknowledgement of an accepted (or queued) request, replayed; null while it is still `charging`. */
export function replayOf(request: ArticleRequestDoc): JobAcknowledgement | null {
  return request.state !== "charging" && request.ack ? { ...request.ack, replayed: true } : null;
}
