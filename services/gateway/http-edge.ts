import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { envelope, writeErrorEnvelope, type ErrorCode } from "../../shared/errors";
import { rootLogger } from "../../shared/logger";
import { deferContinue } from "./http-input";

/**
 * The HTTP edge, before any routing (docs/failure-semantics.md#http-edge):
 * the server's own timeouts for slow clients, a per-client connection cap, authentication from the
 * headers before any body byte is read, and the request-target checks that keep broken paths out
 * of the router (which would throw on them).
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
  status: 400;
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

/** Which credentials a request needs before anything else is done with it: `/v1` an API key, `/admin` the admin token. */
export type Gate = "api" | "admin";

const GATES: [prefix: string, gate: Gate][] = [
  ["/v1", "api"],
  ["/admin", "admin"],
];

/**
 * The gate a request must pass, or null for a public path: every method and path under `/v1` and
 * `/admin`, known routes or not, except the public `GET`s listed in `publicTargets` ("GET /v1/openapi.json").
 */
export function gateOf(req: IncomingMessage, publicTargets: ReadonlySet<string>): Gate | null {
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  const path = q === -1 ? target : target.slice(0, q);
  if ((req.method === "GET" || req.method === "HEAD") && publicTargets.has(`GET ${path}`)) return null;
  for (const [prefix, gate] of GATES) if (path === prefix || path.startsWith(`${prefix}/`)) return gate;
  return null;
}

/** The answer to a request whose path cannot be routed (its credentials, if it needed any, were checked first). */
export function rejectionFor(problem: string): PathProblem {
  return { status: 400, code: "invalid_request", message: `Malformed request: ${problem}.` };
}

/** How long a connection answered without reading its body stays open (not read) so that the client reads the answer. */
export const LINGER_MS = 2000;

/**
 * The answer about to be written is the last on its connection, and the request's body is not read.
 * Node would read and discard the rest of the body and close the socket as soon as the answer is
 * written; closing a socket with unread bytes resets the connection, which can destroy the answer
 * before the client reads it. Instead the socket stops reading, sends the answer and a FIN, and is
 * closed `LINGER_MS` later (or when the client closes first). Reading stops, so a client still
 * sending is held by TCP flow control at no cost; one answer per request (no 408 follows).
 */
export function closeWithoutReading(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader("connection", "close");
  const socket = req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.pause();
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
}

function sendEnvelope(req: IncomingMessage, res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  closeWithoutReading(req, res);
  writeErrorEnvelope(res, status, envelope(code, message));
}

/**
 * Authentication at the edge (docs/failure-semantics.md#http-edge): a gated request is admitted from its
 * headers before any byte of its body is read; a refusal is answered by `refuse`, which closes the connection.
 */
export interface EdgeGatekeeper {
  publicTargets: ReadonlySet<string>;
  /** Resolves when the request may go on; rejects with the refusal (401, 429, 503). */
  admit(req: IncomingMessage, res: ServerResponse, gate: Gate): Promise<void>;
  /** Answers a refused request (the envelope, after `closeWithoutReading`). */
  refuse(req: IncomingMessage, res: ServerResponse, err: unknown): void;
}

/**
 * The gateway's HTTP server: slow-client limits from `limits`, and every request's target
 * checked before `handler` (moleculer-web's router) sees it.
 */
export function createEdgeServer(limits: EdgeLimits, gatekeeper: EdgeGatekeeper, handler: (req: IncomingMessage, res: ServerResponse) => void): http.Server {
  const route = (req: IncomingMessage, res: ServerResponse) => {
    const problem = pathProblem(req.url ?? "/");
    if (problem) {
      const r = rejectionFor(problem);
      rootLogger().info({ method: req.method, status: r.status, reason: problem }, "http request refused at the edge");
      // The body is not read: close the connection so an unread body cannot be taken for the next request.
      return sendEnvelope(req, res, r.status, r.code, r.message);
    }
    handler(req, res);
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    const gate = gateOf(req, gatekeeper.publicTargets);
    if (!gate) return route(req, res);
    gatekeeper.admit(req, res, gate).then(
      () => route(req, res),
      (err: unknown) => gatekeeper.refuse(req, res, err),
    );
  };
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default): check every quarter of the shorter one.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4))),
    },
    onRequest,
  );
  // `Expect: 100-continue`: Node would send the interim 100 at once; it is sent only when the body is about to be read (http-input.ts).
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    deferContinue(req, res);
    onRequest(req, res);
  });
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
