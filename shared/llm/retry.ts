import { setTimeout as sleepFor } from "node:timers/promises";
import { APIConnectionError, APIError } from "openai";
import { rootLogger } from "../logger";
import { retryAfterHeaderMs } from "../net/retry-after";
import type { CompleteFn } from "./types";

/** The longest Retry-After we wait for a retry. A provider asking for more is out of quota, not briefly busy: the call fails. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** Backoff without a Retry-After: 0.5 s, 1 s, 2 s, 4 s, 8 s, 8 s … less up to a quarter (jitter), as the openai SDK does. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

/** Answers worth asking again: request timeout, conflict, rate limit, and the server's own errors. */
export function isRetriedStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Connection errors and timeouts (`APIConnectionTimeoutError` is a connection error), and the retried statuses. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof APIConnectionError) return true;
  return err instanceof APIError && typeof err.status === "number" && isRetriedStatus(err.status);
}

/**
 * How long an error answer asks to wait before the next request, in ms: `retry-after-ms` (OpenAI's, and
 * Azure's), else `retry-after` in seconds or as an HTTP date. Undefined when the answer says nothing usable.
 */
export function retryAfterMs(err: unknown, now: number = Date.now()): number | undefined {
  if (!(err instanceof APIError) || !err.headers || typeof err.headers.get !== "function") return undefined;
  const ms = err.headers.get("retry-after-ms")?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  return retryAfterHeaderMs(err.headers.get("retry-after"), now);
}

/** The provider asked to wait longer than we do before retrying: the call fails now, saying so. */
export class RetryAfterTooLong extends Error {
  constructor(
    readonly waitMs: number,
    readonly maxWaitMs: number,
    cause: APIError,
  ) {
    const reason = cause.message.replace(/\s+/g, " ").slice(0, 200);
    super(`The model provider asked to wait ${Math.ceil(waitMs / 1000)} s before retrying (we wait at most ${Math.round(maxWaitMs / 1000)} s): ${reason}`, { cause });
    this.name = "RetryAfterTooLong";
  }
}

export interface RetryPolicy {
  /** Retries after the first attempt (LLM_MAX_RETRIES). */
  maxRetries: number;
  /** Default MAX_RETRY_AFTER_MS. */
  maxRetryAfterMs?: number;
  /** A 429 asked every caller to wait until then (epoch ms): the process-wide scheduler pauses new calls. */
  onRateLimited?: (untilEpochMs: number) => void;
  /** For the log line of a retry. */
  job?: string;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

/** Exponential backoff for retry `n` (0-based), capped, with up to 25 % taken off at random so callers spread out. */
export function backoffMs(n: number, random: () => number = Math.random): number {
  return Math.min(BACKOFF_BASE_MS * 2 ** n, BACKOFF_MAX_MS) * (1 - random() * 0.25);
}

/**
 * Runs `attempt`, and again after a failure worth retrying, up to `maxRetries` times: connection errors,
 * timeouts, 408, 409, 429 and 5xx. An answer that says when to come back (Retry-After) is waited for, up to
 * `maxRetryAfterMs`; beyond that the call fails at once (RetryAfterTooLong). Other failures (400, 401, 403,
 * 404, 422 …) are thrown at once. After the last retry the last error is thrown as it is.
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const now = policy.now ?? Date.now;
  const sleep = policy.sleep ?? ((ms: number) => sleepFor(ms).then(() => undefined));
  const maxWait = policy.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isRetryable(err)) throw err;
      const status = err instanceof APIError ? err.status : undefined;
      const asked = retryAfterMs(err, now());
      if (asked !== undefined && asked > maxWait) throw new RetryAfterTooLong(asked, maxWait, err as APIError);
      // The provider's limit is per key: every job's calls hold back, even when this one is out of retries.
      if (asked !== undefined && status === 429) policy.onRateLimited?.(now() + asked);
      if (retry >= policy.maxRetries) throw err;
      const delay = asked ?? backoffMs(retry, policy.random);
      rootLogger().debug({ job_id: policy.job, status: status ?? "connection", retry: retry + 1, delay_ms: Math.round(delay) }, "model call retried");
      await sleep(delay);
    }
  }
}

/** `complete` with our retries (the SDK's are off: `maxRetries: 0`), the job's id in its log lines. */
export function retryingComplete(complete: CompleteFn, policy: Omit<RetryPolicy, "job">): CompleteFn {
  return (messages, options) => withRetries(() => complete(messages, options), { ...policy, job: options?.job });
}
