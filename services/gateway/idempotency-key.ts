import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { IdempotencyKey } from "../../shared/schemas/idempotency-key";
import { creatingRouteAt } from "./routes";

/** The request header, as Node names it. */
const HEADER = "idempotency-key";

/**
 * Every request to a creating route carries an Idempotency-Key (docs/failure-semantics.md#idempotency-keys):
 * the client's, or a fresh UUID assigned here when it sent none, written into the request's headers so
 * the route passes it to the action exactly as a client's key. It is set on the answer before anything
 * can fail, so every answer returns it, a 5xx included. Returns the key (undefined for other routes, and
 * for a malformed client key, which the route's validation refuses with a 400).
 */
export function assignIdempotencyKey(req: IncomingMessage, res: ServerResponse): string | undefined {
  const target = req.url ?? "/";
  const q = target.indexOf("?");
  if (!creatingRouteAt(req.method, q === -1 ? target : target.slice(0, q))) return undefined;
  const given = req.headers[HEADER];
  if (given !== undefined && (typeof given !== "string" || !IdempotencyKey.safeParse(given).success)) return undefined;
  const key = given ?? randomUUID();
  req.headers[HEADER] = key;
  res.setHeader(HEADER, key);
  assigned.set(req, key);
  return key;
}

const assigned = new WeakMap<IncomingMessage, string>();

/** The key `assignIdempotencyKey` gave this request, if any. */
export function idempotencyKeyOf(req: IncomingMessage): string | undefined {
  return assigned.get(req);
}
