import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { LRUCache } from "lru-cache";
import getRawBody from "raw-body";
import type { z } from "zod";
import { ApiError, NotFoundError, ValidationError } from "../../shared/errors";
import { formatIssues, safeParseReporting, uuid } from "../../shared/validation";
import type { RouteContract } from "./routes";

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  if (length !== undefined) return Number(length) > 0;
  return req.headers["transfer-encoding"] !== undefined;
}

/** Whether the request has a body that was not (fully) read: an answer to it must close the connection instead of reading the rest. */
export function bodyUnread(req: IncomingMessage): boolean {
  return hasBody(req) && !req.complete;
}

const CONTINUE = Symbol("send 100 Continue");
type ContinueAware = IncomingMessage & { [CONTINUE]?: () => void };

/** A request with `Expect: 100-continue`: its interim 100 is sent only when its body is about to be read. */
export function deferContinue(req: IncomingMessage, res: ServerResponse): void {
  (req as ContinueAware)[CONTINUE] = () => res.writeContinue();
}

function sendContinueIfAsked(req: IncomingMessage): void {
  const send = (req as ContinueAware)[CONTINUE];
  delete (req as ContinueAware)[CONTINUE];
  send?.();
}

const tooLarge = (limit: number) => new ApiError("payload_too_large", `Request body exceeds the limit of ${limit} bytes.`);

/**
 * Reads and parses a JSON body within `limit` bytes; no body at all reads as `{}`. Runs after
 * authentication. A declared `Content-Length` over the limit is refused before a byte is read (and
 * before `100 Continue`); a chunked body is cut off as soon as it passes the limit.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!hasBody(req)) return {};
  const type = req.headers["content-type"];
  if (!type || !JSON_TYPE.test(type)) {
    throw new ApiError("unsupported_media_type", "Request bodies must be JSON: send 'Content-Type: application/json'.");
  }
  if (Number(req.headers["content-length"]) > limit) throw tooLarge(limit);
  sendContinueIfAsked(req);
  let raw: string;
  try {
    raw = await getRawBody(req, { limit, encoding: "utf-8", length: req.headers["content-length"] });
  } catch (err) {
    const e = err as { type?: string };
    if (e.type === "entity.too.large") throw tooLarge(limit);
    throw new ValidationError("body: could not be read");
  }
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new ValidationError("body: malformed JSON");
  }
}

/** Path parameters must be UUIDs; anything else cannot name a resource, so it is a 404. */
export function checkPathParams(params: Record<string, string>): Record<string, string> {
  for (const value of Object.values(params)) {
    if (!uuid.safeParse(value).success) throw new NotFoundError();
  }
  return params;
}

function parsePart(schema: RouteContract["query"], input: unknown, label: "query" | "body"): Record<string, unknown> {
  if (!schema) return {};
  const result = safeParseReporting(schema, input);
  if (!result.success) {
    const issues = result.error.issues.map((i) => (i.path.length === 0 && i.code !== "unrecognized_keys" ? { ...i, path: [label] } : i));
    throw new ValidationError(formatIssues(issues));
  }
  return result.data as Record<string, unknown>;
}

/** The headers the route declares, each validated by its contract; an absent header is no param. Errors name the header. */
export function headerParams(contract: RouteContract, headers: IncomingHttpHeaders): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const issues: z.core.$ZodIssue[] = [];
  for (const [param, header] of Object.entries(contract.headers ?? {})) {
    const value = headers[header.name.toLowerCase()];
    if (value === undefined) continue;
    const result = safeParseReporting(header.schema, value);
    if (result.success) params[param] = result.data;
    else issues.push(...result.error.issues.map((i) => ({ ...i, path: [header.name] })));
  }
  if (issues.length) throw new ValidationError(formatIssues(issues));
  return params;
}

/** Query strings longer than this are parsed and validated every time; shorter ones once (`splitTarget`, `validQuery`). */
const MEMO_QUERY_CHARS = 256;
const parsedQueries = new LRUCache<string, Readonly<Record<string, string>>>({ max: 1024 });

/**
 * A request-target split into its path and its parsed query, as moleculer-web's own
 * `parseQueryString` does it (`parse` is that parser). A short query string that parses to plain
 * strings is parsed once and kept (the 1,024 most recent); every request gets its own copy.
 */
export function splitTarget(target: string, parse: (raw: string) => Record<string, unknown>): { url: string; query: Record<string, unknown> } {
  const q = target.indexOf("?", 1);
  if (q === -1) return { url: target, query: {} };
  const url = target.slice(0, q);
  const raw = target.slice(q + 1);
  if (raw.length > MEMO_QUERY_CHARS) return { url, query: parse(raw) };
  let known = parsedQueries.get(raw);
  if (!known) {
    const query = parse(raw);
    if (!Object.values(query).every((v) => typeof v === "string")) return { url, query };
    parsedQueries.set(raw, (known = Object.freeze({ ...(query as Record<string, string>) })));
  }
  return { url, query: { ...known } };
}
const validQueries = new WeakMap<object, LRUCache<string, Readonly<Record<string, unknown>>>>();

/**
 * A route's validated query for its raw query string. The same string parses and validates the same
 * every time, so a valid one is kept (per route schema, the 256 most recent, each at most 256
 * characters): a client polling one URL is validated once. An invalid one is refused every time.
 */
function validQuery(schema: RouteContract["query"], raw: string | undefined, query: unknown): Record<string, unknown> {
  if (!schema || raw === undefined || raw.length > MEMO_QUERY_CHARS) return parsePart(schema, query, "query");
  let memo = validQueries.get(schema);
  if (!memo) validQueries.set(schema, (memo = new LRUCache({ max: 256 })));
  let valid = memo.get(raw);
  if (!valid) memo.set(raw, (valid = Object.freeze(parsePart(schema, query, "query"))));
  return valid;
}

/** The action's params: path, query, body and declared headers, each validated by the route's contract. */
export function buildParams(
  contract: RouteContract,
  input: { path: Record<string, string>; query: unknown; rawQuery?: string; body: unknown; headers?: IncomingHttpHeaders },
): Record<string, unknown> {
  return {
    ...validQuery(contract.query, input.rawQuery, input.query),
    ...parsePart(contract.body, input.body, "body"),
    ...headerParams(contract, input.headers ?? {}),
    ...checkPathParams(input.path),
  };
}

/** The request-target's query string as sent ("" when there is none). */
function rawQueryOf(req: IncomingMessage & { originalUrl?: string }): string {
  const target = req.originalUrl ?? req.url ?? "";
  const q = target.indexOf("?");
  return q === -1 ? "" : target.slice(q + 1);
}

/** Reads the body when the route takes one, then validates path, query, body and headers: the action's params. */
export async function readCallParams(
  contract: RouteContract,
  req: IncomingMessage & { query?: unknown; originalUrl?: string },
  path: Record<string, string>,
  maxBodyBytes: number,
): Promise<Record<string, unknown>> {
  const body = contract.body ? await readJsonBody(req, maxBodyBytes) : {};
  return buildParams(contract, { path, query: req.query, rawQuery: rawQueryOf(req), body, headers: req.headers });
}
