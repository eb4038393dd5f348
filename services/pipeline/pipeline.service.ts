import os from "node:os";
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { call, serve, zodAction } from "../../shared/action";
import { ArticlesActions } from "../../shared/schemas/articles";
import { BillingActions } from "../../shared/schemas/billing";
import { WebhooksActions } from "../../shared/schemas/webhooks";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { rootLogger } from "../../shared/logger";
import { GetJobParams, PipelineActions } from "../../shared/schemas/jobs";
import { articleHandlers } from "./article/handlers";
import { actionCaller } from "./engine/dispatch";
import { completeFinalization, type FinalizationDeps } from "./engine/finish";
import { cancelJob, createJob, readJob, toJobResource } from "./engine/jobs";
import { recordProgress } from "./engine/progress";
import { JobRunner } from "./engine/run";
import { recentJobs } from "./recent-jobs";
import { PIPELINE_COLLECTIONS } from "./engine/store";
import { startSweeps } from "./engine/sweep";
import { announceJobChange } from "./engine/announce";

type PipelineService = Service & DbService & { runner?: JobRunner; stopSweeps?: () => void };

const clock = systemClock;
/** A job read that found nothing waits at most this for articles to finish an accepted request (else: 404 as before). */
const FINISH_ACCEPTED_TIMEOUT_MS = 3000;

/** How a finished job settles with other services: billing for the refund, the job type's onFinish. */
const finalizationVia = (svc: PipelineService): FinalizationDeps => ({
  refund: (org_id, reference) => call(svc.broker, BillingActions.refund, { org_id, reference }),
  notify: (action, job) =>
    svc.broker.call(action, { job_id: job._id, org_id: job.org_id, status: job.status, error: job.error, result: job.result, input: job.input }),
});

/** Durable jobs: creation, reading, cancellation; the engine (services/pipeline/engine) runs their stages. */
const PipelineServiceSchema: ServiceSchema<ServiceSettingSchema, PipelineService> = {
  name: "pipeline",
  mixins: [dbMixin("pipeline", PIPELINE_COLLECTIONS)],

  actions: {
    createJob: serve(PipelineActions.createJob, async (params, ctx, svc: PipelineService) => {
      const job = await createJob(svc.db, params, clock);
      ctx.broadcast("pipeline.jobQueued", { job_id: job._id });
      return toJobResource(job);
    }),

    get: serve(PipelineActions.get, ({ org_id, id }, ctx, svc: PipelineService) =>
      readJob(svc.db, org_id, id, (params) => call(ctx, ArticlesActions.finishAccepted, params, { timeout: FINISH_ACCEPTED_TIMEOUT_MS })),
    ),

    /** The dashboard's recent jobs of an organization. */
    recentJobs: serve(PipelineActions.recentJobs, (params, _ctx, svc: PipelineService) => recentJobs(svc.db, params)),

    cancel: zodAction(GetJobParams, ({ org_id, id }, _ctx, svc: PipelineService) =>
      cancelJob(
        svc.db,
        org_id,
        id,
        (job) => {
          announceJobChange(svc.broker, job);
          return completeFinalization(svc.db, job, finalizationVia(svc), clock);
        },
        clock,
      ),
    ),

    /** A stage handler's progress (stages of other services); `accepted: false` tells it the job moved to another worker. */
    reportProgress: serve(PipelineActions.reportProgress, async (params, _ctx, svc: PipelineService) => ({
      accepted: await recordProgress(svc.db, params, clock),
    })),
  },

  events: {
    "pipeline.jobQueued"(this: PipelineService) {
      this.runner?.wake();
    },
  },

  started(this: PipelineService) {
    const cfg = config();
    const log = rootLogger().child({ mod: "pipeline.engine" });
    if (cfg.PIPELINE_CONCURRENCY > 0) {
      const call = actionCaller(this.broker, articleHandlers(cfg, this.broker, (progress) => recordProgress(this.db, progress, clock)));
      this.runner = new JobRunner(
        {
          owner: `${os.hostname()}:${process.pid}:${this.broker.nodeID}`,
          concurrency: cfg.PIPELINE_CONCURRENCY,
          leaseMs: cfg.JOB_LEASE_MS,
          maxAttempts: cfg.JOB_MAX_ATTEMPTS,
          pollMs: cfg.JOB_POLL_MS,
          stageTimeoutMs: cfg.JOB_STAGE_TIMEOUT_MS,
        },
        { db: () => this.db, callStage: call, callAction: call, finalization: finalizationVia(this), clock, log: rootLogger().child({ mod: "pipeline.runner" }), changed: (job) => announceJobChange(this.broker, job) },
      );
      this.runner.start();
    }
    this.stopSweeps = startSweeps({
      db: () => this.db,
      finalization: finalizationVia(this),
      webhooksAvailable: () => (this.broker.registry as unknown as { hasService(name: string): boolean }).hasService("webhooks"),
      recordEvents: (events) => call(this.broker, WebhooksActions.recordEvents, { events }),
      clock,
      log,
    });
  },

  async stopped(this: PipelineService) {
    this.stopSweeps?.();
    await this.runner?.stop();
  },
};

export default PipelineServiceSchema;
