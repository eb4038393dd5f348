import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { serve, zodAction } from "../../shared/action";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { outboundPolicy } from "../../shared/net/policy";
import { registerOutboundUrl } from "../../shared/net/url-guard";
import { BrandKnowledgeActions, IngestFinished, SourcePath } from "../../shared/schemas/brand";
import { StageCall } from "../../shared/schemas/jobs";
import { orgId } from "../../shared/validation";
import { ingestDepsFrom, ingestProviders, type IngestProviders } from "./ingest/deps";
import { runIngestStage } from "./ingest/stages";
import { createProfileWithWebsite } from "./create-profile";
import { deferredIngest, SourceSweeper, startIngestVia } from "./ingest-queue";
import { listProfiles, profileDetail } from "./profiles";
import { embedderFrom } from "./providers";
import { RetrievalCache } from "./retrieval";
import { addSource, listSources, recordIngestEnd, sourceDetail } from "./sources";
import { BRAND_KNOWLEDGE_COLLECTIONS } from "./store";
import { requestHash } from "../../shared/idempotency";

type BrandKnowledgeService = Service &
  DbService & { retrieval: RetrievalCache; providers?: IngestProviders; ingest(): IngestProviders; sweeper?: SourceSweeper };

const clock = systemClock;

/** Brand profiles, knowledge-base sources, their ingestion stages, and retrieval. */
const BrandKnowledgeServiceSchema: ServiceSchema<ServiceSettingSchema, BrandKnowledgeService> = {
  name: "brand-knowledge",
  mixins: [dbMixin("brand-knowledge", BRAND_KNOWLEDGE_COLLECTIONS)],

  actions: {
    createProfile: serve(BrandKnowledgeActions.createProfile, ({ org_id, idempotency_key, ...body }, ctx, svc: BrandKnowledgeService) =>
      createProfileWithWebsite(svc.db, org_id, body, { policy: outboundPolicy(config()), startIngest: startIngestVia(ctx.broker), clock }, idempotency_key),
    ),

    listProfiles: serve(BrandKnowledgeActions.listProfiles, ({ org_id, ...page }, _ctx, svc: BrandKnowledgeService) =>
      listProfiles(svc.db, org_id, page),
    ),

    getProfile: serve(BrandKnowledgeActions.getProfile, ({ org_id, id }, _ctx, svc: BrandKnowledgeService) => profileDetail(svc.db, org_id, id)),

    addSource: serve(BrandKnowledgeActions.addSource, async ({ org_id, id, idempotency_key, ...body }, ctx, svc: BrandKnowledgeService) => {
      const requested = requestHash({ id, ...body });
      if (body.url) body.url = await registerOutboundUrl(body.url, outboundPolicy(config()));
      const keyed = idempotency_key ? { key: idempotency_key, request_hash: requested } : undefined;
      const source = await addSource(svc.db, org_id, id, body, startIngestVia(ctx.broker), clock, deferredIngest, keyed);
      return { id: source._id, object: "kb_source" as const, status: "pending" as const, ingest_job_id: source.ingest_job_id };
    }),

    listSources: serve(BrandKnowledgeActions.listSources, ({ org_id, id }, _ctx, svc: BrandKnowledgeService) => listSources(svc.db, org_id, id)),

    getSource: zodAction(SourcePath.extend({ org_id: orgId }), ({ org_id, id, source_id }, _ctx, svc: BrandKnowledgeService) =>
      sourceDetail(svc.db, org_id, id, source_id),
    ),

    retrieve: serve(BrandKnowledgeActions.retrieve, (params, _ctx, svc: BrandKnowledgeService) => svc.retrieval.retrieve(svc.db, params)),

    termStats: serve(BrandKnowledgeActions.termStats, (params, _ctx, svc: BrandKnowledgeService) => svc.retrieval.termStats(svc.db, params)),

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
      if (services.some((s) => s.name === "pipeline")) this.sweeper?.sweep();
    },
  },

  methods: {
    /** The ingest stages' model and fetch clients: built at the first stage this process runs, then kept. */
    ingest(this: BrandKnowledgeService): IngestProviders {
      this.providers ??= ingestProviders(config(), { db: this.db, embedder: this.retrieval.embedder, clock });
      return this.providers;
    },
  },

  started(this: BrandKnowledgeService) {
    this.sweeper = new SourceSweeper(() => this.db, startIngestVia(this.broker), clock);
    this.sweeper.start();
  },

  stopped(this: BrandKnowledgeService) {
    this.sweeper?.stop();
    this.providers = undefined;
  },
};

export default BrandKnowledgeServiceSchema;
