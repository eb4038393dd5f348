import type { Db } from "mongodb";
import type { Clock } from "../../../shared/clock";
import type { CompleteFn } from "../../../shared/llm/types";
import type { UrlPolicy } from "../../../shared/net/url-guard";
import type { Embedder } from "../knowledge/embeddings";
import type { ContextualizedChunk } from "../knowledge/types";

/** What the ingest stages need from the outside world, injected (the service builds it from config and the broker). */
export interface IngestDeps {
  db: Db;
  clock: Clock;
  policy: UrlPolicy;
  embedder: Embedder;
  complete?: CompleteFn;
  crawl: { maxPages: number; maxDepth: number; totalTimeMs: number; pageTimeoutMs: number };
  /** Best effort, never throws; false when the job has moved to another worker (this run should stop). */
  reportProgress(meta: Record<string, unknown>): Promise<boolean>;
  recordTokens(tokensIn: number, tokensOut: number): Promise<void>;
}

/** A chunk as the stages stage it between chunk, embed and index. */
export type StagedChunk = ContextualizedChunk & { lang?: string; vector?: number[] };
