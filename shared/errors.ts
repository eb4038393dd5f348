import type { ServerResponse } from "node:http";
import { Errors } from "moleculer";

/**
 * The one error catalog: every code a client can see, with its HTTP status.
 * Codes of the article surface's error table, of the sibling surfaces' error table,
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
  outcome_unknown: 503,
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

export const INVALID_ADMIN_TOKEN_MESSAGE =
  "Invalid admin token. Pass ADMIN_TOKEN as a bearer token: 'Authorization: Bearer <ADMIN_TOKEN>'.";

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
    return { status: 503, body: envelope("service_unavailable", "A database is temporarily unavailable. Retry with backoff.") };
  }
  if (e && e.name === "BadRequestError" && (err as { code?: unknown }).code === 400) {
    // moleculer-web's own refusals (e.g. a path parameter it cannot decode): the client's request, not our fault.
    return { status: 400, body: envelope("invalid_request", "Malformed request: the request path or query could not be decoded.") };
  }
  if (isTransportError(err)) {
    return { status: 503, body: envelope("service_unavailable", "The service is temporarily unavailable. Retry with backoff.") };
  }
  return { status: 500, body: envelope("internal_error", INTERNAL_MESSAGE), unexpected: err };
}

/**
 * Errors of the transport between services, not of the action called: nothing was done, or it is
 * unknown whether it was, so the caller retries later (the job waits; HTTP answers 503).
 * Moleculer's retryable call errors, its skipped request (the call's time ran out before it was sent)
 * and moleculer-web's refusal while its broker is not started.
 */
export const TRANSPORT_ERRORS: ReadonlySet<string> = new Set([
  "ServiceNotFoundError",
  "ServiceNotAvailableError",
  "RequestTimeoutError",
  "RequestRejectedError",
  "RequestSkippedError",
  "ServiceUnavailableError",
]);

export function isTransportError(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return typeof name === "string" && TRANSPORT_ERRORS.has(name);
}

/**
 * A failure that is part of running a distributed system, not a bug: a service down, a node lost, a
 * call timed out, a database unreachable. Logged once per outage (shared/runtime/unavailability-log.ts), never with a stack per request.
 */
export function isExpectedUnavailability(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return typeof name === "string" && (TRANSPORT_ERRORS.has(name) || DATABASE_UNAVAILABLE.has(name));
}

/** The MongoDB driver's errors for a server it cannot reach or lost: 503, retryable (a write cut off mid-way is as uncertain as any lost call). */
const DATABASE_UNAVAILABLE = new Set([
  "MongoServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoPoolClearedError",
  // The driver's own subclasses name themselves apart: a pool cleared by a network error, a wait for a
  // connection that timed out, a server closed under an operation, an operation out of its time budget.
  "PoolClearedOnNetworkError",
  "MongoWaitQueueTimeoutError",
  "MongoServerClosedError",
  "MongoOperationTimeoutError",
]);

const INTERNAL_MESSAGE = "An internal error occurred. It is safe to retry with backoff.";

export function envelope(code: ErrorCode, message: string) {
  return { error: { code, message } };
}

/** What the HTTP edge knows of the request an error answers: to tell a route miss (404) from a wrong method (405), and a write not sent from one sent. */
export interface ErrorRequest {
  method?: string;
  path: string;
  /** The methods the API serves at `path` (none: no such route). */
  methodsAt(path: string): string[];
  /** A write's action, once the call to it was sent: a 5xx after that may follow a change. */
  sentTo?: string;
  /** The request's Idempotency-Key (the client's or the one the gateway assigned), returned with the answer. */
  idempotencyKey?: string;
}

/** An error's response at the HTTP edge: status, envelope and the headers that go with them. */
export interface HttpErrorResponse extends HttpError {
  headers: Record<string, string>;
}

/** Seconds a client is told to wait after a 503: about the time a lost node takes to be noticed and replaced. */
export const RETRY_AFTER_S = 2;

/** The web layer's "no route matched" (moleculer-web's own NotFoundError, not ours). */
function isRouteMiss(err: unknown): boolean {
  const e = err as { name?: unknown; code?: unknown; type?: unknown } | null;
  return !!e && e.name === "NotFoundError" && e.code === 404 && e.type === "NOT_FOUND";
}

/** No route matched: 405 when the path exists for other methods, 404 otherwise. */
function routeMiss(req: ErrorRequest): HttpErrorResponse {
  const path = req.path;
  const allowed = req.methodsAt(path.length > 1 ? path.replace(/\/$/, "") : path);
  if (allowed.length) {
    return {
      status: 405,
      body: envelope("method_not_allowed", `Method ${req.method} is not allowed on ${path}. Allowed: ${allowed.join(", ")}.`),
      headers: { allow: allowed.join(", ") },
    };
  }
  return { status: 404, body: envelope("not_found", `No route for ${req.method} ${path}.`), headers: {} };
}

/** Errors that prove the call to `action` never left this process: nothing can have changed. */
function neverSent(err: unknown, action: string): boolean {
  const e = err as { name?: unknown; data?: { action?: unknown } } | null;
  if (e?.name === "ServiceUnavailableError") return true;
  const own = e?.data?.action === action;
  return own && (e?.name === "ServiceNotFoundError" || e?.name === "ServiceNotAvailableError" || e?.name === "RequestSkippedError");
}

/**
 * A 5xx to a write that was sent (docs/failure-semantics.md#the-rule): unless the service itself said
 * nothing changed (its own `service_unavailable`, or a 502) or the call provably never left, the
 * outcome is unknown, and the answer says so and how to learn it: retry with the same Idempotency-Key.
 */
function sentWriteFailure(mapped: HttpError, err: unknown, req: ErrorRequest): HttpError {
  if (!req.sentTo || mapped.status < 500 || mapped.status === 502 || neverSent(err, req.sentTo)) return mapped;
  if ((err as { type?: unknown } | null)?.type === "service_unavailable") return mapped;
  const retry = req.idempotencyKey
    ? "Retry with the same Idempotency-Key (the idempotency-key header of this answer): the retry returns the first request's outcome and changes nothing twice."
    : "Without an Idempotency-Key a retry repeats the request: harmless for an update, a cancel or a delete; a creating request may create a second resource.";
  if (mapped.status === 500) return { ...mapped, body: envelope("internal_error", `An internal error occurred after the request was sent; its outcome is unknown. ${retry}`) };
  return { ...mapped, body: envelope("outcome_unknown", `The request was sent, but the service did not answer (it timed out or was lost): its outcome is unknown. ${retry}`) };
}

/** Maps any error the HTTP edge meets to its response, with the headers its status calls for. */
export function httpErrorResponse(err: unknown, req: ErrorRequest): HttpErrorResponse {
  if (isRouteMiss(err)) return routeMiss(req);
  const mapped: HttpErrorResponse = { ...sentWriteFailure(toHttpError(err), err, req), headers: {} };
  const e = err as { type?: unknown; data?: { rateLimit?: RateLimitState } } | null;
  if (e?.type === "rate_limit_exceeded" && e.data?.rateLimit) {
    Object.assign(mapped.headers, rateLimitHeaders(e.data.rateLimit), { "retry-after": String(e.data.rateLimit.retryAfter) });
  }
  if (mapped.status === 401) mapped.headers["www-authenticate"] = 'Bearer realm="api"';
  // Nothing changed, or the outcome is unknown and a retry learns it (docs/failure-semantics.md): say when to come back.
  if (mapped.status === 503) mapped.headers["retry-after"] = String(RETRY_AFTER_S);
  if (req.idempotencyKey) mapped.headers["idempotency-key"] = req.idempotencyKey;
  return mapped;
}

/** Writes an error envelope as the response (JSON, with its length). */
export function writeErrorEnvelope(res: ServerResponse, status: number, body: HttpError["body"], headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}
