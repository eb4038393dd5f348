import type { JobResource } from "../../../shared/schemas/jobs";
import { isFinal, jobEventId, jobEventName, type JobEventName } from "./sequence";

/** One event of a job's stream: its id (sequence.ts), its name, and the whole Job resource at that point. */
export interface JobEvent {
  id: number;
  event: JobEventName;
  job: JobResource;
  /** The job has ended: this is the stream's last event. */
  final: boolean;
}

/** Reads the job as its organization sees it; rejects with a 404 NotFoundError for another organization's or a missing job. */
export type ReadJob = (orgId: string, jobId: string) => Promise<JobResource>;

/**
 * Live events of one job, as an async iterator: the snapshot first (unless the subscriber's
 * `fromId` already covers it), then one event per stage change, then the final event, then done.
 * `close()` ends it early (client gone, server stopping). See docs/job-events.md.
 */
export interface JobSubscription extends AsyncIterableIterator<JobEvent> {
  /** The snapshot, once read: rejects (404) when the job is not the organization's. */
  readonly ready: Promise<{ id: number; job: JobResource }>;
  close(): void;
}

interface Listener {
  orgId: string;
  push(job: JobResource): void;
  close(): void;
}

/**
 * Every gateway's in-memory hub of job-event subscribers. The pipeline broadcasts each job change
 * over the transport (shared/events/job-changed.ts); the gateway hands it to `publish`, which fans
 * it out to the subscribers of that job here. Nothing polls the database: the only read is the
 * snapshot when a subscriber arrives.
 *
 * API (used by the SSE route and the dashboard):
 *   const sub = hub.subscribe(jobId, orgId, fromId?);   // fromId: the last event id the client has
 *   await sub.ready;                                     // 404 for a foreign job
 *   for await (const e of sub) { ... e.final ... }       // ends after the final event
 *   sub.close();                                         // when the consumer goes away first
 */
export class JobEventHub {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** When each watched job was last heard of (a broadcast or a read), for the resync below. */
  private readonly heard = new Map<string, number>();
  private resyncTimer?: NodeJS.Timeout;

  /**
   * `resyncMs`: a watched job silent for this long is read once more, so that a broadcast lost on
   * the way (a node briefly dropped by the transport) cannot leave its streams waiting forever.
   * One read per silent job per gateway, never per stream; 0 turns it off.
   */
  constructor(
    private readonly readJob: ReadJob,
    private readonly opts: { resyncMs?: number } = {},
  ) {}

  /** A job changed (from the transport): every subscriber of this job in this organization gets it. */
  publish(orgId: string, job: JobResource): void {
    const set = this.listeners.get(job.id);
    if (!set) return;
    this.heard.set(job.id, Date.now());
    for (const l of set) if (l.orgId === orgId) l.push(job);
  }

  private startResync(): void {
    const every = this.opts.resyncMs ?? 0;
    if (!every || this.resyncTimer) return;
    this.resyncTimer = setInterval(() => this.resync(every), Math.max(50, Math.floor(every / 2)));
    this.resyncTimer.unref();
  }

  private stopResyncWhenIdle(): void {
    if (this.listeners.size === 0 && this.resyncTimer) {
      clearInterval(this.resyncTimer);
      this.resyncTimer = undefined;
    }
  }

  private resync(every: number): void {
    const now = Date.now();
    for (const [jobId, set] of this.listeners) {
      if (now - (this.heard.get(jobId) ?? 0) < every) continue;
      const first = set.values().next().value;
      if (!first) continue;
      this.heard.set(jobId, now);
      this.readJob(first.orgId, jobId).then(
        (job) => this.publish(first.orgId, job),
        () => undefined, // unreadable now (a service away): the next round tries again
      );
    }
  }

  /** Open subscriptions (all jobs). */
  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  subscribe(jobId: string, orgId: string, fromId = 0): JobSubscription {
    const queue: JobEvent[] = [];
    const waiting: ((r: IteratorResult<JobEvent>) => void)[] = [];
    // Changes seen before the snapshot is read wait here, so none falls between the read and the subscription.
    let early: JobResource[] | null = [];
    let lastId = fromId;
    let sentFirst = false;
    let ended = false;

    const listener: Listener = {
      orgId,
      push: (job) => (early ? early.push(job) : accept(job)),
      close: () => sub.close(),
    };
    const unlisten = () => {
      const set = this.listeners.get(jobId);
      set?.delete(listener);
      if (set?.size === 0) {
        this.listeners.delete(jobId);
        this.heard.delete(jobId);
      }
      this.stopResyncWhenIdle();
    };
    const finish = () => {
      if (ended) return;
      ended = true;
      unlisten();
      if (queue.length === 0) for (const w of waiting.splice(0)) w({ value: undefined, done: true });
    };
    const accept = (job: JobResource) => {
      if (ended) return;
      const id = jobEventId(job);
      if (id <= lastId) return; // already sent, or an older change arriving late
      lastId = id;
      const final = isFinal(job.status);
      const event: JobEvent = { id, event: jobEventName(job, !sentFirst), job, final };
      sentFirst = true;
      const w = waiting.shift();
      if (w) w({ value: event, done: false });
      else queue.push(event);
      if (final) finish();
    };

    let set = this.listeners.get(jobId);
    if (!set) this.listeners.set(jobId, (set = new Set()));
    set.add(listener);
    this.heard.set(jobId, Date.now());
    this.startResync();

    const ready = this.readJob(orgId, jobId).then(
      (job) => {
        const id = jobEventId(job);
        // An id beyond the job's state was not ours to give (the database is written before any broadcast): start afresh.
        if (fromId > id) lastId = 0;
        // A client that already has the final event gets nothing more.
        if (isFinal(job.status) && id <= lastId) finish();
        // The snapshot is sent unless the client has it; then changes seen meanwhile, newer ones only.
        if (id > lastId) accept(job);
        else sentFirst = true;
        const pending = early ?? [];
        early = null;
        for (const j of pending) accept(j);
        return { id, job };
      },
      (err: unknown) => {
        early = null;
        finish();
        throw err;
      },
    );
    ready.catch(() => undefined); // the consumer sees the error through `ready` or `next()`

    const sub: JobSubscription = {
      ready,
      async next() {
        if (queue.length) {
          const value = queue.shift()!;
          return { value, done: false };
        }
        if (ended) {
          await ready; // a failed snapshot is the iterator's error
          return { value: undefined, done: true };
        }
        return new Promise<IteratorResult<JobEvent>>((resolve) => waiting.push(resolve));
      },
      async return() {
        sub.close();
        return { value: undefined, done: true };
      },
      close() {
        queue.length = 0;
        finish();
        for (const w of waiting.splice(0)) w({ value: undefined, done: true });
      },
      [Symbol.asyncIterator]() {
        return sub;
      },
    };
    return sub;
  }

  /** Ends every subscription (the gateway is stopping). */
  closeAll(): void {
    for (const set of [...this.listeners.values()]) for (const l of [...set]) l.close();
    this.listeners.clear();
    this.heard.clear();
    this.stopResyncWhenIdle();
  }
}
