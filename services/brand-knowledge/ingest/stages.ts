import type { Db } from "mongodb";
import { ApiError } from "../../../shared/errors";
import type { StageCallParams, StageOutcome } from "../../../shared/schemas/jobs";
import { crawlSite, fetchSinglePage, type CrawledPage, type CrawlResult } from "../crawl/crawler";
import { chunkDocument } from "../knowledge/chunk";
import { contextualizeChunks } from "../knowledge/contextualize";
import { withoutSiteChrome } from "../knowledge/site-chrome";
import { extractDocument, extractPlainText } from "../../../shared/text/extract";
import type { ExtractedDocument } from "../../../shared/text/document";
import type { Chunk } from "../knowledge/types";
import { sources } from "../sources";
import type { SourceDoc } from "../store";
import { indexChunks, refreshProfileKnowledge } from "./index-stage";
import { patchStaging, readStaging, writeStaging } from "./staging";
import type { IngestDeps, StagedChunk } from "./types";

type StagePage = { url: string | null; title?: string; contentType: string; body: string };

/** Pasted text has no URL; its documents are named after the source so chunk ids stay stable. */
/** A fetched page's address; for a text source, the address it says its text came from, else a reference to the source. */
const documentUrlOf = (source: SourceDoc, url: string | null) => url ?? source.url ?? `kb-source:${source._id}`;

async function loadSource(db: Db, call: StageCallParams): Promise<SourceDoc> {
  const sourceId = String(call.input.source_id);
  const source = await sources(db).findOne({ _id: sourceId, org_id: call.org_id });
  if (!source) throw new ApiError("not_found", `Source ${sourceId} no longer exists.`);
  return source;
}

function fence(call: StageCallParams, key: string): number {
  const value = call.state[key];
  if (typeof value !== "number") throw new Error(`missing ${key} in job state: stages ran out of order`);
  return value;
}

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

/** crawl: a website breadth-first, a url as one page; text sources need no fetch. */
async function crawl(deps: IngestDeps, call: StageCallParams, source: SourceDoc): Promise<StageOutcome> {
  await sources(deps.db).updateOne({ _id: source._id }, { $set: { status: "processing", updated_at: deps.clock.now() } });
  let pages: StagePage[];
  let skipped: CrawlResult["skipped"] = [];
  if (source.type === "website" || source.type === "url") {
    let lastReport = 0;
    const superseded = new AbortController();
    const onProgress = (p: { fetched: number; queued: number; skipped: number }) => {
      if (Date.now() - lastReport < 250) return;
      lastReport = Date.now();
      void deps.reportProgress({ fetched: p.fetched, queued: p.queued, skipped: p.skipped }).then((accepted) => {
        if (!accepted) superseded.abort();
      });
    };
    const opts = { policy: deps.policy, pageTimeoutMs: deps.crawl.pageTimeoutMs, onProgress, signal: superseded.signal };
    const result =
      source.type === "website"
        ? await crawlSite(source.url!, { ...opts, maxPages: deps.crawl.maxPages, maxDepth: deps.crawl.maxDepth, totalTimeMs: deps.crawl.totalTimeMs })
        : await fetchSinglePage(source.url!, opts);
    if (superseded.signal.aborted) throw new Error("the job moved to another worker; this crawl stopped");
    skipped = result.skipped;
    pages = result.pages.map((p: CrawledPage) => ({ url: p.finalUrl, title: p.title, contentType: p.contentType, body: p.html ?? p.text ?? "" }));
    if (!pages.length) {
      const reasons = Object.entries(countBy(skipped, (s) => s.reason)).map(([r, n]) => `${r}: ${n}`).join(", ");
      throw new ApiError("invalid_request", `No page could be fetched from ${source.url}${reasons ? ` (skipped ${reasons})` : ""}.`);
    }
  } else {
    pages = [{ url: null, title: source.title, contentType: "text/plain", body: source.content ?? "" }];
  }
  await writeStaging(deps.db, call.job_id, call.fence, "page", pages);
  return {
    state: { pages_fence: call.fence, pages: pages.length },
    meta: { pages: pages.length, skipped: skipped.length, skipped_by_reason: countBy(skipped, (s) => s.reason), urls: pages.flatMap((p) => (p.url ? [p.url] : [])).slice(0, 20) },
  };
}

/** extract: readable main text and title, headings kept as structure. */
async function extract(deps: IngestDeps, call: StageCallParams, source: SourceDoc): Promise<StageOutcome> {
  const pages = await readStaging<StagePage>(deps.db, call.job_id, "page", fence(call, "pages_fence"));
  const documents: ExtractedDocument[] = [];
  let failed = 0;
  for (const { data: page } of pages) {
    try {
      const doc = page.url
        ? extractDocument({ url: page.url, contentType: page.contentType, body: page.body })
        : extractPlainText({ content: page.body, title: page.title, url: documentUrlOf(source, null) });
      if (doc.wordCount > 0) documents.push(doc);
    } catch {
      failed++;
    }
  }
  // A website's pages are read together once: what most of them repeat is the site's chrome, not content.
  const { documents: readable, removed } = source.type === "website" ? withoutSiteChrome(documents) : { documents, removed: 0 };
  const kept = readable.filter((d) => d.wordCount > 0);
  if (!kept.length) throw new ApiError("invalid_request", "No readable text was found in the source.");
  await writeStaging(deps.db, call.job_id, call.fence, "document", kept as unknown as Record<string, unknown>[]);
  return {
    state: { documents_fence: call.fence },
    meta: { documents: kept.length, words: kept.reduce((n, d) => n + d.wordCount, 0), unreadable: failed, site_chrome_paragraphs: removed },
  };
}

/** chunk: heading-aware chunks with overlap. */
async function chunk(deps: IngestDeps, call: StageCallParams, source: SourceDoc): Promise<StageOutcome> {
  const documents = await readStaging<ExtractedDocument>(deps.db, call.job_id, "document", fence(call, "documents_fence"));
  const chunks: (Chunk & { lang?: string })[] = [];
  for (const { data: doc } of documents) {
    for (const c of chunkDocument(doc, { sourceId: source._id })) chunks.push({ ...c, lang: doc.lang });
  }
  await writeStaging(deps.db, call.job_id, call.fence, "chunk", chunks as unknown as Record<string, unknown>[]);
  return { state: { chunks_fence: call.fence }, meta: { chunks: chunks.length, tokens: chunks.reduce((n, c) => n + c.tokenCount, 0) } };
}

/** contextualize: a short context per chunk, by the model when configured, else from title, headings and lead. */
async function contextualize(deps: IngestDeps, call: StageCallParams): Promise<StageOutcome> {
  const documents = await readStaging<ExtractedDocument>(deps.db, call.job_id, "document", fence(call, "documents_fence"));
  const staged = await readStaging<Chunk>(deps.db, call.job_id, "chunk", fence(call, "chunks_fence"));
  const byDocument = new Map<string, { id: string; data: Chunk }[]>();
  for (const s of staged) byDocument.set(s.data.documentUrl, [...(byDocument.get(s.data.documentUrl) ?? []), s]);
  let tokensIn = 0;
  let tokensOut = 0;
  let modelFailures = 0;
  let done = 0;
  for (const { data: doc } of documents) {
    const items = byDocument.get(doc.url) ?? [];
    if (!items.length) continue;
    const result = await contextualizeChunks(doc, items.map((i) => i.data), { complete: deps.complete });
    tokensIn += result.tokensIn;
    tokensOut += result.tokensOut;
    modelFailures += result.modelFailures;
    await patchStaging(deps.db, items.map((item, i) => ({ id: item.id, set: { context: result.chunks[i].context, contextSource: result.chunks[i].contextSource } })));
    done += items.length;
    await deps.reportProgress({ contextualized: done, of: staged.length });
  }
  if (tokensIn || tokensOut) await deps.recordTokens(tokensIn, tokensOut);
  return { meta: { contextualized: done, by: deps.complete ? "model" : "offline", model_failures: modelFailures, tokens_in: tokensIn, tokens_out: tokensOut } };
}

/** embed: a vector per chunk over its context and text. */
async function embed(deps: IngestDeps, call: StageCallParams): Promise<StageOutcome> {
  const staged = await readStaging<StagedChunk>(deps.db, call.job_id, "chunk", fence(call, "chunks_fence"));
  let tokensIn = 0;
  for (let i = 0; i < staged.length; i += 64) {
    const batch = staged.slice(i, i + 64);
    const { vectors, tokensIn: used } = await deps.embedder.embed(batch.map((s) => `${s.data.context ?? ""}\n${s.data.text}`));
    tokensIn += used;
    await patchStaging(deps.db, batch.map((s, j) => ({ id: s.id, set: { vector: vectors[j] } })));
  }
  if (tokensIn) await deps.recordTokens(tokensIn, 0);
  return { meta: { embedded: staged.length, embedder: deps.embedder.id, dimensions: deps.embedder.dimensions } };
}

const STAGES: Record<string, (deps: IngestDeps, call: StageCallParams, source: SourceDoc) => Promise<StageOutcome>> = {
  crawl,
  extract,
  chunk,
  contextualize,
  embed,
  index: (deps, call, source) => indexChunks(deps, call, source, fence(call, "chunks_fence")),
  refresh: (deps, call, source) => refreshProfileKnowledge(deps, call, source),
};

/** Runs one stage of an `ingest_source` job (called by the pipeline's worker). */
export async function runIngestStage(deps: IngestDeps, call: StageCallParams): Promise<StageOutcome> {
  const run = STAGES[call.stage];
  if (!run) throw new Error(`unknown ingest stage ${call.stage}`);
  return run(deps, call, await loadSource(deps.db, call));
}

export { documentUrlOf };
