import type { Clock } from "../../../shared/clock";
import type { RateLimitState } from "../../../shared/errors";
import { windowState } from "../../../shared/rate-window";
import type { UnitGrant } from "../../../shared/schemas/admin";

/**
 * The rate windows of the keys this gateway owns, counted in memory (docs/request-path.md#rate-windows).
 *
 * A request is admitted only against a unit of the key's window this gateway reserved beforehand
 * from auth, which hands out blocks with a compare-and-set on the key's document
 * (services/auth/window-reservations.ts): the sum of all reservations in a window never exceeds
 * the key's limit, whatever the gateways do or how requests are routed. Each key has one owning
 * gateway (shared/runtime/key-owner.ts), so normally one process holds all of a key's units and
 * answers exact `x-ratelimit-remaining` values; auth is asked once per block, not once per request.
 *
 * A gateway that dies loses the unused units of its current blocks for the rest of the window: the
 * key is under-admitted by at most one block per crashed owner and window, never over. A gateway
 * that stops gracefully gives its unused units back (`releaseAll`).
 */

/** Where units come from: auth's reservations. */
export interface UnitSource {
  reserve(keyId: string): Promise<UnitGrant>;
  release(keyId: string, endsAt: number, units: number): Promise<unknown>;
}

export interface Admission {
  admitted: boolean;
  state: RateLimitState;
}

interface HeldWindow {
  /** The window's end as auth stores it (ms): its identity, and the reset every gateway shows. */
  endsAt: number;
  /** When the window ends by this process's clock (auth's time left, counted from the grant): units held are void afterwards. */
  until: number;
  /** Units reserved here and not used yet. */
  left: number;
  /** All units reserved in the window as last seen, this gateway's last reservation included. */
  reservedSeen: number;
  /** The window was found fully reserved: refuse without asking auth again until then. */
  fullUntil: number;
}

/** A fully reserved window is asked about again this often (units given back by a gateway that stopped). */
export const FULL_RECHECK_MS = 1000;

export class WindowOwner {
  private readonly windows = new Map<string, HeldWindow>();
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(
    private readonly source: UnitSource,
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
        const reservation = this.reserve(keyId).finally(() => this.reserving.delete(keyId));
        this.reserving.set(keyId, reservation);
        pending = reservation;
      }
      await pending;
    }
  }

  /** Gives back unused units of open windows (graceful stop), so the keys' next owner can use them. */
  async releaseAll(): Promise<void> {
    const now = this.clock.now().getTime();
    const held = [...this.windows].filter(([, w]) => w.left > 0 && w.until > now);
    this.windows.clear();
    await Promise.all(held.map(([keyId, w]) => this.source.release(keyId, w.endsAt, w.left)));
  }

  /** Keys with a window held here (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private current(keyId: string, nowMs: number): HeldWindow | undefined {
    const w = this.windows.get(keyId);
    if (w && w.until <= nowMs) {
      this.windows.delete(keyId);
      return undefined;
    }
    return w;
  }

  /** The next block of the key's window (a new window when none is open), or the news that it is fully reserved. */
  private async reserve(keyId: string): Promise<void> {
    const grant = await this.source.reserve(keyId);
    const nowMs = this.clock.now().getTime();
    const mine = this.current(keyId, nowMs);
    const left = (mine && mine.endsAt === grant.ends_at ? mine.left : 0) + grant.granted;
    const fullUntil = grant.granted === 0 ? nowMs + FULL_RECHECK_MS : 0;
    // At least a moment, so that a grant that arrives as its window ends is used or refused once rather than asked for again at once.
    const until = nowMs + Math.max(1, grant.ends_in_ms);
    this.windows.set(keyId, { endsAt: grant.ends_at, until, left, reservedSeen: grant.reserved, fullUntil });
    this.sweep(nowMs);
  }

  /** Forgets windows that ended, now and then, so memory follows the keys in use. */
  private sweep(nowMs: number): void {
    if (this.windows.size < 10_000) return;
    for (const [keyId, w] of this.windows) if (w.until <= nowMs) this.windows.delete(keyId);
  }
}
