import type { Service, ServiceBroker, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { call, serve, zodAction } from "../../shared/action";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { rootLogger } from "../../shared/logger";
import { outboundPolicy } from "../../shared/net/policy";
import { registerOutboundUrl } from "../../shared/net/url-guard";
import { AddSourceParams, BrandKnowledgeActions, CreateBrandProfileBody, IngestFinished, SourcePath } from "../../shared/schemas/brand";
import { PageParams } from "../../shared/schemas/pagination";
import { PipelineActions, StageCall } from "../../shared/schemas/jobs";
import { orgId } from "../../shared/validation";
import { ingestDepsFrom, ingestProviders, type IngestProviders } from "./ingest/deps";
import { runIngestStage } from "./ingest/stages";
import { createProfile, listProfiles, profileDetail, profiles } from "./profiles";
import { embedderFrom } from "./providers";
import { RetrievalCache } from "./retrieval";
import { addSource, listSources, recordIngestEnd, requeueStrandedSources, sourceDetail, type StartIngest } from "./sources";
import { BRAND_KNOWLEDGE_COLLECTIONS } from "./store";

type BrandKnowledgeService = Service &
  DbService & { retrieval: RetrievalCache; providers?: IngestProviders; ingest(): IngestProviders; sweeper?: NodeJS.Timeout; lastFullSweep?: number; sweepSources(): void };

const clock = systemClock;
const STRANDED_AFTER_MS = 30_000;
/** How often sources whose job could not be queued are looked at (and at once when a pipeline node appears). */
const SWEEP_INTERVAL_MS = 5_000;

/** Logs a source accepted while the pipeline was unreachable; the sweeper queues its job. */
const deferredIngest = (err: unknown, source: { _id: string; ingest_job_id: string }) =>
  rootLogger().warn({ err, source_id: source._id, job_id: source.ingest_job_id }, "ingest job not queued yet (pipeline unreachable); the sweeper will queue it");

/** Queues a source's ingest job under the id the source already carries (idempotent). */
const startIngestVia = (broker: ServiceBroker): StartIngest => (source) =>
  call(broker, PipelineActions.createJob, {
    job_id: source.ingest_job_id,
    org_id: source.org_id,
    type: "ingest_source",
    input: { source_id: source._id, brand_profile_id: source.profile_id },
    credits_charged: 0,
  });

/** Brand profiles, knowledge-base sources, their ingestion stages, and retrieval. */
const BrandKnowledgeServiceSchema: ServiceSchema<ServiceSettingSchema, BrandKnowledgeService> = {
  name: "brand-knowledge",
  mixins: [dbMixin("brand-knowledge", BRAND_KNOWLEDGE_COLLECTIONS)],

  actions: {
    createProfile: zodAction(CreateBrandProfileBody.extend({ org_id: orgId }), async ({ org_id, ...body }, ctx, svc: BrandKnowledgeService) => {
      if (body.website_url) body.website_url = await registerOutboundUrl(body.website_url, outboundPolicy(config()), { field: "website_url" });
      const profile = await createProfile(svc.db, org_id, body, clock);
      let ingestJobId: string | undefined;
      if (body.website_url && body.ingest_website) {
        const website = { type: "website" as const, url: body.website_url, title: `${body.name} website` };
        let source;
        try {
          source = await addSource(svc.db, org_id, profile._id, website, startIngestVia(ctx.broker), clock, deferredIngest);
        } catch (err) {
          // The website source could not be stored: undo the profile, so the error changed nothing (docs/failure-semantics.md).
          await profiles(svc.db).deleteOne({ _id: profile._id }).catch((undo) => rootLogger().error({ err: undo, profile_id: profile._id }, "undoing a profile failed"));
          throw err;
        }
        ingestJobId = source.ingest_job_id;
      }
      return {
        id: profile._id,
        object: "brand_profile",
        name: profile.name,
        website_url: profile.website_url,
        voice_status: profile.voice_status,
        ...(ingestJobId ? { ingest_job_id: ingestJobId } : {}),
      };
    }),

    listProfiles: zodAction(PageParams.extend({ org_id: orgId }), ({ org_id, ...page }, _ctx, svc: BrandKnowledgeService) =>
      listProfiles(svc.db, org_id, page),
    ),

    getProfile: serve(BrandKnowledgeActions.getProfile, ({ org_id, id }, _ctx, svc: BrandKnowledgeService) => profileDetail(svc.db, org_id, id)),

    addSource: zodAction(AddSourceParams, async ({ org_id, id, ...body }, ctx, svc: BrandKnowledgeService) => {
      if (body.url) body.url = await registerOutboundUrl(body.url, outboundPolicy(config()));
      const source = await addSource(svc.db, org_id, id, body, startIngestVia(ctx.broker), clock, deferredIngest);
      return { id: source._id, object: "kb_source", status: "pending", ingest_job_id: source.ingest_job_id };
    }),

    listSources: serve(BrandKnowledgeActions.listSources, ({ org_id, id }, _ctx, svc: BrandKnowledgeService) => listSources(svc.db, org_id, id)),

    getSource: zodAction(SourcePath.extend({ org_id: orgId }), ({ org_id, id, source_id }, _ctx, svc: BrandKnowledgeService) =>
      sourceDetail(svc.db, org_id, id, source_id),
    ),

    retrieve: serve(BrandKnowledgeActions.retrieve, (params, _ctx, svc: BrandKnowledgeService) => svc.retrieval.retrieve(svc.db, params)),

    /** One stage of an `ingest_source` job, called by the pipeline's worker. */
    runIngestStage: zodAction(StageCall, (call, ctx, svc: BrandKnowledgeService) =>
      runIngestStage(ingestDepsFrom(config(), ctx, call, svc.ingest()), call),
    ),

    /** The end of an ingest job (the pipeline's onFinish for `ingest_source`). */
    ingestFinished: zodAction(IngestFinished, async (end, _ctx, svc: BrandKnowledgeService) => {
      await recordIngestEnd(svc.db, end, clock);
      return { recorded: true };
    }),
  },

  created(this: BrandKnowledgeService) {
    this.retrieval = new RetrievalCache(embedderFrom(config()));
  },

  events: {
    /** A pipeline node (re)appeared: queue what waited for it now, not at the next tick. */
    "$services.changed"(this: BrandKnowledgeService) {
      const services = this.broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as { name: string }[];
      if (services.some((s) => s.name === "pipeline")) this.sweepSources();
    },
  },

  methods: {
    /** The ingest stages' model and fetch clients: built at the first stage this process runs, then kept. */
    ingest(this: BrandKnowledgeService): IngestProviders {
      this.providers ??= ingestProviders(config(), { db: this.db, embedder: this.retrieval.embedder, clock });
      return this.providers;
    },

    /** Sources whose queueing failed, at every call; sources a crash may have stranded, at most every STRANDED_AFTER_MS. */
    sweepSources(this: BrandKnowledgeService) {
      const now = clock.now().getTime();
      const full = now - (this.lastFullSweep ?? 0) >= STRANDED_AFTER_MS;
      if (full) this.lastFullSweep = now;
      requeueStrandedSources(this.db, new Date(full ? now - STRANDED_AFTER_MS : 0), startIngestVia(this.broker)).catch((err) =>
        rootLogger().warn({ err }, "requeueing stranded sources failed"),
      );
    },
  },

  started(this: BrandKnowledgeService) {
    this.sweeper = setInterval(() => this.sweepSources(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  },

  stopped(this: BrandKnowledgeService) {
    clearInterval(this.sweeper);
    this.providers = undefined;
  },
};

export default BrandKnowledgeServiceSchema;
