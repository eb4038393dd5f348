import type { Context } from "moleculer";
import { call as callAction } from "../../../shared/action";
import { BillingActions } from "../../../shared/schemas/billing";
import type { Db } from "mongodb";
import type { Clock } from "../../../shared/clock";
import type { Config } from "../../../shared/config";
import { chatModelFrom } from "../../../shared/llm/from-config";
import { outboundPolicy } from "../../../shared/net/policy";
import type { StageCallParams } from "../../../shared/schemas/jobs";
import { stageProgressReporter } from "../../../shared/stage-progress";
import type { CompleteFn } from "../../../shared/llm/types";
import type { UrlPolicy } from "../../../shared/net/url-guard";
import type { Embedder } from "../knowledge/embeddings";
import type { IngestDeps } from "./types";

/** What the ingest stages use that does not depend on the job: built once per process. */
export interface IngestProviders {
  db: Db;
  embedder: Embedder;
  clock: Clock;
  complete?: CompleteFn;
  policy: UrlPolicy;
}

export function ingestProviders(cfg: Config, own: { db: Db; embedder: Embedder; clock: Clock }): IngestProviders {
  return { ...own, policy: outboundPolicy(cfg), complete: chatModelFrom(cfg) };
}

/** The ingest stage dependencies for one call: the process's providers, other services through the broker. */
export function ingestDepsFrom(cfg: Config, ctx: Context, call: StageCallParams, providers: IngestProviders): IngestDeps {
  return {
    ...providers,
    crawl: { maxPages: cfg.CRAWL_MAX_PAGES, maxDepth: cfg.CRAWL_MAX_DEPTH, totalTimeMs: cfg.CRAWL_TIMEOUT_MS, pageTimeoutMs: cfg.CRAWL_PAGE_TIMEOUT_MS },
    reportProgress: stageProgressReporter(ctx, call),
    recordTokens: async (tokens_in, tokens_out) => {
      await callAction(ctx, BillingActions.recordTokens, { org_id: call.org_id, tokens_in, tokens_out });
    },
  };
}
