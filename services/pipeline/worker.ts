import type { Db } from "mongodb";
import type pino from "pino";
import type { Clock } from "../../shared/clock";
import type { StageCallParams, StageOutcome } from "../../shared/schemas/jobs";
import { completeFinalization, type FinalizationDeps } from "./finalize";
import { jobs } from "./jobs";
import { finalizationFor, jobTypeSpec, stageSpec } from "./job-types";
import { claimNextJob, fencedUpdate, LostLeaseError, renewLease } from "./lease";
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

/** Errors of the transport, not of the stage: the job is retried later rather than failed. */
const TRANSIENT = new Set(["ServiceNotAvailableError", "ServiceNotFoundError", "RequestTimeoutError", "RequestRejectedError", "RequestSkippedError"]);
/** A stage handler that is unreachable is waited for with backoff, up to this many times, without using up attempts. */
const MAX_UNREACHABLE_RETRIES = 12;
const unreachableDelayMs = (retries: number) => Math.min(30_000, 500 * 2 ** retries);
const MAX_ERROR_LENGTH = 500;

type Outcome = { status: "succeeded"; result: Record<string, unknown> } | { status: "failed"; error: string } | { status: "canceled" };

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

  private async runJob(job: JobDoc): Promise<void> {
    const db = this.deps.db();
    const log = this.deps.log.child({ job_id: job._id, org_id: job.org_id });
    const fence = job.fence;
    if (job.attempts > this.opts.maxAttempts) {
      const where = job.stage ? ` during stage "${job.stage}"` : "";
      return this.finish(job, fence, { status: "failed", error: `The job was abandoned ${this.opts.maxAttempts} times${where} (worker crashed or timed out); giving up.` });
    }

    let lost = false;
    const renewal = setInterval(() => {
      renewLease(db, job._id, fence, this.opts.leaseMs, this.deps.clock).catch((err) => {
        if (err instanceof LostLeaseError) lost = true;
      });
    }, Math.max(50, Math.floor(this.opts.leaseMs / 3)));

    try {
      let state = job.state;
      let result: Record<string, unknown> = {};
      for (let i = 0; i < job.stages.length; i++) {
        const stage = job.stages[i];
        if (stage.status === "done") continue;
        const fresh = await jobs(db).findOne({ _id: job._id }, { projection: { fence: 1, cancel_requested_at: 1 } });
        if (!fresh || fresh.fence !== fence || lost) throw new LostLeaseError(job._id);
        if (fresh.cancel_requested_at) return this.finish(job, fence, { status: "canceled" });
        if (!this.running) return this.release(job, fence, 0);

        const startedAt = this.deps.clock.now();
        const started = await fencedUpdate(db, job._id, fence, {
          $set: { stage: stage.key, [`stages.${i}.status`]: "running", [`stages.${i}.startedAt`]: startedAt.toISOString(), updated_at: startedAt },
          $unset: { [`stages.${i}.endedAt`]: "" },
        });
        this.deps.changed?.(started);
        log.info({ stage: stage.key }, "stage started");

        const spec = stageSpec(job.type, stage.key);
        let outcome: StageOutcome;
        try {
          outcome = await this.deps.callStage(
            spec.action,
            { job_id: job._id, org_id: job.org_id, type: job.type, stage: stage.key, stage_index: i, fence, input: job.input, state },
            this.opts.stageTimeoutMs,
          );
        } catch (err) {
          if (lost || err instanceof LostLeaseError) throw new LostLeaseError(job._id);
          const name = (err as { name?: string }).name ?? "";
          if (TRANSIENT.has(name)) {
            const retries = job.unreachable_retries ?? 0;
            if (retries < MAX_UNREACHABLE_RETRIES) {
              log.warn({ stage: stage.key, err: name, retries }, "stage handler unreachable; the job waits for it");
              return this.release(job, fence, unreachableDelayMs(retries), { attempts: -1, unreachable_retries: 1 });
            }
            return this.finish(job, fence, { status: "failed", error: `${stage.label} failed: its handler (${spec.action}) stayed unreachable.` });
          }
          const message = String((err as Error).message ?? err).slice(0, MAX_ERROR_LENGTH);
          const endedAt = this.deps.clock.now();
          const errored = await fencedUpdate(db, job._id, fence, {
            $set: { [`stages.${i}.status`]: "error", [`stages.${i}.endedAt`]: endedAt.toISOString(), updated_at: endedAt },
          });
          this.deps.changed?.(errored);
          log.warn({ stage: stage.key, error: message }, "stage failed");
          return this.finish(job, fence, { status: "failed", error: `${stage.label} failed: ${message}` });
        }

        state = { ...state, ...outcome.state };
        if (outcome.result) result = outcome.result;
        const endedAt = this.deps.clock.now();
        const set: Record<string, unknown> = {
          [`stages.${i}.status`]: "done",
          [`stages.${i}.endedAt`]: endedAt.toISOString(),
          updated_at: endedAt,
        };
        for (const [k, v] of Object.entries(outcome.meta ?? {})) set[`stages.${i}.meta.${k}`] = v;
        for (const [k, v] of Object.entries(outcome.state ?? {})) set[`state.${k}`] = v;
        if (outcome.result) set.result = outcome.result;
        const ended = await fencedUpdate(db, job._id, fence, { $set: set });
        this.deps.changed?.(ended);
        log.info({ stage: stage.key, ms: endedAt.getTime() - startedAt.getTime() }, "stage done");
      }
      const final = await jobs(db).findOne({ _id: job._id }, { projection: { result: 1, state: 1, cancel_requested_at: 1 } });
      if (final?.cancel_requested_at) return this.finish(job, fence, { status: "canceled" });
      const complete = jobTypeSpec(job.type).complete;
      if (!complete) return this.finish(job, fence, { status: "succeeded", result: final?.result ?? result });
      try {
        const completed = await this.deps.callAction<Record<string, unknown>>(
          complete,
          { job_id: job._id, org_id: job.org_id, input: job.input, state: final?.state ?? state },
          this.opts.stageTimeoutMs,
        );
        return this.finish(job, fence, { status: "succeeded", result: completed });
      } catch (err) {
        if (TRANSIENT.has((err as { name?: string }).name ?? "")) return this.release(job, fence, unreachableDelayMs(0), { attempts: -1 });
        const message = String((err as Error).message ?? err).slice(0, MAX_ERROR_LENGTH);
        return this.finish(job, fence, { status: "failed", error: `Saving the result failed: ${message}` });
      }
    } finally {
      clearInterval(renewal);
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
    const finished = await jobs(db).findOne({ _id: job._id });
    if (finished) {
      await completeFinalization(db, finished, this.deps.finalization, this.deps.clock).catch((err) =>
        this.deps.log.warn({ err, job_id: job._id }, "finalization interrupted; the sweeper completes it"),
      );
    }
  }
}
