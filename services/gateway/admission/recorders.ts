import { utcDayAt } from "../../../shared/clock";

/**
 * Accumulates per-request facts in memory and writes them in batches, so that an
 * authenticated request costs no extra database write. A failed flush keeps its batch.
 */
abstract class BatchRecorder<V> {
  protected pending = new Map<string, V>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }

  /** Writes what accumulated; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.writeBatch().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async writeBatch(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.write(batch);
    } catch (err) {
      for (const [k, v] of batch) this.merge(k, v);
      throw err;
    }
  }

  protected abstract merge(key: string, value: V): void;
  protected abstract write(batch: Map<string, V>): Promise<void>;
}

/** `last_used_at` per key, precise to the flush interval, handed to auth in batches. */
export class LastUsedRecorder extends BatchRecorder<Date> {
  constructor(private readonly send: (uses: { key_id: string; at: number }[]) => Promise<unknown>) {
    super();
  }

  record(keyId: string, at: Date): void {
    this.merge(keyId, at);
  }

  protected merge(keyId: string, at: Date): void {
    const prev = this.pending.get(keyId);
    if (!prev || prev < at) this.pending.set(keyId, at);
  }

  protected async write(batch: Map<string, Date>): Promise<void> {
    await this.send([...batch].map(([key_id, at]) => ({ key_id, at: at.getTime() })));
  }
}

export interface RequestCount {
  org_id: string;
  day: string;
  requests: number;
}

/** Authenticated requests per organization and UTC day, handed to billing in batches. */
export class RequestCounter extends BatchRecorder<number> {
  constructor(private readonly send: (counts: RequestCount[]) => Promise<unknown>) {
    super();
  }

  record(orgId: string, at: Date): void {
    this.merge(`${orgId}|${utcDayAt(at.getTime())}`, 1);
  }

  protected merge(key: string, n: number): void {
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
  }

  protected async write(batch: Map<string, number>): Promise<void> {
    const counts = [...batch].map(([key, requests]) => {
      const [org_id, day] = key.split("|");
      return { org_id, day, requests };
    });
    await this.send(counts);
  }
}
