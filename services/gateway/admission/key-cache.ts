import { LRUCache } from "lru-cache";
import type { LiveKey as KeyRecord } from "../../../shared/schemas/admin";

interface Entry {
  record: KeyRecord;
  expiresAt: number;
}

/**
 * Live key records by digest, in this gateway's memory (docs/request-path.md#key-cache).
 *
 * - Only live keys are cached: an unknown or revoked digest is looked up (auth reads the database) every
 *   time, so the 401 causes keep taking one path.
 * - `forget` (the revocation notice, which the revoke call waits for) drops an entry, and also
 *   makes every load that was under way when it came discard its result: a load that read the key
 *   before the revocation was written must not put it back.
 * - Each entry lives at most `ttlMs`: the bound on staleness should a revocation notice not reach
 *   this process; the revoke call waits that long for a process that did not acknowledge.
 * - At most `maxEntries`, least recently used dropped first.
 */
export class KeyCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<KeyRecord | null>>();
  /** Incremented by every `forget`: a load started under an older epoch is not cached. */
  private epoch = 0;

  constructor(
    private readonly load: (digest: string) => Promise<KeyRecord | null>,
    private readonly opts: { ttlMs: number; maxEntries: number; now?: () => number },
  ) {
    this.entries = new LRUCache({ max: opts.maxEntries });
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** The live key with this digest, or null (unknown or revoked). */
  async get(digest: string): Promise<KeyRecord | null> {
    const hit = this.entries.get(digest);
    if (hit) {
      if (hit.expiresAt > this.now()) return hit.record;
      this.entries.delete(digest);
    }
    // Concurrent misses for one digest share one lookup.
    let pending = this.inflight.get(digest);
    if (!pending) {
      const load = this.loadAndKeep(digest).finally(() => {
        if (this.inflight.get(digest) === load) this.inflight.delete(digest);
      });
      this.inflight.set(digest, load);
      pending = load;
    }
    return pending;
  }

  private async loadAndKeep(digest: string): Promise<KeyRecord | null> {
    const epoch = this.epoch;
    const expiresAt = this.now() + this.opts.ttlMs;
    const record = await this.load(digest);
    if (record && epoch === this.epoch) {
      this.entries.set(digest, { record, expiresAt });
    }
    return record;
  }

  /** The revocation notice: the next request with this key is looked up again. */
  forget(digest: string): void {
    this.epoch++;
    this.entries.delete(digest);
    // A load under way may have read the key before it was revoked: later requests must not join it.
    this.inflight.delete(digest);
  }

  get size(): number {
    return this.entries.size;
  }
}
