import { Bm25Index } from "../../shared/text/bm25";
import type { Embedder } from "../../services/brand-knowledge/knowledge/embeddings";
import { hybridSearch, rankHybrid, RRF_K } from "../../services/brand-knowledge/knowledge/hybrid";

const chunks = [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }];
const bm25 = Bm25Index.fromTexts([
  { id: "a", text: "refund policy refund" },
  { id: "b", text: "refund within thirty days" },
  { id: "c", text: "office locations" },
  { id: "d", text: "careers and hiring" },
]);
// Vector ranking for the query [1, 0, 0]: b (0.9), c (0.5), a (0.1); d points away and is no candidate.
const vectors = [
  [0.1, Math.sqrt(0.99), 0],
  [0.9, Math.sqrt(0.19), 0],
  [0.5, 0, Math.sqrt(0.75)],
  [-1, 0, 0],
];
const query = [1, 0, 0];

describe("rankHybrid", () => {
  it("fuses the BM25 and cosine rankings by Reciprocal Rank Fusion (k = 60)", () => {
    const hits = rankHybrid("refund", query, { chunks, bm25, vectors });
    expect(RRF_K).toBe(60);
    // b (2nd and 1st) beats a (1st and 3rd): 1/62 + 1/61 > 1/61 + 1/63.
    expect(hits).toEqual([
      { chunkId: "b", score: 1 / 62 + 1 / 61, bm25Rank: 2, vectorRank: 1 },
      { chunkId: "a", score: 1 / 61 + 1 / 63, bm25Rank: 1, vectorRank: 3 },
      { chunkId: "c", score: 1 / 62, bm25Rank: null, vectorRank: 2 },
    ]);
  });

  it("orders equal scores deterministically", () => {
    // a: BM25 1st only; c: vectors 1st only; equal RRF scores.
    const tied = rankHybrid("policy", [0.5, 0, Math.sqrt(0.75)], { chunks, bm25, vectors: [[0, 1, 0], [0, 1, 0], [0.5, 0, Math.sqrt(0.75)], [0, 1, 0]] });
    expect(tied.map((h) => [h.chunkId, h.score])).toEqual([
      ["a", 1 / 61],
      ["c", 1 / 61],
    ]);
  });

  it("breaks a tie by the index's order, not by the chunks' ids (which hold a random generation)", () => {
    // The same two tied chunks, indexed in the same order under other ids (the sources ingested again).
    const order = (ids: [string, string]) => {
      const index = [{ id: ids[0] }, { id: ids[1] }];
      const words = Bm25Index.fromTexts([{ id: ids[0], text: "policy" }, { id: ids[1], text: "office" }]);
      return rankHybrid("policy", [0, 1], { chunks: index, bm25: words, vectors: [[1, 0], [0, 1]] }).map((h) => h.chunkId);
    };
    expect(order(["z-gen:first", "a-gen:second"])).toEqual(["z-gen:first", "a-gen:second"]);
    expect(order(["a-gen:first", "z-gen:second"])).toEqual(["a-gen:first", "z-gen:second"]);
  });

  it("returns k hits and honours the candidate depth of each ranking", () => {
    expect(rankHybrid("refund", query, { chunks, bm25, vectors, k: 1 }).map((h) => h.chunkId)).toEqual(["b"]);
    const shallow = rankHybrid("refund", query, { chunks, bm25, vectors, depth: 1 });
    expect(shallow.map((h) => [h.chunkId, h.bm25Rank, h.vectorRank])).toEqual([
      ["a", 1, null],
      ["b", null, 1],
    ]);
  });

  it("refuses vectors that do not match the chunks or the query", () => {
    expect(() => rankHybrid("refund", query, { chunks, bm25, vectors: vectors.slice(1) })).toThrow(/3 vectors for 4 chunks/);
    expect(() => rankHybrid("refund", [1, 0], { chunks, bm25, vectors })).toThrow(/dimensions/);
  });
});

describe("hybridSearch", () => {
  it("embeds the query with the given embedder, then ranks", async () => {
    const seen: string[][] = [];
    const embedder: Embedder = {
      id: "fake",
      dimensions: 3,
      embed: async (texts) => {
        seen.push(texts);
        return { vectors: [query], tokensIn: 0 };
      },
    };
    const hits = await hybridSearch("refund", { chunks, bm25, vectors, embedder, k: 2 });
    expect(seen).toEqual([["refund"]]);
    expect(hits).toEqual(rankHybrid("refund", query, { chunks, bm25, vectors, k: 2 }));
  });
});
