import type { ServiceBroker } from "moleculer";
import { z } from "zod";
import type { Config } from "../../../shared/config";
import { ARTICLE_COMPLETE, ARTICLE_STAGE } from "../../../shared/job-types";
import { chatModelFrom, imageModelFrom } from "../../../shared/llm/from-config";
import { rootLogger } from "../../../shared/logger";
import { outboundPolicy } from "../../../shared/net/policy";
import { sourceReference } from "../../../shared/public-url";
import { call } from "../../../shared/action";
import { ArticlesActions } from "../../../shared/schemas/articles";
import { BillingActions } from "../../../shared/schemas/billing";
import { BrandKnowledgeActions, TERM_STATS_MAX_TERMS } from "../../../shared/schemas/brand";
import type { StageCallParams, StageProgressParams } from "../../../shared/schemas/jobs";
import { orgId, uuid } from "../../../shared/validation";
import type { LocalHandler } from "../engine/dispatch";
import { buildGeneratedArticle, runArticleStage, type ArticleStageDeps } from "./stages";
import { fetchReadableDocument } from "./evidence/web-search";
import { searchProviderFrom } from "./evidence/search/from-config";

/** Retrieval queries are capped by brand-knowledge.retrieve's schema. */
const MAX_QUERY_CHARS = 2000;

/** What the article stages use that does not depend on the job: model and search clients, built once per process. */
type ArticleProviders = Pick<ArticleStageDeps, "complete" | "modelRetries" | "search" | "fetchDocument" | "generateImage">;

function articleProviders(cfg: Config): ArticleProviders {
  const policy = outboundPolicy(cfg);
  return {
    complete: chatModelFrom(cfg),
    modelRetries: cfg.LLM_MAX_RETRIES,
    search: searchProviderFrom(cfg),
    // Whichever engine found it, a result page is fetched through the URL guard, with the crawler's per-page time: the same kind of fetch.
    fetchDocument: (url) => fetchReadableDocument(url, policy, cfg.CRAWL_PAGE_TIMEOUT_MS),
    generateImage: imageModelFrom(cfg),
  };
}

/** The stage dependencies of one stage call: the process's providers, other services through the broker, progress in-process. */
function articleDepsFor(
  providers: ArticleProviders,
  broker: ServiceBroker,
  stage: StageCallParams,
  recordProgress: (progress: StageProgressParams) => Promise<boolean>,
): ArticleStageDeps {
  const org_id = stage.org_id;
  return {
    ...providers,
    retrieve: (brand_profile_id, query, k) => call(broker, BrandKnowledgeActions.retrieve, { org_id, brand_profile_id, query: query.slice(0, MAX_QUERY_CHARS), k }),
    sourceAddress: (_profileId, sourceId) => sourceReference(sourceId),
    termStats: (brand_profile_id, terms) => call(broker, BrandKnowledgeActions.termStats, { org_id, brand_profile_id, terms: terms.slice(0, TERM_STATS_MAX_TERMS) }),
    getProfile: (id) => call(broker, BrandKnowledgeActions.getProfile, { org_id, id }),
    listSources: async (id) => (await call(broker, BrandKnowledgeActions.listSources, { org_id, id })).data,
    recordTokens: async (tokens_in, tokens_out) => {
      await call(broker, BillingActions.recordTokens, { org_id, tokens_in, tokens_out });
    },
    // Best effort, as for a stage in another service: a lost report must not fail the stage.
    reportProgress: (meta) =>
      recordProgress({ job_id: stage.job_id, fence: stage.fence, stage_index: stage.stage_index, meta }).catch((err: unknown) => {
        rootLogger().debug({ err, job_id: stage.job_id }, "progress report not recorded");
        return true;
      }),
    now: () => new Date(),
  };
}

const CompleteArticle = z.strictObject({
  job_id: uuid,
  org_id: orgId,
  input: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()),
});

/**
 * The article job's handlers, run by the engine in the pipeline's own process: `articleStage` runs one
 * stage, `completeArticle` (the job type's `complete`) hands the finished article to the articles
 * service, whose answer becomes the job's result.
 */
export function articleHandlers(
  cfg: Config,
  broker: ServiceBroker,
  recordProgress: (progress: StageProgressParams) => Promise<boolean>,
): Record<string, LocalHandler> {
  const providers = articleProviders(cfg);
  return {
    [ARTICLE_STAGE]: (params) => {
      const stage = params as StageCallParams;
      return runArticleStage(articleDepsFor(providers, broker, stage, recordProgress), stage);
    },
    [ARTICLE_COMPLETE]: (params) => {
      const article = buildGeneratedArticle(CompleteArticle.parse(params));
      return call(broker, ArticlesActions.saveGenerated, article);
    },
  };
}
