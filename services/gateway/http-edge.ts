import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { envelope, INVALID_ADMIN_TOKEN_MESSAGE, INVALID_API_KEY_MESSAGE, writeErrorEnvelope, type ErrorCode } from "../../shared/errors";
import { rootLogger } from "../../shared/logger";

/**
 * The HTTP edge, before any routing (docs/failure-semantics.md#http-edge):
 * the server's own timeouts for slow clients, a per-client connection cap, and the
 * request-target checks that keep broken paths out of the router (which would throw on them).
 */

export interface EdgeLimits {
  /** Whole header block received within this (from the connection's first byte or the previous response). */
  headersTimeoutMs: number;
  /** Whole request (headers and body) received within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections one client address may hold; more are answered 429 and closed. */
  maxConnectionsPerClient: number;
}

/** The longest path the API accepts, and the longest single segment (ids are 36 characters). */
export const MAX_PATH_BYTES = 2048;
export const MAX_SEGMENT_BYTES = 256;

const CONTROL = /[\u0000-\u001f\u007f]/;

export interface PathProblem {
  status: 400 | 401;
  code: ErrorCode;
  message: string;
}

/**
 * What is wrong with a request-target's path, or null when it may be routed: it must be
 * origin-form, valid percent-encoding of UTF-8, without control characters or dot segments,
 * and within the length bounds.
 */
export function pathProblem(target: string): string | null {
  const q = target.indexOf("?");
  const path = q === -1 ? target : target.slice(0, q);
  const query = q === -1 ? "" : target.slice(q + 1);
  if (!path.startsWith("/")) return "the request path must start with '/'";
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return `the request path exceeds ${MAX_PATH_BYTES} bytes`;
  for (const segment of path.split("/")) {
    if (segment.length > MAX_SEGMENT_BYTES) return `a path segment exceeds ${MAX_SEGMENT_BYTES} bytes`;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return "the request path has malformed percent-encoding";
    }
    if (CONTROL.test(decoded)) return "the request path contains control characters";
    if (decoded === "." || decoded === ".." || decoded.includes("/") || decoded.includes("\\")) return "the request path contains dot segments or encoded separators";
  }
  for (const pair of query.split("&")) {
    try {
      decodeURIComponent(pair.replace(/\+/g, " "));
    } catch {
      return "the query string has malformed percent-encoding";
    }
  }
  return null;
}

/** Routes that authenticate: without credentials, a broken path there is a 401 like any other request. */
const AUTHENTICATED_PREFIXES = ["/v1/", "/admin/"];

/** The answer to a request whose path cannot be routed: 401 when an authenticated route was called without a bearer token, else 400. */
export function rejectionFor(req: IncomingMessage, problem: string): PathProblem {
  const target = req.url ?? "/";
  const authenticated = AUTHENTICATED_PREFIXES.some((p) => target.startsWith(p) || target === p.slice(0, -1));
  const bearer = /^Bearer\s+\S+/i.test(req.headers.authorization ?? "");
  if (authenticated && !bearer) {
    const admin = target.startsWith("/admin");
    return admin
      ? { status: 401, code: "invalid_admin_token", message: INVALID_ADMIN_TOKEN_MESSAGE }
      : { status: 401, code: "invalid_api_key", message: INVALID_API_KEY_MESSAGE };
  }
  return { status: 400, code: "invalid_request", message: `Malformed request: ${problem}.` };
}

function sendEnvelope(res: ServerResponse, status: number, code: ErrorCode, message: string, extra: Record<string, string> = {}): void {
  writeErrorEnvelope(res, status, envelope(code, message), extra);
}

/**
 * The gateway's HTTP server: slow-client limits from `limits`, and every request's target
 * checked before `handler` (moleculer-web's router) sees it.
 */
export function createEdgeServer(limits: EdgeLimits, handler: (req: IncomingMessage, res: ServerResponse) => void): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default): check every quarter of the shorter one.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4))),
    },
    (req, res) => {
      const problem = pathProblem(req.url ?? "/");
      if (problem) {
        const r = rejectionFor(req, problem);
        if (r.status === 401) res.setHeader("www-authenticate", r.code === "invalid_admin_token" ? 'Bearer realm="admin"' : 'Bearer realm="api"');
        rootLogger().info({ method: req.method, status: r.status, reason: problem }, "http request refused at the edge");
        // The body is not read: close the connection so an unread body cannot be taken for the next request.
        return sendEnvelope(res, r.status, r.code, r.message, { connection: "close" });
      }
      handler(req, res);
    },
  );
  limitConnectionsPerClient(server, limits.maxConnectionsPerClient);
  return server;
}

/** At most `max` open connections per client address; the one over is answered 429 and closed. */
function limitConnectionsPerClient(server: http.Server, max: number): void {
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const who = socket.remoteAddress ?? "unknown";
    const count = (open.get(who) ?? 0) + 1;
    open.set(who, count);
    socket.once("close", () => {
      const left = (open.get(who) ?? 1) - 1;
      if (left <= 0) open.delete(who);
      else open.set(who, left);
    });
    if (count > max) {
      const payload = JSON.stringify(envelope("rate_limit_exceeded", `Too many open connections from one client (at most ${max}). Reuse connections or retry later.`));
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\nconnection: close\r\nretry-after: 1\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
      );
      socket.destroySoon?.();
    }
  });
}
