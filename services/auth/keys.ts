import type { Collection, Db } from "mongodb";
import { InvalidApiKeyError, NotFoundError, RateLimitError } from "../../shared/errors";
import type { Clock } from "../../shared/clock";
import { newId } from "../../shared/ids";
import type { ApiKeyResource, Authenticated, CreatedApiKey } from "../../shared/schemas/admin";
import { secretsEqual } from "../../shared/bearer";
import { displayApiKey, generateApiKey, hashApiKey, type KeyMode } from "./api-key";
import { isOverLimit, windowEnd, windowState } from "./rate-window";
import { API_KEYS, type ApiKeyDoc } from "./store";

const keys = (db: Db): Collection<ApiKeyDoc> => db.collection<ApiKeyDoc>(API_KEYS);

const AUTH_PROJECTION = { _id: 1, org_id: 1, key_hash: 1, mode: 1, rate_limit_rpm: 1, window_ends_at: 1, window_count: 1 } as const;

/**
 * Verifies a bearer token and counts the request in the key's rate window, in one atomic
 * update when the window is open. Every token, well-formed or not, takes the same path
 * (hash, look up by digest) so that the four 401 causes are indistinguishable, also in time.
 */
export async function authenticateKey(db: Db, token: string, clock: Clock): Promise<Authenticated> {
  const digest = hashApiKey(token);
  const now = clock.now();
  const live = { key_hash: digest, revoked_at: null };
  const countInOpenWindow = () =>
    keys(db).findOneAndUpdate(
      { ...live, window_ends_at: { $gt: now } },
      { $inc: { window_count: 1 } },
      { returnDocument: "after", projection: AUTH_PROJECTION },
    );

  let doc = await countInOpenWindow();
  // No open window: open one. Only one of several concurrent requests can match an expired window.
  doc ??= await keys(db).findOneAndUpdate(
    { ...live, $or: [{ window_ends_at: null }, { window_ends_at: { $lte: now } }] },
    { $set: { window_ends_at: windowEnd(now), window_count: 1 } },
    { returnDocument: "after", projection: AUTH_PROJECTION },
  );
  // Lost the race to open it: another request just did, so count in that one.
  doc ??= await countInOpenWindow();
  if (!doc || !secretsEqual(digest, doc.key_hash)) throw new InvalidApiKeyError();

  const rateLimit = windowState(doc.window_count, doc.rate_limit_rpm, doc.window_ends_at!, now);
  if (isOverLimit(doc.window_count, doc.rate_limit_rpm)) throw new RateLimitError(rateLimit);
  return { org_id: doc.org_id, key_id: doc._id, mode: doc.mode, rateLimit };
}

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
