import type { ServiceBroker } from "moleculer";
import type { Db } from "mongodb";
import { call } from "../../shared/action";
import type { Clock } from "../../shared/clock";
import { rootLogger } from "../../shared/logger";
import { PipelineActions } from "../../shared/schemas/jobs";
import { requeueStrandedSources, type StartIngest } from "./sources";

/** A source older than this whose job is not known to be queued was stranded by a crash. */
const STRANDED_AFTER_MS = 30_000;
/** How often sources whose job could not be queued are looked at (and at once when a pipeline node appears). */
const SWEEP_INTERVAL_MS = 5_000;

/** Queues a source's ingest job under the id the source already carries (idempotent). */
export const startIngestVia =
  (broker: ServiceBroker): StartIngest =>
  (source) =>
    call(broker, PipelineActions.createJob, {
      job_id: source.ingest_job_id,
      org_id: source.org_id,
      type: "ingest_source",
      input: { source_id: source._id, brand_profile_id: source.profile_id },
      credits_charged: 0,
    });

/** Logs a source accepted while the pipeline was unreachable; the sweeper queues its job. */
export const deferredIngest = (err: unknown, source: { _id: string; ingest_job_id: string }) =>
  rootLogger().warn({ err, source_id: source._id, job_id: source.ingest_job_id }, "ingest job not queued yet (pipeline unreachable); the sweeper will queue it");

/** Queues the jobs of sources whose queueing failed (at every sweep) or that a crash may have stranded (at most every STRANDED_AFTER_MS). */
export class SourceSweeper {
  private timer?: NodeJS.Timeout;
  private lastFullSweep = 0;

  constructor(
    private readonly db: () => Db,
    private readonly startIngest: StartIngest,
    private readonly clock: Clock,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  sweep(): void {
    const now = this.clock.now().getTime();
    const full = now - this.lastFullSweep >= STRANDED_AFTER_MS;
    if (full) this.lastFullSweep = now;
    requeueStrandedSources(this.db(), new Date(full ? now - STRANDED_AFTER_MS : 0), this.startIngest).catch((err) =>
      rootLogger().warn({ err }, "requeueing stranded sources failed"),
    );
  }
}
