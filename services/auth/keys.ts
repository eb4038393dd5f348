import type { Collection, Db } from "mongodb";
import { NotFoundError } from "../../shared/errors";
import type { Clock } from "../../shared/clock";
import { newId } from "../../shared/ids";
import type { ApiKeyResource, CreatedApiKey, LiveKey } from "../../shared/schemas/admin";
import { hashApiKey } from "../../shared/bearer";
import { displayApiKey, generateApiKey, type KeyMode } from "./api-key";
import { API_KEYS, type ApiKeyDoc } from "./store";

const keys = (db: Db): Collection<ApiKeyDoc> => db.collection<ApiKeyDoc>(API_KEYS);

export async function createApiKey(
  db: Db,
  input: { org_id: string; mode: KeyMode; rate_limit_rpm: number },
  clock: Clock,
): Promise<CreatedApiKey> {
  const key = generateApiKey(input.mode);
  const doc: ApiKeyDoc = {
    _id: newId(),
    org_id: input.org_id,
    key_hash: hashApiKey(key),
    display: displayApiKey(key),
    mode: input.mode,
    rate_limit_rpm: input.rate_limit_rpm,
    created_at: clock.now(),
    revoked_at: null,
    last_used_at: null,
    window_ends_at: null,
    window_count: 0,
  };
  await keys(db).insertOne(doc);
  const { id, object, display, mode, rate_limit_rpm, created_at } = toApiKeyResource(doc);
  // The full key appears in this response only.
  return { id, object, key, display, mode, rate_limit_rpm, created_at, last_used_at: null, revoked_at: null };
}

export async function listApiKeys(db: Db, orgId: string): Promise<ApiKeyResource[]> {
  const docs = await keys(db).find({ org_id: orgId }).sort({ created_at: -1 }).toArray();
  return docs.map(toApiKeyResource);
}

/** Revokes a key; revoking twice keeps the first revocation time. */
export async function revokeApiKey(db: Db, keyId: string, clock: Clock): Promise<ApiKeyResource> {
  await keys(db).updateOne({ _id: keyId, revoked_at: null }, { $set: { revoked_at: clock.now() } });
  const doc = await keys(db).findOne({ _id: keyId });
  if (!doc) throw new NotFoundError("API key");
  return toApiKeyResource(doc);
}

/** The stored digest of a key (for its revocation notice), or null when there is no such key. */
export async function keyHashOf(db: Db, keyId: string): Promise<string | null> {
  const doc = await keys(db).findOne({ _id: keyId }, { projection: { key_hash: 1 } });
  return doc?.key_hash ?? null;
}

/** The live key with this digest, or null: an unknown and a revoked digest read the same, so the 401 causes take one path. */
export function findLiveKey(db: Db, keyHash: string): Promise<LiveKey | null> {
  return keys(db).findOne<LiveKey>({ key_hash: keyHash, revoked_at: null }, { projection: { _id: 1, org_id: 1, key_hash: 1, mode: 1, rate_limit_rpm: 1 } });
}

/** `last_used_at` of the keys the gateways admitted since their last report, in one round trip; never moved back. */
export async function recordKeyUse(db: Db, uses: { key_id: string; at: number }[]): Promise<Record<string, never>> {
  if (uses.length) {
    await keys(db).bulkWrite(
      uses.map(({ key_id, at }) => ({ updateOne: { filter: { _id: key_id }, update: { $max: { last_used_at: new Date(at) } } } })),
      { ordered: false },
    );
  }
  return {};
}

export function toApiKeyResource(doc: ApiKeyDoc): ApiKeyResource {
  return {
    id: doc._id,
    object: "api_key",
    display: doc.display,
    mode: doc.mode,
    rate_limit_rpm: doc.rate_limit_rpm,
    created_at: doc.created_at.toISOString(),
    last_used_at: doc.last_used_at ? doc.last_used_at.toISOString() : null,
    revoked_at: doc.revoked_at ? doc.revoked_at.toISOString() : null,
  };
}
