import type { Bm25Index } from "../../../shared/text/bm25";
import type { Embedder } from "./embeddings";

export interface HybridHit {
  chunkId: string;
  /** Reciprocal Rank Fusion score: Σ 1 / (rrfK + rank) over the rankings that contain the chunk. */
  score: number;
  /** 1-based rank in each ranking; null when the chunk is not among that ranking's candidates. */
  bm25Rank: number | null;
  vectorRank: number | null;
}

export interface HybridIndex {
  chunks: ReadonlyArray<{ id: string }>;
  bm25: Bm25Index;
  /** One L2-normalised vector per chunk, in the order of `chunks`, made by an embedder with the same id as `embedder`. */
  vectors: ReadonlyArray<readonly number[]>;
}

export interface HybridOptions {
  /** Hits returned. */
  k?: number;
  /** RRF constant; 60 as in Cormack, Clarke & Büttcher (2009). */
  rrfK?: number;
  /** Candidates taken from each ranking before fusion. */
  depth?: number;
  lang?: string;
}

export const RRF_K = 60;

/** Embeds the query, then ranks with rankHybrid. */
export async function hybridSearch(query: string, input: HybridIndex & HybridOptions & { embedder: Embedder }): Promise<HybridHit[]> {
  const { vectors } = await input.embedder.embed([query]);
  return rankHybrid(query, vectors[0], input);
}

/**
 * BM25 ranking and cosine ranking (a dot product: both sides are normalised), fused by Reciprocal Rank Fusion,
 * which needs no score calibration between the two: a chunk ranked well by either list rises, one ranked well
 * by both rises most.
 */
export function rankHybrid(query: string, queryVector: readonly number[], input: HybridIndex & HybridOptions): HybridHit[] {
  const { chunks, bm25, vectors } = input;
  const k = input.k ?? 8;
  const rrfK = input.rrfK ?? RRF_K;
  const depth = input.depth ?? 100;
  if (vectors.length !== chunks.length) throw new Error(`${vectors.length} vectors for ${chunks.length} chunks`);

  const fused = new Map<string, HybridHit>();
  const hit = (chunkId: string) => {
    let found = fused.get(chunkId);
    if (!found) fused.set(chunkId, (found = { chunkId, score: 0, bm25Rank: null, vectorRank: null }));
    return found;
  };

  for (const { id, rank } of bm25.search(query, depth, input.lang)) {
    const h = hit(id);
    h.bm25Rank = rank;
    h.score += 1 / (rrfK + rank);
  }

  const similarities = new Float64Array(chunks.length);
  const candidates: number[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const v = vectors[i];
    if (v.length !== queryVector.length) throw new Error(`chunk ${chunks[i].id} has ${v.length} dimensions, the query ${queryVector.length}`);
    let dot = 0;
    for (let d = 0; d < v.length; d++) dot += v[d] * queryVector[d];
    similarities[i] = dot;
    // Nothing in common with the query (or an empty vector) is not a match, whatever its rank would be.
    if (dot > 0) candidates.push(i);
  }
  candidates.sort((a, b) => similarities[b] - similarities[a] || a - b);
  candidates.slice(0, depth).forEach((i, position) => {
    const h = hit(chunks[i].id);
    h.vectorRank = position + 1;
    h.score += 1 / (rrfK + position + 1);
  });

  const best = (h: HybridHit) => Math.min(h.bm25Rank ?? Infinity, h.vectorRank ?? Infinity);
  // Last, the index's own order (sources as they were added, each document's chunks in order): a chunk's id holds
  // its generation, which is random, and ranked two pasted texts' tied chunks differently at each ingest.
  // Every hit is one of `chunks`, so its position is known and ties end here.
  const position = new Map(chunks.map((c, i) => [c.id, i]));
  return [...fused.values()].sort((a, b) => b.score - a.score || best(a) - best(b) || position.get(a.chunkId)! - position.get(b.chunkId)!).slice(0, k);
}
