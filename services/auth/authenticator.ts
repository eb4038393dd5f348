import type { Context, ServiceBroker } from "moleculer";
import type { Db } from "mongodb";
import type { Clock } from "../../shared/clock";
import { InvalidApiKeyError, RateLimitError } from "../../shared/errors";
import { nodesServing } from "../../shared/runtime/key-owner";
import { secretsEqual } from "../../shared/bearer";
import { hashApiKey } from "./api-key";
import { KeyCache, type KeyRecord } from "./key-cache";
import { call } from "../../shared/action";
import { AuthActions, type Authenticated } from "../../shared/schemas/admin";
import { API_KEYS, type ApiKeyDoc } from "./store";
import { WindowOwner, mongoWindowStore } from "./window-owner";

/** How long a cached key record is trusted without a revocation notice (and how long a revoke waits for a process that did not acknowledge). */
export const KEY_CACHE_TTL_MS = 5000;
const KEY_CACHE_MAX = 50_000;
/** How long a revoke waits for each auth process to acknowledge the notice. */
export const REVOCATION_ACK_TIMEOUT_MS = 1000;

const KEY_PROJECTION = { _id: 1, org_id: 1, key_hash: 1, mode: 1, rate_limit_rpm: 1 } as const;

/**
 * The request path of authentication (docs/request-path.md): the key record from this process's
 * cache, the request counted in the key's window held here. No database write per request.
 */
export class Authenticator {
  readonly keys: KeyCache;
  readonly windows: WindowOwner;

  constructor(db: () => Db, clock: Clock) {
    const collection = () => db().collection<ApiKeyDoc>(API_KEYS);
    // Only live keys: a revoked and an unknown digest read the same (null).
    this.keys = new KeyCache((digest) => collection().findOne<KeyRecord>({ key_hash: digest, revoked_at: null }, { projection: KEY_PROJECTION }), {
      ttlMs: KEY_CACHE_TTL_MS,
      maxEntries: KEY_CACHE_MAX,
    });
    this.windows = new WindowOwner(mongoWindowStore(collection), clock);
  }

  /**
   * Verifies a bearer token and counts the request in its key's window. Every token, well-formed
   * or not, takes the same path (hash, look up by digest), so the 401 causes are indistinguishable.
   */
  async authenticate(token: string): Promise<Authenticated> {
    const digest = hashApiKey(token);
    const key = await this.keys.get(digest);
    if (!key || !secretsEqual(key.key_hash, digest)) throw new InvalidApiKeyError();
    const { admitted, state } = await this.windows.admit(key._id, key.rate_limit_rpm);
    if (!admitted) throw new RateLimitError(state);
    return { org_id: key.org_id, key_id: key._id, mode: key.mode, rateLimit: state };
  }
}

/**
 * After a revocation is written: tells every auth process to drop the key and waits for each to
 * acknowledge. When one does not (dead, partitioned, slow), waits until any record it may hold
 * has expired (`KEY_CACHE_TTL_MS` after the write began), so that when the revoke call returns no
 * process can admit the key any more.
 */
export async function announceRevocation(broker: ServiceBroker, ctx: Context, keyHash: string, writeStartedAt: number): Promise<{ acknowledged: number; waitedMs: number }> {
  const nodes = nodesServing(broker, AuthActions.forgetKey.action);
  const results = await Promise.allSettled(
    nodes.map((nodeID) => call(ctx, AuthActions.forgetKey, { key_hash: keyHash }, { nodeID, timeout: REVOCATION_ACK_TIMEOUT_MS, retries: 0 })),
  );
  const acknowledged = results.filter((r) => r.status === "fulfilled").length;
  if (acknowledged === nodes.length) return { acknowledged, waitedMs: 0 };
  const waitedMs = Math.max(0, writeStartedAt + KEY_CACHE_TTL_MS - Date.now());
  await new Promise((resolve) => setTimeout(resolve, waitedMs));
  return { acknowledged, waitedMs };
}
