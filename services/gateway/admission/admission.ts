import type { ServiceBroker } from "moleculer";
import { call, type Caller } from "../../../shared/action";
import { hashApiKey } from "../../../shared/bearer";
import type { Clock } from "../../../shared/clock";
import { InvalidApiKeyError, RateLimitError } from "../../../shared/errors";
import { keyOwner } from "../../../shared/runtime/key-owner";
import { AuthActions, type Authenticated } from "../../../shared/schemas/admin";
import { BillingActions } from "../../../shared/schemas/billing";
import { GatewayActions, KEY_CACHE_TTL_MS } from "../../../shared/schemas/gateway";
import { KeyCache } from "./key-cache";
import { LastUsedRecorder, RequestCounter } from "./recorders";
import { WindowOwner } from "./window-owner";

const KEY_CACHE_MAX = 50_000;
const LAST_USED_FLUSH_MS = 5000;

/**
 * Admission of `/v1` requests (docs/request-path.md): every gateway hashes the bearer token; the
 * gateway that owns the digest admits the request from its cached key record and the key's
 * window units it holds, in memory. Auth is asked for a key record once per `KEY_CACHE_TTL_MS`
 * and for units once per block; `last_used_at` and the per-day request counts are sent in batches.
 */
export class KeyAdmission {
  readonly keys: KeyCache;
  readonly windows: WindowOwner;
  private readonly lastUsed: LastUsedRecorder;
  private readonly requests: RequestCounter;

  constructor(
    private readonly broker: ServiceBroker,
    private readonly clock: Clock,
  ) {
    // A look-up is a read: retried on another auth process when its node was lost (the broker's retry policy).
    this.keys = new KeyCache((key_hash) => call(broker, AuthActions.lookupKey, { key_hash }, { retries: 1 }), { ttlMs: KEY_CACHE_TTL_MS, maxEntries: KEY_CACHE_MAX });
    this.windows = new WindowOwner(
      {
        reserve: (key_id) => call(broker, AuthActions.reserveUnits, { key_id }),
        release: (key_id, ends_at, units) => call(broker, AuthActions.releaseUnits, { key_id, ends_at, units }),
      },
      clock,
    );
    this.lastUsed = new LastUsedRecorder((uses) => call(broker, AuthActions.recordKeyUse, { uses }));
    this.requests = new RequestCounter((counts) => call(broker, BillingActions.recordRequests, { counts }));
  }

  /**
   * A request with this bearer token, admitted by the gateway that owns the key (this one, or one
   * call away). Every token, well-formed or not, takes the same path (hash, owner, look up by
   * digest), so the 401 causes are indistinguishable.
   */
  admitToken(caller: Caller, token: string): Promise<Authenticated> {
    const digest = hashApiKey(token);
    const owner = keyOwner(this.broker, GatewayActions.admit.action, digest);
    if (owner === undefined || owner === this.broker.nodeID) return this.admit(digest);
    return call(caller, GatewayActions.admit, { key_hash: digest }, { nodeID: owner });
  }

  /** Admits one request of the key with this digest here: 401 when it is not a live key, 429 when its window is spent. */
  async admit(digest: string): Promise<Authenticated> {
    // Found by its digest (the cache's key, auth's unique index): no second comparison to make.
    const key = await this.keys.get(digest);
    if (!key) throw new InvalidApiKeyError();
    const { admitted, state } = await this.windows.admit(key._id, key.rate_limit_rpm);
    if (!admitted) throw new RateLimitError(state);
    const now = this.clock.now();
    this.lastUsed.record(key._id, now);
    this.requests.record(key.org_id, now);
    return { org_id: key.org_id, key_id: key._id, mode: key.mode, rateLimit: state };
  }

  start(usageFlushMs: number): void {
    this.lastUsed.start(LAST_USED_FLUSH_MS);
    this.requests.start(usageFlushMs);
  }

  /** Sends what was counted and gives back unused window units, so the keys' next owner can use them. */
  async stop(): Promise<void> {
    await Promise.all([this.lastUsed.stop(), this.requests.stop(), this.windows.releaseAll().catch(() => undefined)]);
  }
}
