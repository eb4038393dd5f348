import type { Context, Service, ServiceBroker, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { call, serve } from "../../shared/action";
import { AuthActions } from "../../shared/schemas/admin";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { rootLogger } from "../../shared/logger";
import { publicBaseUrl } from "../../shared/public-url";
import { ArticlesActions } from "../../shared/schemas/articles";
import { IntegrationActions } from "../../shared/schemas/publishing";
import { createArticleJob, type CreationDeps } from "./create-article";
import { renderMarkdown, updateArticle } from "./edit-article";
import { readMedia } from "./media";
import { listArticles, readArticleResource, requireArticle } from "./read-articles";
import { publishingConfig } from "./publishing/clients";
import { createIntegration, deleteIntegration, listIntegrations, testIntegration, type IntegrationDeps } from "./publishing/integrations";
import { publishArticle } from "./publishing/publish-article";
import { finishAcceptedRequest, recoverStrandedRequests, STRANDED_AFTER_MS } from "./recovery";
import { saveGeneratedArticle } from "./save-generated";
import { ARTICLE_COLLECTIONS, articleCollections } from "./store";

type ArticlesService = Service & DbService & { recoveryTimer?: NodeJS.Timeout; sweep(): void };

const clock = systemClock;
/**
 * How often accepted requests whose job is not created yet, and requests stranded by a crash (by any
 * replica), are looked for; also at start and whenever a billing or pipeline node appears.
 */
const RECOVERY_INTERVAL_MS = 5_000;

function creationDeps(svc: ArticlesService, caller: Pick<Context | ServiceBroker, "call">): CreationDeps {
  return {
    db: svc.db,
    clock,
    call: (action, params) => caller.call(action, params),
    idempotencyTtlMs: config().IDEMPOTENCY_TTL_HOURS * 3600_000,
  };
}

const mediaBase = () => publicBaseUrl(config());

function publishingDeps(svc: ArticlesService, caller: Pick<Context, "call">): IntegrationDeps {
  return {
    db: svc.db,
    clock,
    keys: config().INTEGRATIONS_ENCRYPTION_KEYS,
    publishing: publishingConfig(config()),
    organizationExists: (orgId) => call(caller, AuthActions.getOrganization, { org_id: orgId }).then(() => true, (err: { type?: string }) => (err?.type === "not_found" ? false : Promise.reject(err))),
  };
}

/** Articles: creation as a paid job, the generated result, reading, editing and the review lifecycle, media. */
const ArticlesServiceSchema: ServiceSchema<ServiceSettingSchema, ArticlesService> = {
  name: "articles",
  mixins: [dbMixin("articles", ARTICLE_COLLECTIONS)],

  actions: {
    /** POST /v1/articles: 202 with the job acknowledgement, or 200 when an Idempotency-Key replays it. */
    create: serve(ArticlesActions.create, async (params, ctx, svc: ArticlesService) => {
      const ack = await createArticleJob(creationDeps(svc, ctx), params);
      if (ack.replayed) (ctx.meta as Record<string, unknown>).$statusCode = 200;
      return ack;
    }),

    list: serve(ArticlesActions.list, ({ org_id, status, ...page }, _ctx, svc: ArticlesService) => listArticles(svc.db, org_id, page, status)),

    get: serve(ArticlesActions.get, async ({ org_id, id, format }, _ctx, svc: ArticlesService) =>
      readArticleResource(svc.db, await requireArticle(svc.db, org_id, id), mediaBase(), format),
    ),

    update: serve(ArticlesActions.update, async ({ org_id, id, ...update }, _ctx, svc: ArticlesService) =>
      readArticleResource(svc.db, await updateArticle(svc.db, org_id, id, update, clock), mediaBase()),
    ),

    /** The dashboard's editor preview: the HTML and measures a PATCH with this markdown would store (nothing is stored). */
    renderMarkdown: serve(ArticlesActions.renderMarkdown, ({ content_markdown, language }) => renderMarkdown(content_markdown, language)),

    /** POST /v1/articles/{id}/publish: pushes the article to one of the organization's integrations. */
    publish: serve(IntegrationActions.publish, (params, ctx, svc: ArticlesService) => publishArticle(publishingDeps(svc, ctx), params)),

    /** The dashboard's integrations (`/admin`): create, list, delete, test. */
    createIntegration: serve(IntegrationActions.createIntegration, ({ org_id, idempotency_key, ...input }, ctx, svc: ArticlesService) =>
      createIntegration(publishingDeps(svc, ctx), org_id, input, idempotency_key),
    ),
    listIntegrations: serve(IntegrationActions.listIntegrations, ({ org_id }, _ctx, svc: ArticlesService) => listIntegrations(svc.db, org_id)),
    deleteIntegration: serve(IntegrationActions.deleteIntegration, ({ id }, _ctx, svc: ArticlesService) => deleteIntegration(svc.db, id)),
    testIntegration: serve(IntegrationActions.testIntegration, ({ id }, ctx, svc: ArticlesService) => testIntegration(publishingDeps(svc, ctx), id)),

    /** The pipeline found no job with this id: finish the article request accepted under it, if any. */
    finishAccepted: serve(ArticlesActions.finishAccepted, async ({ org_id, id }, ctx, svc: ArticlesService) => ({
      finished: await finishAcceptedRequest(creationDeps(svc, ctx), org_id, id),
    })),

    /** The article pipeline's finished article; returns the job's `result`. Idempotent on `job_id`. */
    saveGenerated: serve(ArticlesActions.saveGenerated, (generated, _ctx, svc: ArticlesService) => saveGeneratedArticle(svc.db, generated, clock)),

    /** The bytes and headers of `GET /media/{id}` (public: the id is an unguessable UUID). */
    getMedia: serve(ArticlesActions.getMedia, ({ id }, _ctx, svc: ArticlesService) => readMedia(articleCollections(svc.db), id)),
  },

  events: {
    /** A billing or pipeline node (re)appeared: roll accepted requests forward now, not at the next tick. */
    "$services.changed"(this: ArticlesService) {
      this.sweep();
    },
  },

  methods: {
    sweep(this: ArticlesService) {
      recoverStrandedRequests(creationDeps(this, this.broker), new Date(clock.now().getTime() - STRANDED_AFTER_MS))
        .then((report) => {
          if (report.queued || report.dropped) rootLogger().warn({ ...report }, "finished accepted or stranded article requests");
        })
        .catch((err) => rootLogger().warn({ err }, "article request recovery failed"));
    },
  },

  started(this: ArticlesService) {
    this.sweep();
    this.recoveryTimer = setInterval(() => this.sweep(), RECOVERY_INTERVAL_MS);
    this.recoveryTimer.unref();
  },

  stopped(this: ArticlesService) {
    clearInterval(this.recoveryTimer);
  },
};

export default ArticlesServiceSchema;
