import net from "node:net";
import { Agent, buildConnector, errors as undiciErrors } from "undici";
import {
  FetchAbortedError,
  FetchNetworkError,
  FetchTimeoutError,
  ForbiddenUrlError,
  OutboundRequestError,
  TooLargeError,
  TooManyRedirectsError,
  UnsupportedContentTypeError,
} from "./errors";
import { guardedLookup, isForbiddenAddress, systemResolver, urlProblem, type HostResolver, type UrlPolicy } from "./url-guard";

/** The default User-Agent of every outbound request; robots.txt groups match its product token, `ArticlePlatformBot`. */
export const PLATFORM_USER_AGENT = "ArticlePlatformBot/1.0";

export interface SafeFetchOptions {
  policy: UrlPolicy;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, redirects and body included. Default 10 s. */
  timeoutMs?: number;
  /** Body bytes read at most. Default 2 MiB. */
  maxBytes?: number;
  /** Past `maxBytes`: throw TooLargeError (default) or return the first `maxBytes` with `truncated: true`. */
  onOversize?: "throw" | "truncate";
  /** Default 5. 0 returns a 3xx response as it is. */
  maxRedirects?: number;
  /** Media types accepted (e.g. `text/html`); any other is refused with UnsupportedContentTypeError before its body is read. */
  accept?: readonly string[];
  userAgent?: string;
  signal?: AbortSignal;
  /** DNS used at connect time; tests inject fake answers here. */
  resolver?: HostResolver;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  /** The URL that produced this response, after redirects. */
  url: string;
  /** Every URL that answered with a followed redirect, in order. */
  redirects: string[];
  body: Buffer;
  /** Media type, lower case, without parameters; "" when the response has none. */
  contentType: string;
  truncated: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Credentials meant for one origin are not forwarded to another on redirect. */
const ORIGIN_BOUND_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/** `text/html; charset=utf-8` → `{ mediaType: "text/html", charset: "utf-8" }`. */
export function parseContentType(value: string | undefined): { mediaType: string; charset?: string } {
  if (!value) return { mediaType: "" };
  const [type, ...params] = value.split(";");
  const charsetParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("charset="));
  const charset = charsetParam?.slice("charset=".length).replace(/^"|"$/g, "").trim().toLowerCase();
  return { mediaType: type.trim().toLowerCase(), ...(charset ? { charset } : {}) };
}

/**
 * One Agent per (policy, resolver), reused across requests. Its connector refuses forbidden
 * literal-IP hosts (for which no lookup happens) and resolves names through the guarded lookup.
 */
const agentsByResolver = new WeakMap<HostResolver, Map<boolean, Agent>>();

function agentFor(policy: UrlPolicy, resolver: HostResolver): Agent {
  let agents = agentsByResolver.get(resolver);
  if (!agents) agentsByResolver.set(resolver, (agents = new Map()));
  let agent = agents.get(policy.allowLoopback);
  if (!agent) {
    const connectGuarded = buildConnector({ lookup: guardedLookup(policy, resolver) });
    agent = new Agent({
      connect: (options, callback) => {
        if (net.isIP(options.hostname) && isForbiddenAddress(options.hostname, policy)) {
          callback(new ForbiddenUrlError(`${options.hostname} is a forbidden address`), null);
          return;
        }
        connectGuarded(options, callback);
      },
    });
    agents.set(policy.allowLoopback, agent);
  }
  return agent;
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

type ResponseBody = AsyncIterable<Buffer> & { destroy(): unknown; on?(event: "error", listener: (err: unknown) => void): unknown };

/**
 * Stops reading a body we do not want: destroying closes the connection instead of draining it.
 * undici reports the destroy as an "aborted" error on the stream; with no listener that error would
 * be uncaught and end the process (a small PDF whose body had fully arrived did exactly that).
 */
function discardBody(body: ResponseBody): void {
  body.on?.("error", () => undefined);
  body.destroy();
}

async function readBounded(body: ResponseBody, url: string, maxBytes: number, onOversize: "throw" | "truncate") {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > maxBytes) {
      discardBody(body);
      if (onOversize === "throw") throw new TooLargeError(url, maxBytes);
      chunks.push(chunk.subarray(0, maxBytes - size));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/** The guard's refusal from the connection layer (which may wrap it), still without the URL it was for. */
function connectRefusal(err: unknown): ForbiddenUrlError | undefined {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof ForbiddenUrlError) return e;
  }
  return undefined;
}

const NETWORK_PROBLEMS: Record<string, string> = {
  ENOTFOUND: "host name does not resolve",
  EAI_AGAIN: "host name does not resolve",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection closed by the server",
  UND_ERR_SOCKET: "connection closed by the server",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "host unreachable",
};

/** A low-level failure as a message that names no internal detail (addresses, stack, library internals). */
function networkProblem(err: unknown): string {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== "string") continue;
    if (NETWORK_PROBLEMS[code]) return NETWORK_PROBLEMS[code];
    if (/CERT|SSL|TLS/.test(code)) return "TLS handshake failed";
  }
  return err instanceof undiciErrors.UndiciError ? "invalid HTTP response" : "request failed";
}

/**
 * An HTTP request to a user-supplied URL through the URL guard: every hop is checked before it is
 * requested, every connection resolves through the guarded lookup, and the body is read only up to
 * `maxBytes` and only when its content type is accepted. Non-2xx statuses are returned, not thrown.
 */
export async function safeFetch(rawUrl: string, opts: SafeFetchOptions): Promise<SafeResponse> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const agent = agentFor(opts.policy, opts.resolver ?? systemResolver);
  const accept = opts.accept?.map((t) => t.toLowerCase());

  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ForbiddenUrlError(`${rawUrl} is not an http(s) URL`, { url: rawUrl });
  }
  url.hash = "";
  const problem = urlProblem(url, opts.policy);
  if (problem) throw new ForbiddenUrlError(`${url.href} ${problem}`, { url: url.href });

  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout.signal, opts.signal]) : timeout.signal;
  let method = (opts.method ?? "GET").toUpperCase();
  let body = opts.body;
  const headers: Record<string, string> = {
    "user-agent": opts.userAgent ?? PLATFORM_USER_AGENT,
    ...(accept ? { accept: accept.join(", ") } : {}),
    ...Object.fromEntries(Object.entries(opts.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const redirects: string[] = [];

  try {
    for (;;) {
      const res = await agent.request({ origin: url.origin, path: url.pathname + url.search, method, headers, body, signal });
      const resHeaders = flattenHeaders(res.headers);
      const { mediaType } = parseContentType(resHeaders["content-type"]);
      const location = resHeaders.location;

      if (REDIRECT_STATUSES.has(res.statusCode) && location !== undefined && maxRedirects > 0) {
        await res.body.dump({ limit: 64 * 1024 });
        if (redirects.length >= maxRedirects) throw new TooManyRedirectsError(url.href, maxRedirects);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new FetchNetworkError(url.href, "redirect to an invalid URL", undefined);
        }
        next.hash = "";
        const refusal = urlProblem(next, opts.policy);
        if (refusal) throw new ForbiddenUrlError(`redirect to ${next.href} ${refusal}`, { url: next.href });
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === "POST")) {
          if (method !== "HEAD") method = "GET";
          body = undefined;
          delete headers["content-type"];
          delete headers["content-length"];
        }
        if (next.origin !== url.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
        redirects.push(url.href);
        url = next;
        continue;
      }

      const isRedirect = REDIRECT_STATUSES.has(res.statusCode);
      if (accept && !isRedirect && !accept.includes(mediaType)) {
        discardBody(res.body);
        throw new UnsupportedContentTypeError(url.href, mediaType);
      }
      const onOversize = opts.onOversize ?? "throw";
      const declared = Number(resHeaders["content-length"]);
      if (onOversize === "throw" && Number.isFinite(declared) && declared > maxBytes) {
        discardBody(res.body);
        throw new TooLargeError(url.href, maxBytes);
      }
      const read = await readBounded(res.body, url.href, maxBytes, onOversize);
      return { status: res.statusCode, headers: resHeaders, url: url.href, redirects, contentType: mediaType, ...read };
    }
  } catch (err) {
    if (timeout.signal.aborted) throw new FetchTimeoutError(url.href, timeoutMs);
    if (opts.signal?.aborted) throw new FetchAbortedError(url.href);
    const refused = connectRefusal(err);
    if (refused && refused.url === undefined) throw new ForbiddenUrlError(`${url.href} resolves to a forbidden address`, { url: url.href, address: refused.address });
    if (err instanceof OutboundRequestError) throw err;
    throw new FetchNetworkError(url.href, networkProblem(err), err);
  } finally {
    clearTimeout(timer);
  }
}
