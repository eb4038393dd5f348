import type { Context, ServiceSchema } from "moleculer";
import { z } from "zod";
import { zodAction } from "../../../shared/action";
import { config, type Config } from "../../../shared/config";
import { chatModelFrom } from "../../../shared/llm/from-config";
import { imageModelFrom } from "../../../shared/llm/openai-images";
import { outboundPolicy } from "../../../shared/net/policy";
import { publicBaseUrl, sourceAddress } from "../../../shared/public-url";
import type { GeneratedArticleResult } from "../../../shared/schemas/articles";
import type { RetrievedChunk } from "../../../shared/schemas/brand";
import { StageCall, type StageCallParams } from "../../../shared/schemas/jobs";
import { stageProgressReporter } from "../../../shared/stage-progress";
import { orgId, uuid } from "../../../shared/validation";
import type { BrandProfileView } from "./recon";
import { buildGeneratedArticle, runArticleStage, type ArticleStageDeps } from "./stages";
import { fetchReadableDocument, SearxngProvider } from "./web-search";

/** Retrieval queries are capped by brand-knowledge.retrieve's schema. */
const MAX_QUERY_CHARS = 2000;

/** The stage dependencies for one call: providers from the configuration, other services through the broker. */
function articleDepsFrom(cfg: Config, ctx: Context, call: StageCallParams): ArticleStageDeps {
  const policy = outboundPolicy(cfg);
  return {
    complete: chatModelFrom(cfg),
    modelRetries: cfg.LLM_MAX_RETRIES,
    search: cfg.SEARCH_PROVIDER === "searxng" && cfg.SEARXNG_URL ? new SearxngProvider({ baseUrl: cfg.SEARXNG_URL }) : undefined,
    // A result page gets the crawler's per-page time: the same kind of fetch.
    fetchDocument: (url) => fetchReadableDocument(url, policy, cfg.CRAWL_PAGE_TIMEOUT_MS),
    retrieve: (brand_profile_id, query, k) =>
      ctx.call<RetrievedChunk[], object>("brand-knowledge.retrieve", { org_id: call.org_id, brand_profile_id, query: query.slice(0, MAX_QUERY_CHARS), k }),
    sourceAddress: (profileId, sourceId) => sourceAddress(publicBaseUrl(cfg), profileId, sourceId),
    getProfile: (id) => ctx.call<BrandProfileView, object>("brand-knowledge.getProfile", { org_id: call.org_id, id }),
    listSources: async (id) => (await ctx.call<{ data: { id: string; type: string }[] }, object>("brand-knowledge.listSources", { org_id: call.org_id, id })).data,
    generateImage: imageModelFrom(cfg),
    recordTokens: async (tokens_in, tokens_out) => {
      await ctx.call("billing.recordTokens", { org_id: call.org_id, tokens_in, tokens_out });
    },
    reportProgress: stageProgressReporter(ctx, call),
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
 * The article job's handlers, mixed into the pipeline service: `articleStage` runs one stage (the worker
 * calls it as `pipeline.articleStage`), `completeArticle` hands the finished article to the articles
 * service (the job type's `complete`), whose answer becomes the job's result.
 */
export const ArticleStageActions: Partial<ServiceSchema> = {
  actions: {
    articleStage: zodAction(StageCall, (call, ctx) => runArticleStage(articleDepsFrom(config(), ctx, call), call)),

    completeArticle: zodAction(CompleteArticle, async (params, ctx) => {
      const article = buildGeneratedArticle(params);
      return ctx.call<GeneratedArticleResult, typeof article>("articles.saveGenerated", article);
    }),
  },
};
