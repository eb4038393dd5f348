import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
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

/** Reads and parses a JSON body within `limit` bytes; no body at all reads as `{}`. */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!hasBody(req)) return {};
  const type = req.headers["content-type"];
  if (!type || !JSON_TYPE.test(type)) {
    throw new ApiError("unsupported_media_type", "Request bodies must be JSON: send 'Content-Type: application/json'.");
  }
  let raw: string;
  try {
    raw = await getRawBody(req, { limit, encoding: "utf-8", length: req.headers["content-length"] });
  } catch (err) {
    const e = err as { type?: string };
    if (e.type === "entity.too.large") throw new ApiError("payload_too_large", `Request body exceeds the limit of ${limit} bytes.`);
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

/** The action's params: path, query, body and declared headers, each validated by the route's contract. */
export function buildParams(
  contract: RouteContract,
  input: { path: Record<string, string>; query: unknown; body: unknown; headers?: IncomingHttpHeaders },
): Record<string, unknown> {
  return {
    ...parsePart(contract.query, input.query, "query"),
    ...parsePart(contract.body, input.body, "body"),
    ...headerParams(contract, input.headers ?? {}),
    ...checkPathParams(input.path),
  };
}

/** Reads the body when the route takes one, then validates path, query, body and headers: the action's params. */
export async function readCallParams(
  contract: RouteContract,
  req: IncomingMessage & { query?: unknown },
  path: Record<string, string>,
  maxBodyBytes: number,
): Promise<Record<string, unknown>> {
  const body = contract.body ? await readJsonBody(req, maxBodyBytes) : {};
  return buildParams(contract, { path, query: req.query, body, headers: req.headers });
}
