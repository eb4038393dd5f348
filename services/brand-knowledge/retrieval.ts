import type { Db } from "mongodb";
import type { RetrievedChunk, TermStatsReply } from "../../shared/schemas/brand";
import { Bm25Index, termFrequencies } from "../../shared/text/bm25";
import { baseLanguage } from "../../shared/text/stopwords";
import { tokenize } from "../../shared/text/tokenize";
import type { Embedder } from "./knowledge/embeddings";
import { rankHybrid } from "./knowledge/hybrid";
import { requireProfile } from "./profiles";
import { sources } from "./sources";
import { CHUNKS, type ChunkDoc } from "./store";

/**
 * Every chunk retrieval may read for a profile: each source's active generation only, in the order the sources
 * were added (then each document's chunks in order). Ranking breaks ties by this order, so it must not depend on
 * the sources' random ids: two pasted texts ingested again under new ids gave another article, the overlapping
 * chunks' shared sentences going to whichever chunk ranked first.
 */
export async function activeChunks(db: Db, orgId: string, profileId: string): Promise<ChunkDoc[]> {
  const active = await sources(db)
    .find({ org_id: orgId, profile_id: profileId, active_generation: { $ne: null } }, { projection: { _id: 1, active_generation: 1, created_at: 1 } })
    .sort({ created_at: 1, _id: 1 })
    .toArray();
  if (!active.length) return [];
  const rank = new Map(active.map((s, i) => [s._id, i]));
  const chunks = await db
    .collection<ChunkDoc>(CHUNKS)
    .find({ profile_id: profileId, $or: active.map((s) => ({ source_id: s._id, generation: s.active_generation! })) })
    .sort({ source_id: 1, document_url: 1, ordinal: 1 })
    .toArray();
  return chunks.sort((a, b) => rank.get(a.source_id)! - rank.get(b.source_id)!);
}

interface ProfileIndex {
  version: number;
  embedderId: string;
  chunks: ChunkDoc[];
  bm25: Bm25Index;
  vectors: number[][];
  /** The chunks' terms as the relevance model's weights were fit (`situatedTerms`), built on the first `termStats`. */
  situated?: Bm25Index;
}

/**
 * Hybrid indexes kept in memory per profile, rebuilt when the profile's `index_version` moves
 * (every index switch bumps it), so a query costs one small read plus in-memory ranking.
 */
export class RetrievalCache {
  private readonly indexes = new Map<string, ProfileIndex>();

  constructor(
    readonly embedder: Embedder,
    private readonly maxProfiles = 50,
  ) {}

  private async indexFor(db: Db, orgId: string, profileId: string): Promise<ProfileIndex> {
    const profile = await requireProfile(db, orgId, profileId);
    const cached = this.indexes.get(profileId);
    if (cached && cached.version === profile.index_version && cached.embedderId === this.embedder.id) return cached;
    const chunks = await activeChunks(db, orgId, profileId);
    // Vectors made by another embedder (the configuration changed) are not comparable: embed again, in memory.
    const stale = chunks.some((c) => c.vector.length !== this.embedder.dimensions);
    const vectors = stale ? (await this.embedder.embed(chunks.map((c) => `${c.context}\n${c.text}`))).vectors : chunks.map((c) => c.vector);
    const index: ProfileIndex = {
      version: profile.index_version,
      embedderId: this.embedder.id,
      chunks,
      bm25: new Bm25Index(chunks.map((c) => ({ id: c._id, terms: c.terms, counts: c.counts, length: c.length }))),
      vectors,
    };
    this.indexes.delete(profileId);
    this.indexes.set(profileId, index);
    if (this.indexes.size > this.maxProfiles) this.indexes.delete(this.indexes.keys().next().value!);
    return index;
  }

  /** Ranked chunks for a query: BM25 over context + text and vector similarity, fused by rank. */
  async retrieve(db: Db, input: { org_id: string; brand_profile_id: string; query: string; k: number }): Promise<RetrievedChunk[]> {
    const index = await this.indexFor(db, input.org_id, input.brand_profile_id);
    if (!index.chunks.length) return [];
    const { vectors } = await this.embedder.embed([input.query]);
    const hits = rankHybrid(input.query, vectors[0], { chunks: index.chunks.map((c) => ({ id: c._id })), bm25: index.bm25, vectors: index.vectors, k: input.k });
    const byId = new Map(index.chunks.map((c) => [c._id, c]));
    return hits.map((h) => {
      const c = byId.get(h.chunkId)!;
      return {
        chunk_id: c.chunk_id,
        source_id: c.source_id,
        url: c.document_url,
        title: c.document_title,
        heading_path: c.heading_path,
        ordinal: c.ordinal,
        text: c.text,
        context: c.context,
        score: h.score,
      };
    });
  }

  /**
   * How many of the profile's chunks hold each word, and how often (`termCounts`): the relevance model's weights,
   * counted over each chunk's page title, heading path and text (`situatedTerms`), not over the search index.
   */
  async termStats(db: Db, input: { org_id: string; brand_profile_id: string; terms: { term: string; word: string }[] }): Promise<TermStatsReply> {
    const index = await this.indexFor(db, input.org_id, input.brand_profile_id);
    index.situated ??= situatedTerms(index.chunks);
    return { chunks: index.situated.size, ...termCounts(index.situated, index.chunks.map((c) => c.lang), input.terms) };
  }
}

/**
 * Each chunk's terms as the relevance model's weights were fit (bench/relevance counts a passage's page title,
 * heading path and text): not the search index's, which also holds the chunk's context. That context is the
 * model's words when a model is configured and a page's lead sentence offline, so counting it made the same
 * request weigh differently with a model than without: "Berechtigungen" was in 13 of the German manual's
 * chunks with offline contexts and in 9 with the model's, which decided whether "Dateiberechtigungen" was
 * split (offline, 30 sentences about the topic) or left whole (with the model, 3: the job was refused).
 */
export function situatedTerms(chunks: readonly Pick<ChunkDoc, "_id" | "document_title" | "heading_path" | "text" | "lang">[]): Bm25Index {
  return new Bm25Index(chunks.map((c) => ({ id: c._id, ...termFrequencies(`${c.document_title}\n${c.heading_path.join(" › ")}\n${c.text}`, c.lang ?? "en") })));
}

/**
 * Chunks holding each word (`df`) and the word's occurrences over them (`cf`), keyed by the caller's term. Each chunk
 * was indexed in its own language (a page that declares none, in English): the word is tokenized again in each
 * language the index holds and counted among that language's chunks, so a French request is weighed against French
 * pages indexed as English as well.
 */
export function termCounts(
  bm25: Bm25Index,
  chunkLanguages: readonly (string | null | undefined)[],
  terms: readonly { term: string; word: string }[],
): { df: Record<string, number>; cf: Record<string, number> } {
  const languageOf = chunkLanguages.map((l) => baseLanguage(l ?? "en"));
  const languages = [...new Set(languageOf)];
  const df: Record<string, number> = {};
  const cf: Record<string, number> = {};
  for (const { term, word } of terms) {
    df[term] = cf[term] = 0;
    for (const lang of languages) {
      const indexed = tokenize(word, lang)[0];
      if (!indexed) continue;
      const counts = bm25.countsOf(indexed);
      bm25.documentsWith(indexed).forEach((d, i) => {
        if (languageOf[d] !== lang) return;
        df[term]++;
        cf[term] += counts[i];
      });
    }
  }
  return { df, cf };
}
