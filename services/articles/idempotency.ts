import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { ApiError, ValidationError } from "../../shared/errors";
import type { ArticleJobInput, JobAcknowledgement } from "../../shared/schemas/articles";
import type { ArticleCollections, ArticleRequestDoc } from "./store";

/** How long a duplicate waits for the first request with its key to finish before answering 503 (below the gateway's timeout). */
export const DUPLICATE_WAIT_MS = 20_000;
const DUPLICATE_POLL_MS = 25;

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

/**
 * What an earlier request with the same key means for this one: its acknowledgement replayed once
 * it is queued, `null` when it has gone (it failed and stored nothing, so this request proceeds),
 * a 400 when it was for another body, a 503 when it is still in progress after DUPLICATE_WAIT_MS.
 */
export async function replayEarlierRequest(
  c: ArticleCollections,
  earlier: ArticleRequestDoc,
  bodyHash: string,
  waitMs = DUPLICATE_WAIT_MS,
): Promise<JobAcknowledgement | null> {
  const giveUpAt = Date.now() + waitMs;
  let current: ArticleRequestDoc | null = earlier;
  while (current) {
    if (current.body_hash !== bodyHash) {
      throw new ValidationError("Idempotency-Key: was already used with a different request body (use a new key for a different request)");
    }
    if (current.state === "queued" && current.ack) return { ...current.ack, replayed: true };
    if (Date.now() > giveUpAt) {
      throw new ApiError("service_unavailable", "A request with this Idempotency-Key is still being processed. Retry shortly with the same key.");
    }
    await sleep(DUPLICATE_POLL_MS);
    current = await c.requests.findOne({ _id: current._id });
  }
  return null;
}
