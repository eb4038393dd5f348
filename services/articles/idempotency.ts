import { createHash } from "node:crypto";
import { ValidationError } from "../../shared/errors";
import type { ArticleJobInput, JobAcknowledgement } from "../../shared/schemas/articles";
import type { ArticleCollections, ArticleRequestDoc } from "./store";

/** JSON with object keys sorted at every depth: equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

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
