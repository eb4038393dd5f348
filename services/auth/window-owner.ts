import type { Collection } from "mongodb";
import type { Clock } from "../../shared/clock";
import { ApiError, InvalidApiKeyError, type RateLimitState } from "../../shared/errors";
import { windowEnd, windowState } from "./rate-window";
import type { ApiKeyDoc } from "./store";

/**
 * The rate windows this auth process owns (docs/request-path.md#rate-windows).
 *
 * A key's fixed 60-second window lives in the database as its end and the number of requests
 * *reserved* in it (`window_ends_at`, `window_count`). An auth process admits a request only
 * against units it reserved there beforehand, in blocks, with a compare-and-set: the sum of all
 * reservations in a window never exceeds the key's limit, whatever the processes do or how the
 * gateways route. The gateways send each key to one auth process (its owner: shared/runtime/key-owner.ts),
 * so normally one process holds all of a key's units, counts in memory, and answers exact
 * `x-ratelimit-remaining` values; the database is written once per block, not once per request.
 *
 * A process that dies loses the unused units of its current blocks for the rest of the window: the
 * key is under-admitted by at most one block (`blockSize`) per crashed owner and window, never over.
 * A process that stops gracefully gives its unused units back (`releaseAll`).
 */

/** The window as the database stores it: its end, and the units reserved in it by all processes. */
export interface StoredWindow {
  window_ends_at: Date | null;
  window_count: number;
}

export interface WindowStore {
  /** The key's window, or null when the key does not exist. */
  read(keyId: string): Promise<StoredWindow | null>;
  /** Replaces the window only if it is still `expected`; true when it was replaced. */
  compareAndSet(keyId: string, expected: StoredWindow, next: { window_ends_at: Date; window_count: number }): Promise<boolean>;
}

export function mongoWindowStore(keys: () => Collection<ApiKeyDoc>): WindowStore {
  return {
    read: (keyId) => keys().findOne({ _id: keyId }, { projection: { window_ends_at: 1, window_count: 1 } }),
    async compareAndSet(keyId, expected, next) {
      const r = await keys().updateOne(
        { _id: keyId, window_ends_at: expected.window_ends_at, window_count: expected.window_count },
        { $set: { window_ends_at: next.window_ends_at, window_count: next.window_count } },
      );
      return r.matchedCount === 1;
    },
  };
}

export interface Admission {
  admitted: boolean;
  state: RateLimitState;
}

interface HeldWindow {
  /** The window's end (ms): units held for it are void afterwards. */
  endsAt: number;
  /** Units this process reserved and has not used yet. */
  left: number;
  /** `window_count` as this process last saw it, its own last reservation included. */
  reservedSeen: number;
  /** The window was found fully reserved: refuse without asking the database until then. */
  fullUntil: number;
}

/** Share of a key's limit reserved at a time: 10 % (at least 1), the most a crash can cost it in a window. */
export const BLOCK_SHARE = 0.1;
/** A fully reserved window is read again this often (units given back by a process that stopped). */
export const FULL_RECHECK_MS = 1000;
/** Compare-and-set attempts before a reservation gives up (503): only contention between owners makes one fail. */
const CAS_ATTEMPTS = 25;

export function blockSize(limit: number): number {
  return Math.max(1, Math.ceil(limit * BLOCK_SHARE));
}

export class WindowOwner {
  private readonly windows = new Map<string, HeldWindow>();
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(
    private readonly store: WindowStore,
    private readonly clock: Clock,
  ) {}

  /** Counts one request of the key against its window: admitted while the limit allows, with the headers' state either way. */
  async admit(keyId: string, limit: number): Promise<Admission> {
    for (;;) {
      const now = this.clock.now();
      const w = this.current(keyId, now.getTime());
      if (w && w.left > 0) {
        w.left--;
        return { admitted: true, state: windowState(w.reservedSeen - w.left, limit, new Date(w.endsAt), now) };
      }
      if (w && w.fullUntil > now.getTime()) return { admitted: false, state: windowState(limit + 1, limit, new Date(w.endsAt), now) };
      // One reservation per key at a time; everyone waiting on it tries again afterwards.
      let pending = this.reserving.get(keyId);
      if (!pending) {
        const reservation = this.reserve(keyId, limit).finally(() => this.reserving.delete(keyId));
        this.reserving.set(keyId, reservation);
        pending = reservation;
      }
      await pending;
    }
  }

  /** Gives back unused units of open windows (graceful stop), so the next owner can use them. */
  async releaseAll(): Promise<void> {
    const now = this.clock.now().getTime();
    const held = [...this.windows].filter(([, w]) => w.left > 0 && w.endsAt > now);
    this.windows.clear();
    await Promise.all(
      held.map(async ([keyId, w]) => {
        for (let i = 0; i < CAS_ATTEMPTS; i++) {
          const doc = await this.store.read(keyId);
          if (!doc?.window_ends_at || doc.window_ends_at.getTime() !== w.endsAt) return;
          const next = { window_ends_at: doc.window_ends_at, window_count: Math.max(0, doc.window_count - w.left) };
          if (await this.store.compareAndSet(keyId, doc, next)) return;
        }
      }),
    );
  }

  /** Keys with a window held here (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private current(keyId: string, nowMs: number): HeldWindow | undefined {
    const w = this.windows.get(keyId);
    if (w && w.endsAt <= nowMs) {
      this.windows.delete(keyId);
      return undefined;
    }
    return w;
  }

  /** Reserves the next block of the key's window in the database, opening a new window when none is open. */
  private async reserve(keyId: string, limit: number): Promise<void> {
    const block = blockSize(limit);
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const doc = await this.store.read(keyId);
      if (!doc) throw new InvalidApiKeyError();
      const now = this.clock.now();
      const nowMs = now.getTime();
      const open = doc.window_ends_at !== null && doc.window_ends_at.getTime() > nowMs;
      if (!open) {
        const next = { window_ends_at: windowEnd(now), window_count: Math.min(block, limit) };
        if (await this.store.compareAndSet(keyId, doc, next)) {
          this.windows.set(keyId, { endsAt: next.window_ends_at.getTime(), left: next.window_count, reservedSeen: next.window_count, fullUntil: 0 });
          this.sweep(nowMs);
          return;
        }
        continue;
      }
      const endsAt = doc.window_ends_at!.getTime();
      const mine = this.current(keyId, nowMs);
      const left = mine && mine.endsAt === endsAt ? mine.left : 0;
      const free = limit - doc.window_count;
      if (free <= 0) {
        this.windows.set(keyId, { endsAt, left, reservedSeen: doc.window_count, fullUntil: nowMs + FULL_RECHECK_MS });
        return;
      }
      const n = Math.min(block, free);
      if (await this.store.compareAndSet(keyId, doc, { window_ends_at: doc.window_ends_at!, window_count: doc.window_count + n })) {
        this.windows.set(keyId, { endsAt, left: left + n, reservedSeen: doc.window_count + n, fullUntil: 0 });
        return;
      }
    }
    throw new ApiError("service_unavailable", "The rate window could not be reserved right now. Retry with backoff.");
  }

  /** Forgets windows that ended, now and then, so memory follows the keys in use. */
  private sweep(nowMs: number): void {
    if (this.windows.size < 10_000) return;
    for (const [keyId, w] of this.windows) if (w.endsAt <= nowMs) this.windows.delete(keyId);
  }
}
