import { subjectQuery } from "../../services/pipeline/article/evidence/research";
import { analyseRequest, relevanceModel, SMALL_PROFILE_CHUNKS, subjectFromPool, subjectWeights, termsToCount, type WeightFit } from "../../services/pipeline/article/relevance";
import type { BrandBrief } from "../../services/pipeline/article/types";
import type { Corpus } from "./corpus";

/** Passages research brings for a request: half for the subject's query, half for the topic as written. */
const POOL_PASSAGES = 24;

/**
 * The pool research would bring for a request on a knowledge base (BM25 over its chunks: the subject's query,
 * then the topic as written, as `research.ts` asks), and the relevance model of that pool under a fit: the
 * subject weighed over the profile's chunks when the profile is large enough, else over the pool's sentences.
 */
export function requestPool(corpus: Corpus, topic: string, lang: string, fit: WeightFit, brand: Pick<BrandBrief, "name" | "description"> | null = null) {
  const analysis = analyseRequest(topic, topic, lang);
  const subject = corpus.index.size >= SMALL_PROFILE_CHUNKS ? subjectWeights(analysis, corpus.stats(termsToCount(analysis)), "profile", fit) : undefined;
  const brief = { topic, keyword: topic, language: lang, subject, brand };
  const query = subjectQuery(brief as Parameters<typeof subjectQuery>[0]);
  const ids = [...new Set([...corpus.index.search(query, POOL_PASSAGES / 2, lang), ...corpus.index.search(topic, POOL_PASSAGES / 2, lang)].map((h) => h.id))];
  const pool = ids.map((id) => corpus.passages.find((p) => p.id === id)!);
  const model = relevanceModel(pool, { ...brief, subject: subject ?? subjectFromPool(pool, brief, fit) });
  return { pool, model };
}
