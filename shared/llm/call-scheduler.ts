import type { CompleteFn } from "./types";

/** The queue of calls that carry no job (ingest contextualisation, tests): they take their turn like one job. */
const NO_JOB = "\u0000no-job";

interface Waiting {
  start: () => void;
}

export interface CallSchedulerOptions {
  /** Calls in flight at once (at least 1). */
  limit: number;
  /** Clock and timer, injectable for tests. */
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

/**
 * At most `limit` calls in flight; calls that wait are started round-robin between jobs (one call of each
 * waiting job in turn, first come first served within a job), so a job with many calls queued cannot hold
 * back another job's calls: the other job's next call starts at one of the next free slots.
 *
 * `pauseUntil` holds back new starts until a moment (a provider's 429 with Retry-After: its limit is per key,
 * so every job's calls wait, not just the one that got the answer); calls in flight go on.
 */
export class CallScheduler {
  private readonly limit: number;
  private inFlight = 0;
  /** Waiting calls per job, first in first out. */
  private readonly queues = new Map<string, Waiting[]>();
  /** Jobs with waiting calls, in the order they get their next turn. */
  private readonly turns: string[] = [];
  private pausedUntil = 0;
  private wakeAt = 0;
  private readonly now: () => number;
  private readonly setTimer: NonNullable<CallSchedulerOptions["setTimer"]>;

  constructor(options: CallSchedulerOptions) {
    this.limit = Math.max(1, Math.floor(options.limit));
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  }

  /** Runs `call` when a slot is free and it is the job's turn; the slot is released when it settles. */
  run<T>(job: string | undefined, call: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.inFlight++;
        let settled: Promise<T>;
        try {
          settled = call();
        } catch (err) {
          settled = Promise.reject(err);
        }
        settled.then(resolve, reject).finally(() => {
          this.inFlight--;
          this.pump();
        });
      };
      const key = job ?? NO_JOB;
      const queue = this.queues.get(key);
      if (queue) queue.push({ start });
      else {
        this.queues.set(key, [{ start }]);
        this.turns.push(key);
      }
      this.pump();
    });
  }

  /** No new call starts before `epochMs` (a later pause extends an earlier one, never shortens it). */
  pauseUntil(epochMs: number): void {
    if (epochMs <= this.pausedUntil) return;
    this.pausedUntil = epochMs;
    this.pump();
  }

  /** For metrics and tests. */
  stats(): { inFlight: number; waiting: number; jobsWaiting: number; pausedForMs: number } {
    let waiting = 0;
    for (const q of this.queues.values()) waiting += q.length;
    return { inFlight: this.inFlight, waiting, jobsWaiting: this.turns.length, pausedForMs: Math.max(0, this.pausedUntil - this.now()) };
  }

  private pump(): void {
    const now = this.now();
    if (now < this.pausedUntil) {
      this.wakeAfterPause();
      return;
    }
    while (this.inFlight < this.limit && this.turns.length > 0) {
      const key = this.turns.shift()!;
      const queue = this.queues.get(key)!;
      const next = queue.shift()!;
      // The job goes to the back of the line; it keeps its place in it only while it has calls waiting.
      if (queue.length > 0) this.turns.push(key);
      else this.queues.delete(key);
      next.start();
    }
  }

  /** One timer for the end of the pause (re-armed when the pause is extended); only while calls wait. */
  private wakeAfterPause(): void {
    if (this.turns.length === 0 || this.wakeAt >= this.pausedUntil) return;
    const at = this.pausedUntil;
    this.wakeAt = at;
    this.setTimer(() => {
      // An earlier timer of a pause since extended only finds the scheduler still paused (and re-arms nothing).
      if (this.wakeAt === at) this.wakeAt = 0;
      this.pump();
    }, at - this.now());
  }
}

/** `complete` with every call run through `scheduler`, under the job its options name. */
export function scheduledComplete(complete: CompleteFn, scheduler: CallScheduler): CompleteFn {
  return (messages, options) => scheduler.run(options?.job, () => complete(messages, options));
}
