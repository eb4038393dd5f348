import { Bm25Index, indexText, termFrequencies } from "../../shared/text/bm25";
import { chunkDocument } from "../../services/brand-knowledge/knowledge/chunk";
import { contextualizeChunks } from "../../services/brand-knowledge/knowledge/contextualize";
import { HashedTfIdfEmbedder } from "../../services/brand-knowledge/knowledge/embeddings";
import { extractDocument } from "../../shared/text/extract";
import { hybridSearch } from "../../services/brand-knowledge/knowledge/hybrid";
import type { ContextualizedChunk } from "../../services/brand-knowledge/knowledge/types";
import { KNOWLEDGE_CORPUS, KNOWLEDGE_QUESTIONS, type CorpusQuestion } from "../support/knowledge-corpus";

const embedder = new HashedTfIdfEmbedder();

/** The ingest pipeline's pure stages, offline: extract → chunk → contextualize → embed → index. */
async function ingestCorpus(sourceId: string) {
  const chunks: ContextualizedChunk[] = [];
  for (const doc of KNOWLEDGE_CORPUS) {
    const extracted = extractDocument(doc);
    const contextualized = await contextualizeChunks(extracted, chunkDocument(extracted, { sourceId }));
    chunks.push(...contextualized.chunks);
  }
  const { vectors } = await embedder.embed(chunks.map(indexText));
  // What the service stores per chunk (through JSON, as a database would), then rebuilds the index from.
  const stored = JSON.parse(JSON.stringify(chunks.map((c) => ({ id: c.id, ...termFrequencies(indexText(c)) }))));
  return { chunks, vectors, bm25: new Bm25Index(stored) };
}

function answers(q: CorpusQuestion, chunk: ContextualizedChunk | undefined): boolean {
  const url = KNOWLEDGE_CORPUS.find((d) => d.id === q.documentId)?.url;
  return chunk !== undefined && chunk.documentUrl === url && chunk.headingPath[0] === q.section;
}

/** Rank (1-based) of the first chunk answering each question among the top 5 of a ranking, or null. */
async function firstAnswerRanks(rank: (q: CorpusQuestion) => Promise<string[]>, byId: Map<string, ContextualizedChunk>) {
  const ranks: (number | null)[] = [];
  for (const q of KNOWLEDGE_QUESTIONS) {
    const ids = (await rank(q)).slice(0, 5);
    const at = ids.findIndex((id) => answers(q, byId.get(id)));
    ranks.push(at < 0 ? null : at + 1);
  }
  const found = ranks.filter((r): r is number => r !== null);
  return {
    ranks,
    recallAt5: found.length / ranks.length,
    recallAt1: found.filter((r) => r === 1).length / ranks.length,
    mrrAt5: found.reduce((s, r) => s + 1 / r, 0) / ranks.length,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

describe("hybrid retrieval over the Lumen Ledger corpus", () => {
  it("finds a chunk of the labelled section in the top 5 for at least 90% of the questions", async () => {
    const { chunks, vectors, bm25 } = await ingestCorpus("src_lumen_site");
    const byId = new Map(chunks.map((c) => [c.id, c]));
    expect(KNOWLEDGE_QUESTIONS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(KNOWLEDGE_QUESTIONS.map((q) => q.documentId)).size).toBe(KNOWLEDGE_CORPUS.length);

    const hybrid = await firstAnswerRanks(async (q) => (await hybridSearch(q.question, { chunks, bm25, vectors, embedder, k: 5 })).map((h) => h.chunkId), byId);
    const lexical = await firstAnswerRanks(async (q) => bm25.search(q.question, 5).map((h) => h.id), byId);
    const vectorOnly = await firstAnswerRanks(async (q) => {
      const [v] = (await embedder.embed([q.question])).vectors;
      return chunks.map((c, i) => ({ id: c.id, s: vectors[i].reduce((sum, x, d) => sum + x * v[d], 0) })).sort((a, b) => b.s - a.s).map((x) => x.id);
    }, byId);

    // Query latency at the scale of a large brand: the corpus's chunks 60 times over (3,000+ chunks).
    const large = { chunks: [] as ContextualizedChunk[], vectors: [] as number[][], entries: [] as ConstructorParameters<typeof Bm25Index>[0][number][] };
    for (let copy = 0; copy < 60; copy++) {
      chunks.forEach((c, i) => {
        const id = `${c.id}-${copy}`;
        large.chunks.push({ ...c, id });
        large.vectors.push(vectors[i]);
        large.entries.push({ id, ...termFrequencies(indexText(c)) });
      });
    }
    const buildStarted = process.hrtime.bigint();
    const largeBm25 = new Bm25Index(large.entries);
    const buildMs = Number(process.hrtime.bigint() - buildStarted) / 1e6;
    const latencies: number[] = [];
    for (let round = 0; round < 4; round++) {
      for (const q of KNOWLEDGE_QUESTIONS) {
        const started = process.hrtime.bigint();
        const hits = await hybridSearch(q.question, { chunks: large.chunks, bm25: largeBm25, vectors: large.vectors, embedder, k: 5 });
        // The first round warms up the JIT and is not measured.
        if (round > 0) latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        expect(hits).toHaveLength(5);
      }
    }
    latencies.sort((a, b) => a - b);

    console.log(
      [
        `${KNOWLEDGE_QUESTIONS.length} questions, ${chunks.length} chunks from ${KNOWLEDGE_CORPUS.length} documents`,
        `hybrid (BM25 + hashed vectors, RRF): recall@5 ${pct(hybrid.recallAt5)}, recall@1 ${pct(hybrid.recallAt1)}, MRR@5 ${hybrid.mrrAt5.toFixed(3)}`,
        `BM25 alone: recall@5 ${pct(lexical.recallAt5)}, recall@1 ${pct(lexical.recallAt1)}; hashed vectors alone: recall@5 ${pct(vectorOnly.recallAt5)}, recall@1 ${pct(vectorOnly.recallAt1)}`,
        `${large.chunks.length} chunks: BM25 index built in ${buildMs.toFixed(1)} ms; hybridSearch p50 ${percentile(latencies, 50).toFixed(2)} ms, p95 ${percentile(latencies, 95).toFixed(2)} ms, max ${latencies[latencies.length - 1].toFixed(2)} ms`,
        ...KNOWLEDGE_QUESTIONS.flatMap((q, i) => (hybrid.ranks[i] === null ? [`missed: "${q.question}" (${q.documentId} / ${q.section})`] : [])),
      ].join("\n"),
    );
    expect(hybrid.recallAt5).toBeGreaterThanOrEqual(0.9);
  });
});
