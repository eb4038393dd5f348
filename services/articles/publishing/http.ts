import { OutboundRequestError } from "../../../shared/net/errors";
import { safeFetch, type SafeResponse } from "../../../shared/net/safe-fetch";
import { retryAfterHeaderMs } from "../../../shared/net/retry-after";
import type { HostResolver, UrlPolicy } from "../../../shared/net/url-guard";

/**
 * The one way publishing talks to a content system: every request goes through the URL guard
 * (safeFetch), each with its own timeout, retried on 429 and 5xx with backoff that honours
 * Retry-After, all within one deadline for the whole publish. Anything else that is not a success
 * becomes an UpstreamError carrying the upstream status and the vendor's reason.
 */

export interface UpstreamOptions {
  policy: UrlPolicy;
  /** One request (connect to last body byte). */
  requestTimeoutMs: number;
  /** Epoch ms after which no request starts and no retry waits. */
  deadlineAt: number;
  /** Retries of one request after a 429 or 5xx answer. */
  maxRetries: number;
  resolver?: HostResolver;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Why a content system did not do what was asked: its status (null when none came) and reason. */
export class UpstreamError extends Error {
  constructor(
    readonly status: number | null,
    readonly reason: string,
  ) {
    super(status === null ? reason : `${status}: ${reason}`);
    this.name = "UpstreamError";
  }
}

export interface UpstreamRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON with the given content type (default application/json). */
  json?: unknown;
  jsonType?: string;
  /** Raw bytes with their content type. */
  body?: Buffer;
  contentType?: string;
  /** Statuses answered as they are instead of thrown (e.g. 404 to detect an entry deleted upstream). */
  allow?: readonly number[];
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined for an empty or non-JSON body. */
  data: any;
}

/** How a vendor's error body reads as one sentence (its message field), given the parsed body. */
export type ErrorReader = (data: any) => string | undefined;

const RETRYABLE = (status: number) => status === 429 || status >= 500;
const MAX_REASON = 300;
const BASE_BACKOFF_MS = 250;
const MAX_BODY_BYTES = 8 * 1024 * 1024;

function parseJson(res: SafeResponse): any {
  if (res.body.length === 0) return undefined;
  try {
    return JSON.parse(res.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_REASON ? `${oneLine.slice(0, MAX_REASON - 1)}…` : oneLine;
}

/** A client bound to one vendor's error format and one publish's deadline. */
export function upstreamClient(opts: UpstreamOptions, readError: ErrorReader) {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  function reasonOf(res: SafeResponse, data: any): string {
    const vendor = data !== undefined ? readError(data) : undefined;
    if (vendor) return clip(vendor);
    const text = res.contentType.startsWith("text/plain") ? res.body.toString("utf8") : "";
    return clip(text || `HTTP ${res.status}`);
  }

  return async function send(req: UpstreamRequest): Promise<UpstreamResponse> {
    const headers: Record<string, string> = { accept: "application/json", ...req.headers };
    let body: string | Buffer | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers["content-type"] = req.jsonType ?? "application/json";
    } else if (req.body) {
      body = req.body;
      headers["content-type"] = req.contentType ?? "application/octet-stream";
    }
    for (let attempt = 0; ; attempt++) {
      const remaining = opts.deadlineAt - now();
      if (remaining <= 0) throw new UpstreamError(null, "no answer within the publishing deadline");
      let res: SafeResponse;
      try {
        res = await safeFetch(req.url, {
          policy: opts.policy,
          method: req.method,
          headers,
          body,
          timeoutMs: Math.min(opts.requestTimeoutMs, remaining),
          maxBytes: MAX_BODY_BYTES,
          maxRedirects: 0,
          resolver: opts.resolver,
        });
      } catch (err) {
        // Timeouts and connection failures are not retried: a write may have landed.
        if (err instanceof OutboundRequestError) throw new UpstreamError(null, clip(err.code === "ETIMEDOUT" ? `timed out: ${err.message}` : err.message));
        throw err;
      }
      const data = parseJson(res);
      if (res.status >= 200 && res.status < 300) return { status: res.status, headers: res.headers, data };
      if (req.allow?.includes(res.status)) return { status: res.status, headers: res.headers, data };
      if (RETRYABLE(res.status) && attempt < opts.maxRetries) {
        const wait = retryAfterHeaderMs(res.headers["retry-after"], now()) ?? BASE_BACKOFF_MS * 2 ** attempt * (0.5 + Math.random() / 2);
        if (now() + wait < opts.deadlineAt) {
          await sleep(wait);
          continue;
        }
      }
      if (res.status >= 300 && res.status < 400) throw new UpstreamError(res.status, `redirected to ${res.headers.location ?? "(no location)"}: set the site address the redirect points to`);
      throw new UpstreamError(res.status, reasonOf(res, data));
    }
  };
}

export type Send = ReturnType<typeof upstreamClient>;

/** A multipart/form-data body built by the platform's own FormData (undici), as bytes and its content type. */
export async function multipart(fields: Record<string, string | { bytes: Buffer; filename: string; contentType: string }>): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, new Blob([new Uint8Array(value.bytes)], { type: value.contentType }), value.filename);
  }
  const encoded = new Request("http://multipart.invalid/", { method: "POST", body: form });
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type")! };
}
