import os from "node:os";
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { zodAction } from "../../shared/action";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { rootLogger } from "../../shared/logger";
import { CreateJob, JobPath, StageProgress, type StageOutcome } from "../../shared/schemas/jobs";
import { ApiError } from "../../shared/errors";
import { orgId } from "../../shared/validation";
import { completeFinalization, unfinishedFinalizations } from "./finalize";
import { createJob, getJob, requestCancel, toJobResource } from "./jobs";
import { fencedUpdate, LostLeaseError } from "./lease";
import { announceJobChange } from "./announce";
import { drainOutbox } from "./outbox";
import { PIPELINE_COLLECTIONS, type JobDoc } from "./store";
import { JobRunner } from "./worker";
import { ArticleStageActions } from "./article/stage-actions";

type PipelineService = Service & DbService & { runner?: JobRunner; sweeper?: NodeJS.Timeout; drainer?: NodeJS.Timeout; draining?: boolean };

const clock = systemClock;
/** A job read that found nothing waits at most this for articles to finish an accepted request (else: 404 as before). */
const FINISH_ACCEPTED_TIMEOUT_MS = 3000;
const SWEEP_MS = 5000;
const DRAIN_MS = 250;
/** How a finished job settles with other services: billing for the refund, the job type's onFinish. */
const finalizationVia = (svc: PipelineService) => ({
  refund: (org_id: string, reference: string) => svc.broker.call("billing.refund", { org_id, reference }),
  notify: (action: string, job: JobDoc) =>
    svc.broker.call(action, { job_id: job._id, org_id: job.org_id, status: job.status, error: job.error, result: job.result, input: job.input }),
});

/** Durable jobs: creation, reading, cancellation, and the workers that run their stages. */
const PipelineServiceSchema: ServiceSchema<ServiceSettingSchema, PipelineService> = {
  name: "pipeline",
  mixins: [dbMixin("pipeline", PIPELINE_COLLECTIONS), ArticleStageActions],

  actions: {
    createJob: zodAction(CreateJob, async (params, ctx, svc: PipelineService) => {
      const job = await createJob(svc.db, params, clock);
      ctx.broadcast("pipeline.jobQueued", { job_id: job._id });
      return toJobResource(job);
    }),

    get: zodAction(JobPath.extend({ org_id: orgId }), async ({ org_id, id }, ctx, svc: PipelineService) => {
      try {
        return toJobResource(await getJob(svc.db, org_id, id));
      } catch (err) {
        if ((err as { type?: unknown }).type !== "not_found") throw err;
        // An article acknowledged (202) before its job could be created: articles creates it now (docs/failure-semantics.md).
        // If articles cannot say (unreachable, or billing down for a debit to settle), the answer is 503, not a 404 it may contradict.
        const accepted = await ctx
          .call<{ finished: boolean }, object>("articles.finishAccepted", { org_id, id }, { timeout: FINISH_ACCEPTED_TIMEOUT_MS })
          .catch((cause: unknown) => {
            throw new ApiError("service_unavailable", "The job cannot be read right now. Retry with backoff.", { cause: String(cause) });
          });
        if (!accepted.finished) throw err;
        return toJobResource(await getJob(svc.db, org_id, id));
      }
    }),

    cancel: zodAction(JobPath.extend({ org_id: orgId }), async ({ org_id, id }, _ctx, svc: PipelineService) => {
      const { job, canceledNow } = await requestCancel(svc.db, org_id, id, clock);
      if (canceledNow) {
        announceJobChange(svc.broker, job);
        await completeFinalization(svc.db, job, finalizationVia(svc), clock);
      }
      return toJobResource(await getJob(svc.db, org_id, id));
    }),

    /** A stage handler's progress; `accepted: false` tells it the job moved to another worker. */
    reportProgress: zodAction(StageProgress, async ({ job_id, fence, stage_index, meta }, _ctx, svc: PipelineService) => {
      try {
        await fencedUpdate(svc.db, job_id, fence, { $set: { [`stages.${stage_index}.meta`]: meta, updated_at: clock.now() } });
        return { accepted: true };
      } catch (err) {
        if (err instanceof LostLeaseError) return { accepted: false };
        throw err;
      }
    }),
  },

  events: {
    "pipeline.jobQueued"(this: PipelineService) {
      this.runner?.wake();
    },
  },

  started(this: PipelineService) {
    const cfg = config();
    if (cfg.PIPELINE_CONCURRENCY > 0) {
      this.runner = new JobRunner(
        {
          owner: `${os.hostname()}:${process.pid}:${this.broker.nodeID}`,
          concurrency: cfg.PIPELINE_CONCURRENCY,
          leaseMs: cfg.JOB_LEASE_MS,
          maxAttempts: cfg.JOB_MAX_ATTEMPTS,
          pollMs: cfg.JOB_POLL_MS,
          stageTimeoutMs: cfg.JOB_STAGE_TIMEOUT_MS,
        },
        {
          db: () => this.db,
          callStage: (action, params, timeout) => this.broker.call<StageOutcome, typeof params>(action, params, { timeout }),
          callAction: (action, params, timeout) => this.broker.call(action, params, { timeout }),
          finalization: finalizationVia(this),
          clock,
          log: rootLogger().child({ mod: "pipeline.runner" }),
          changed: (job) => announceJobChange(this.broker, job),
        },
      );
      this.runner.start();
    }
    this.sweeper = setInterval(() => void sweepFinalizations(this), SWEEP_MS);
    this.sweeper.unref();
    this.drainer = setInterval(() => void handOverEvents(this), DRAIN_MS);
    this.drainer.unref();
  },

  async stopped(this: PipelineService) {
    clearInterval(this.sweeper);
    clearInterval(this.drainer);
    await this.runner?.stop();
  },
};

/**
 * Hands the outbox's job events to the webhooks service. While no webhooks service is
 * running they wait in the outbox (the partial index keeps that cheap).
 */
async function handOverEvents(svc: PipelineService): Promise<void> {
  if (svc.draining || !(svc.broker.registry as unknown as { hasService(name: string): boolean }).hasService("webhooks")) return;
  svc.draining = true;
  try {
    while ((await drainOutbox(svc.db, (events) => svc.broker.call("webhooks.recordEvents", { events }), () => clock.now())) > 0);
  } catch (err) {
    rootLogger().warn({ err }, "handing job events to webhooks failed; they stay in the outbox");
  } finally {
    svc.draining = false;
  }
}

/** Completes finalizations a crash interrupted (refund, then onFinish, then the event). */
async function sweepFinalizations(svc: PipelineService): Promise<void> {
  try {
    const stale = await unfinishedFinalizations(svc.db, new Date(clock.now().getTime() - SWEEP_MS));
    for (const job of stale) await completeFinalization(svc.db, job, finalizationVia(svc), clock);
  } catch (err) {
    rootLogger().warn({ err }, "finalization sweep failed");
  }
}

export default PipelineServiceSchema;
