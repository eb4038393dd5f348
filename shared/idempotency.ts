import { createHash } from "node:crypto";
import type { Collection, Filter, OptionalUnlessRequiredId } from "mongodb";
import { isDuplicateKeyError } from "./db/duplicate-key";
import { ValidationError } from "./errors";

/**
 * Idempotent creation under an Idempotency-Key (docs/failure-semantics.md#idempotency-keys), for
 * resources created by one insert: the resource's id is derived from the key, so a retry of the same
 * creation names the same resource, and its insert meets the first one (a duplicate key) instead of
 * creating a second. The stored request hash tells a retry from another request under the same key.
 */

/** JSON with object keys sorted at every depth: equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The hash a key is bound to: the request as validated. */
export function requestHash(request: unknown): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

/** The id of what `scope` creates for `owner` (an organization, or "admin") under `key`: UUID-shaped, the same for every retry. */
export function idForKey(scope: string, owner: string, key: string): string {
  const h = createHash("sha256").update(`${scope}\u0000${owner}\u0000${key}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A request under a key already used must be the same request: anything else is a 400, never a silent replay. */
export function assertSameRequest(storedHash: string | undefined, hash: string): void {
  if (storedHash !== undefined && storedHash !== hash) throw keyReused();
}

/** The 400 of a key used again for another request. */
export function keyReused(): ValidationError {
  return new ValidationError("Idempotency-Key: was already used with a different request body (use a new key for a different request)");
}

/** A document created under a key carries the hash of the request that created it. */
export interface KeyedDoc {
  _id: string;
  request_hash?: string;
}

/**
 * The first outcome of a keyed creation: the document already stored under `doc._id` (a retry: the same
 * request, checked), or `doc` once inserted; `replayed` says which. A concurrent twin's insert is met as a
 * duplicate key and answered with what it stored. Without a hash (no key) this is a plain insert.
 */
export async function insertOrReplay<T extends KeyedDoc>(col: Collection<T>, doc: T): Promise<{ doc: T; replayed: boolean }> {
  const earlier = async () => {
    const found = doc.request_hash === undefined ? null : ((await col.findOne({ _id: doc._id } as Filter<T>)) as T | null);
    if (found) assertSameRequest(found.request_hash, doc.request_hash!);
    return found;
  };
  const before = await earlier();
  if (before) return { doc: before, replayed: true };
  try {
    await col.insertOne(doc as OptionalUnlessRequiredId<T>);
    return { doc, replayed: false };
  } catch (err) {
    const twin = isDuplicateKeyError(err) ? await earlier() : null;
    if (!twin) throw err;
    return { doc: twin, replayed: true };
  }
}
