import type { Db } from "mongodb";
import type pino from "pino";
import type { Clock } from "../../../shared/clock";
import { isTransportError } from "../../../shared/errors";
import type { StageCallParams, StageOutcome } from "../../../shared/schemas/jobs";
import { completeFinalization, type FinalizationDeps } from "./finish";
import { finalizationFor, jobs } from "./jobs";
import { jobTypeSpec, stageSpec } from "../../../shared/job-types";
import { claimNextJob, fencedUpdate, LostLeaseError, renewLease } from "./claim";
import { readyStages } from "./schedule";
import type { JobDoc } from "./store";

export interface RunnerOptions {
  owner: string;
  concurrency: number;
  leaseMs: number;
  maxAttempts: number;
  pollMs: number;
  stageTimeoutMs: number;
}

export interface RunnerDeps {
  db: () => Db;
  callStage: (action: string, params: StageCallParams, timeoutMs: number) => Promise<StageOutcome>;
  callAction: <T>(action: string, params: Record<string, unknown>, timeoutMs: number) => Promise<T>;
  finalization: FinalizationDeps;
  clock: Clock;
  log: pino.Logger;
  /** Told, with the job as written, after each stage change and its end (live job events; announce.ts). */
  changed?: (job: JobDoc) => void;
}

/** A stage handler that is unreachable is waited for with backoff, up to this many times, without using up attempts. */
const MAX_UNREACHABLE_RETRIES = 12;
const unreachableDelayMs = (retries: number) => Math.min(30_000, 500 * 2 ** retries);
const MAX_ERROR_LENGTH = 500;

type Outcome = { status: "succeeded"; result: Record<string, unknown> } | { status: "failed"; error: string } | { status: "canceled" };

/** One claimed job while this worker runs it. */
interface Run {
  job: JobDoc;
  fence: number;
  db: Db;
  log: pino.Logger;
  /** The job's state as the stages run so far have left it. */
  state: Record<string, unknown>;
  result: Record<string, unknown>;
  /** Set when a lease renewal found another worker's fence. */
  lost: boolean;
  stopRenewing(): void;
}

/** Errors that are faults in the code rather than an outcome a stage reports (a refusal, a source gone). */
const FAULTS = new Set(["TypeError", "ReferenceError", "RangeError", "SyntaxError", "ZodError"]);
const isFault = (err: unknown): boolean => err instanceof Error && FAULTS.has(err.name);
const errorMessage = (err: unknown): string => String((err as Error).message ?? err).slice(0, MAX_ERROR_LENGTH);

function abandoned(job: JobDoc, maxAttempts: number): Outcome {
  const where = job.stage ? ` during stage "${job.stage}"` : "";
  return { status: "failed", error: `The job was abandoned ${maxAttempts} times${where} (worker crashed or timed out); giving up.` };
}

/**
 * Runs jobs: `concurrency` loops per process, each claiming one job at a time under a lease
 * that is renewed while a stage runs. A worker that dies leaves its lease to expire; another
 * worker then resumes the job at the stage that was running (finished stages stay done).
 */
export class JobRunner {
  private running = false;
  private loops: Promise<void>[] = [];
  private wakers = new Set<() => void>();

  constructor(
    private readonly opts: RunnerOptions,
    private readonly deps: RunnerDeps,
  ) {}

  start(): void {
    this.running = true;
    for (let i = 0; i < this.opts.concurrency; i++) this.loops.push(this.loop());
  }

  /** Stops claiming; jobs in flight are released at their next stage boundary or left to their lease. */
  async stop(graceMs = 5000): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.race([Promise.all(this.loops), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  /** A job was queued: idle loops look at once instead of at their next poll. */
  wake(): void {
    for (const w of this.wakers) w();
    this.wakers.clear();
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakers.add(done);
    });
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let job: JobDoc | null = null;
      try {
        job = await claimNextJob(this.deps.db(), this.opts.owner, this.opts.leaseMs, this.deps.clock);
      } catch (err) {
        this.deps.log.warn({ err }, "claiming a job failed");
      }
      if (!job) {
        await this.idle(this.opts.pollMs);
        continue;
      }
      try {
        await this.runJob(job);
      } catch (err) {
        if (err instanceof LostLeaseError) this.deps.log.warn({ job_id: job._id }, "lost the lease; another worker owns the job");
        else this.deps.log.error({ err, job_id: job._id }, "job run failed unexpectedly; it resumes when its lease expires");
      }
    }
  }

  /**
   * One claimed job: its stages, each as soon as what it needs is done (several at once when they are ready
   * together), to its end, or until it is released or its lease is lost. When a stage ends the run (it failed,
   * the job was canceled, the worker stops), the stages still in flight are waited for first, so that the one
   * terminal transition is the last write of this run.
   */
  private async runJob(job: JobDoc): Promise<void> {
    if (job.attempts > this.opts.maxAttempts) return this.finish(job, job.fence, abandoned(job, this.opts.maxAttempts));
    const run = this.startRun(job);
    try {
      const started = new Set<number>();
      const inFlight = new Map<number, Promise<void>>();
      let ending: (() => Promise<void>) | undefined;
      let thrown: { err: unknown } | undefined;
      for (;;) {
        if (!ending && !thrown) {
          for (const i of readyStages(job.type, job.stages, started)) {
            started.add(i);
            const settled = this.runStage(run, i).then(
              (end) => {
                if (end === "done") job.stages[i] = { ...job.stages[i], status: "done" };
                else ending ??= end;
              },
              (err) => void (thrown ??= { err }),
            );
            inFlight.set(i, settled.finally(() => inFlight.delete(i)));
          }
        }
        if (!inFlight.size) break;
        await Promise.race(inFlight.values());
      }
      if (thrown) throw thrown.err;
      if (ending) return await ending();
      const undone = job.stages.filter((s) => s.status !== "done").map((s) => s.key);
      if (undone.length) throw new Error(`stages ${undone.join(", ")} can never start: what they need is not queued in order`);
      await this.completeJob(run);
    } finally {
      run.stopRenewing();
    }
  }

  /** Keeps the lease while the job runs; a renewal that finds the fence moved marks the run lost. */
  private startRun(job: JobDoc): Run {
    const db = this.deps.db();
    const run: Run = {
      job,
      fence: job.fence,
      db,
      log: this.deps.log.child({ job_id: job._id, org_id: job.org_id }),
      state: job.state,
      result: {},
      lost: false,
      stopRenewing: () => clearInterval(renewal),
    };
    const renewal = setInterval(() => {
      renewLease(db, job._id, run.fence, this.opts.leaseMs, this.deps.clock).catch((err) => {
        if (err instanceof LostLeaseError) run.lost = true;
      });
    }, Math.max(50, Math.floor(this.opts.leaseMs / 3)));
    return run;
  }

  /**
   * Stage `i`: started, called, recorded: "done". When the job is to end or be handed back instead, what does
   * that, for the run to call once every stage in flight has settled.
   */
  private async runStage(run: Run, i: number): Promise<"done" | (() => Promise<void>)> {
    const stage = run.job.stages[i];
    const startedAt = this.deps.clock.now();
    const begun = await this.beginStage(run, i, startedAt);
    if (begun !== "started") return () => (begun === "canceled" ? this.finish(run.job, run.fence, { status: "canceled" }) : this.release(run.job, run.fence, 0));
    run.log.info({ stage: stage.key }, "stage started");
    const spec = stageSpec(run.job.type, stage.key);
    let outcome: StageOutcome;
    try {
      outcome = await this.deps.callStage(spec.action, this.stageCall(run, i), this.opts.stageTimeoutMs);
    } catch (err) {
      return this.stageFailed(run, i, spec.action, err);
    }
    await this.recordStage(run, i, outcome, startedAt);
    return "done";
  }

  /**
   * Marks stage `i` running, in the same write that checks the job is still this run's and not canceled
   * (one round trip per stage). Only when that write finds nothing is the job read, to tell why.
   */
  private async beginStage(run: Run, i: number, startedAt: Date): Promise<"started" | "canceled" | "stopping"> {
    const { job, fence } = run;
    for (;;) {
      if (run.lost) throw new LostLeaseError(job._id);
      if (this.running) {
        const started = await jobs(run.db).findOneAndUpdate(
          { _id: job._id, fence, cancel_requested_at: null },
          {
            $set: { stage: job.stages[i].key, [`stages.${i}.status`]: "running", [`stages.${i}.startedAt`]: startedAt.toISOString(), updated_at: startedAt },
            $unset: { [`stages.${i}.endedAt`]: "" },
          },
          { returnDocument: "after" },
        );
        if (started) {
          this.deps.changed?.(started);
          return "started";
        }
      }
      const fresh = await jobs(run.db).findOne({ _id: job._id }, { projection: { fence: 1, cancel_requested_at: 1 } });
      if (!fresh || fresh.fence !== fence) throw new LostLeaseError(job._id);
      if (fresh.cancel_requested_at) return "canceled";
      if (!this.running) return "stopping";
    }
  }

  private stageCall(run: Run, i: number): StageCallParams {
    const { job } = run;
    return { job_id: job._id, org_id: job.org_id, type: job.type, stage: job.stages[i].key, stage_index: i, fence: run.fence, input: job.input, state: run.state };
  }

  /**
   * A stage that threw: an unreachable handler is waited for (not an attempt); anything else fails the job. The
   * stage is marked `error` at once (two stages running side by side may both fail, and each shows it); what ends
   * the run is returned, for the run to do once the stages in flight have settled.
   */
  private async stageFailed(run: Run, i: number, action: string, err: unknown): Promise<() => Promise<void>> {
    const { job, fence } = run;
    const stage = job.stages[i];
    if (run.lost || err instanceof LostLeaseError) throw new LostLeaseError(job._id);
    if (isTransportError(err)) {
      const retries = job.unreachable_retries ?? 0;
      if (retries < MAX_UNREACHABLE_RETRIES) {
        run.log.warn({ stage: stage.key, err: (err as Error).name, retries }, "stage handler unreachable; the job waits for it");
        return () => this.release(job, fence, unreachableDelayMs(retries), { attempts: -1, unreachable_retries: 1 });
      }
      return () => this.finish(job, fence, { status: "failed", error: `${stage.label} failed: its handler (${action}) stayed unreachable.` });
    }
    const message = errorMessage(err);
    const endedAt = this.deps.clock.now();
    const errored = await fencedUpdate(run.db, job._id, fence, {
      $set: { [`stages.${i}.status`]: "error", [`stages.${i}.endedAt`]: endedAt.toISOString(), updated_at: endedAt },
    });
    this.deps.changed?.(errored);
    // A refusal (not enough evidence, a source gone) says all in its message; anything else is a fault in the
    // code, and its stack is what finds it.
    run.log.warn({ stage: stage.key, error: message, ...(isFault(err) ? { stack: (err as Error).stack } : {}) }, "stage failed");
    return () => this.finish(job, fence, { status: "failed", error: `${stage.label} failed: ${message}` });
  }


  /** A stage's outcome: its state for later stages, its meta, the result when it gives one; the stage is done. */
  private async recordStage(run: Run, i: number, outcome: StageOutcome, startedAt: Date): Promise<void> {
    run.state = { ...run.state, ...outcome.state };
    if (outcome.result) run.result = outcome.result;
    const endedAt = this.deps.clock.now();
    const set: Record<string, unknown> = {
      [`stages.${i}.status`]: "done",
      [`stages.${i}.endedAt`]: endedAt.toISOString(),
      updated_at: endedAt,
    };
    for (const [k, v] of Object.entries(outcome.meta ?? {})) set[`stages.${i}.meta.${k}`] = v;
    for (const [k, v] of Object.entries(outcome.state ?? {})) set[`state.${k}`] = v;
    if (outcome.result) set.result = outcome.result;
    const ended = await fencedUpdate(run.db, run.job._id, run.fence, { $set: set });
    this.deps.changed?.(ended);
    run.log.info({ stage: run.job.stages[i].key, ms: endedAt.getTime() - startedAt.getTime() }, "stage done");
  }

  /** Every stage done: the job type's `complete` turns input and state into the result (or the stages' result stands). */
  private async completeJob(run: Run): Promise<void> {
    const { job, fence } = run;
    const final = await jobs(run.db).findOne({ _id: job._id }, { projection: { result: 1, state: 1, cancel_requested_at: 1 } });
    if (final?.cancel_requested_at) return this.finish(job, fence, { status: "canceled" });
    const complete = jobTypeSpec(job.type).complete;
    if (!complete) return this.finish(job, fence, { status: "succeeded", result: final?.result ?? run.result });
    try {
      const completed = await this.deps.callAction<Record<string, unknown>>(
        complete,
        { job_id: job._id, org_id: job.org_id, input: job.input, state: final?.state ?? run.state },
        this.opts.stageTimeoutMs,
      );
      return this.finish(job, fence, { status: "succeeded", result: completed });
    } catch (err) {
      if (isTransportError(err)) return this.release(job, fence, unreachableDelayMs(0), { attempts: -1 });
      return this.finish(job, fence, { status: "failed", error: `Saving the result failed: ${errorMessage(err)}` });
    }
  }

  /** Gives the job back for another claim after `delayMs`; `inc` adjusts its counters (an unreachable handler is not an attempt). */
  private async release(job: JobDoc, fence: number, delayMs: number, inc: Partial<Record<"attempts" | "unreachable_retries", number>> = {}): Promise<void> {
    const now = this.deps.clock.now();
    await fencedUpdate(this.deps.db(), job._id, fence, {
      $set: { lease: null, run_after: new Date(now.getTime() + delayMs), updated_at: now },
      ...(Object.keys(inc).length ? { $inc: inc } : {}),
    });
  }

  /** The terminal transition, then what it owes (refund, event), each exactly once. */
  private async finish(job: JobDoc, fence: number, outcome: Outcome): Promise<void> {
    const db = this.deps.db();
    const now = this.deps.clock.now();
    const ended = await fencedUpdate(db, job._id, fence, {
      $set: {
        status: outcome.status,
        error: outcome.status === "failed" ? outcome.error : null,
        ...(outcome.status === "succeeded" ? { result: outcome.result } : {}),
        finished_at: now,
        updated_at: now,
        lease: null,
        finalize: finalizationFor(job, outcome.status),
      },
    });
    this.deps.changed?.(ended);
    this.deps.log.info({ job_id: job._id, status: outcome.status }, "job finished");
    await completeFinalization(db, ended, this.deps.finalization, this.deps.clock).catch((err) =>
      this.deps.log.warn({ err, job_id: job._id }, "finalization interrupted; the sweeper completes it"),
    );
  }
}
