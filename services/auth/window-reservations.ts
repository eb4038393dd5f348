import type { Collection } from "mongodb";
import type { Clock } from "../../shared/clock";
import { ApiError, InvalidApiKeyError } from "../../shared/errors";
import { windowEnd } from "../../shared/rate-window";
import type { UnitGrant } from "../../shared/schemas/admin";
import type { ApiKeyDoc } from "./store";

/**
 * The database side of the rate windows (docs/request-path.md#rate-windows): a key's fixed
 * 60-second window is stored on its document as its end and the units *reserved* in it by all
 * gateways (`window_ends_at`, `window_count`). Units are reserved in blocks with a compare-and-set,
 * so the sum of reservations in a window never exceeds the key's limit, whoever asks and however
 * often; the gateways admit requests only against units they reserved (services/gateway/admission).
 */

/** The window as stored, with the key's limit. */
export interface StoredWindow {
  window_ends_at: Date | null;
  window_count: number;
  rate_limit_rpm: number;
}

export interface WindowStore {
  /** The live key's window, or null when the key does not exist or was revoked. */
  read(keyId: string): Promise<StoredWindow | null>;
  /** Replaces the window only if it is still as `expected`; true when it was replaced. */
  compareAndSet(keyId: string, expected: Pick<StoredWindow, "window_ends_at" | "window_count">, next: { window_ends_at: Date; window_count: number }): Promise<boolean>;
}

export function mongoWindowStore(keys: () => Collection<ApiKeyDoc>): WindowStore {
  return {
    read: (keyId) => keys().findOne({ _id: keyId, revoked_at: null }, { projection: { window_ends_at: 1, window_count: 1, rate_limit_rpm: 1 } }),
    async compareAndSet(keyId, expected, next) {
      const r = await keys().updateOne(
        { _id: keyId, window_ends_at: expected.window_ends_at, window_count: expected.window_count },
        { $set: { window_ends_at: next.window_ends_at, window_count: next.window_count } },
      );
      return r.matchedCount === 1;
    },
  };
}

/** Share of a key's limit reserved at a time: 10 % (at least 1), the most a crash of its owner can cost it in a window. */
export const BLOCK_SHARE = 0.1;
/** Compare-and-set attempts before a reservation gives up (503): only contention between owners makes one fail. */
const CAS_ATTEMPTS = 25;

export function blockSize(limit: number): number {
  return Math.max(1, Math.ceil(limit * BLOCK_SHARE));
}

/** Reserves the next block of the key's window, opening a new window when none is open; 0 granted when it is fully reserved. */
export async function reserveUnits(store: WindowStore, keyId: string, clock: Clock): Promise<UnitGrant> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const doc = await store.read(keyId);
    if (!doc) throw new InvalidApiKeyError();
    const limit = doc.rate_limit_rpm;
    const now = clock.now();
    if (doc.window_ends_at === null || doc.window_ends_at.getTime() <= now.getTime()) {
      const next = { window_ends_at: windowEnd(now), window_count: Math.min(blockSize(limit), limit) };
      if (await store.compareAndSet(keyId, doc, next)) return grant(next.window_ends_at, now, next.window_count, next.window_count);
      continue;
    }
    const free = limit - doc.window_count;
    if (free <= 0) return grant(doc.window_ends_at, now, 0, doc.window_count);
    const n = Math.min(blockSize(limit), free);
    if (await store.compareAndSet(keyId, doc, { window_ends_at: doc.window_ends_at, window_count: doc.window_count + n })) {
      return grant(doc.window_ends_at, now, n, doc.window_count + n);
    }
  }
  throw new ApiError("service_unavailable", "The rate window could not be reserved right now. Retry with backoff.");
}

function grant(endsAt: Date, now: Date, granted: number, reserved: number): UnitGrant {
  return { ends_at: endsAt.getTime(), ends_in_ms: endsAt.getTime() - now.getTime(), granted, reserved };
}

/** Gives back unused units of a window still open (a gateway stopping), so the key's next owner can use them. */
export async function releaseUnits(store: WindowStore, keyId: string, endsAt: number, units: number): Promise<number> {
  for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
    const doc = await store.read(keyId);
    if (!doc?.window_ends_at || doc.window_ends_at.getTime() !== endsAt) return 0;
    const released = Math.min(units, doc.window_count);
    if (await store.compareAndSet(keyId, doc, { window_ends_at: doc.window_ends_at, window_count: doc.window_count - released })) return released;
  }
  return 0;
}
