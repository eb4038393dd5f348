import { Errors } from "moleculer";

/**
 * The one error catalog: every code a client can see, with its HTTP status.
 * Codes of the article surface (spec §7), of the sibling surfaces (sibling-surfaces §7),
 * and the protocol-level codes the spec leaves open (docs/decisions.md#errors).
 */
export const ERROR_CATALOG = {
  invalid_request: 400,
  missing_rubric: 400,
  no_eligible_candidates: 400,
  no_cv: 400,
  invalid_api_key: 401,
  invalid_admin_token: 401,
  insufficient_credits: 402,
  job_limit: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  internal_error: 500,
  publish_failed: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(ERROR_CATALOG, value);
}

/**
 * Base of every error the platform raises on purpose. It is a MoleculerError so that
 * `type` (our code), `code` (the HTTP status) and `data` survive the trip over NATS.
 */
export class ApiError extends Errors.MoleculerError {
  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>) {
    super(message, ERROR_CATALOG[code], code, data);
    this.name = "ApiError";
  }
}

export class ValidationError extends ApiError {
  constructor(message: string) {
    super("invalid_request", message);
  }
}

export class NotFoundError extends ApiError {
  constructor(what = "resource") {
    super("not_found", `No such ${what}.`);
  }
}

export const INVALID_API_KEY_MESSAGE =
  "Invalid API key. Pass a valid key as a bearer token: 'Authorization: Bearer <API_KEY>'.";

export class InvalidApiKeyError extends ApiError {
  constructor() {
    super("invalid_api_key", INVALID_API_KEY_MESSAGE);
  }
}

export class InsufficientCreditsError extends ApiError {
  constructor(needed: number, available: number) {
    super(
      "insufficient_credits",
      `Insufficient credits: this operation needs ${needed} credits and ${available} are available.`,
      { needed, available },
    );
  }
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  reset: number;
  /** Whole seconds until the reset, at least 1. */
  retryAfter: number;
}

export class RateLimitError extends ApiError {
  constructor(state: RateLimitState) {
    super("rate_limit_exceeded", `Rate limit of ${state.limit} requests per minute exceeded. Retry after ${state.retryAfter} seconds.`, {
      rateLimit: state,
    });
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "x-ratelimit-limit": String(state.limit),
    "x-ratelimit-remaining": String(state.remaining),
    "x-ratelimit-reset": String(state.reset),
  };
}

export interface HttpError {
  status: number;
  body: { error: { code: string; message: string } };
  /** The original error when it was not one the platform raised on purpose (to be logged, never shown). */
  unexpected?: unknown;
}

/** Maps any thrown value to the response the client sees. A 5xx never echoes internal messages. */
export function toHttpError(err: unknown): HttpError {
  const e = err as { type?: unknown; message?: unknown; name?: unknown } | null;
  if (e && isErrorCode(e.type)) {
    const status = ERROR_CATALOG[e.type];
    const message = status >= 500 && e.type === "internal_error" ? INTERNAL_MESSAGE : String(e.message);
    return { status, body: envelope(e.type, message) };
  }
  if (e && typeof e.name === "string" && DATABASE_UNAVAILABLE.has(e.name)) {
    return { status: 503, body: envelope("service_unavailable", "A database is temporarily unavailable. Retry with backoff."), unexpected: err };
  }
  if (e && (e.name === "ServiceNotFoundError" || e.name === "ServiceNotAvailableError" || e.name === "RequestTimeoutError" || e.name === "ServiceUnavailableError" || e.name === "RequestRejectedError")) {
    return { status: 503, body: envelope("service_unavailable", "The service is temporarily unavailable. Retry with backoff."), unexpected: err };
  }
  return { status: 500, body: envelope("internal_error", INTERNAL_MESSAGE), unexpected: err };
}

/** The MongoDB driver's errors for a server it cannot reach or lost: 503, retryable (a write cut off mid-way is as uncertain as any lost call). */
const DATABASE_UNAVAILABLE = new Set([
  "MongoServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoPoolClearedError",
]);

const INTERNAL_MESSAGE = "An internal error occurred. It is safe to retry with backoff.";

export function envelope(code: ErrorCode, message: string) {
  return { error: { code, message } };
}
