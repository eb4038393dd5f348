import { tokenize } from "./tokenize";

/**
 * What is stored per chunk so the index can be rebuilt without re-tokenizing: term frequencies as two
 * parallel arrays (terms may contain dots, which MongoDB field names should not), and the length in terms.
 */
export interface TermFrequencies {
  terms: string[];
  counts: number[];
  length: number;
}

export interface Bm25Entry extends TermFrequencies {
  id: string;
}

export interface Bm25Params {
  k1: number;
  b: number;
}

export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

export interface Bm25Hit {
  id: string;
  score: number;
  /** 1-based. */
  rank: number;
}

/** The text a chunk is indexed by: its situating context, then its own text. */
export function indexText(chunk: { context?: string; text: string }): string {
  return chunk.context ? `${chunk.context}\n${chunk.text}` : chunk.text;
}

export function termFrequencies(text: string, lang = "en"): TermFrequencies {
  const tokens = tokenize(text, lang);
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  return { terms: [...counts.keys()], counts: [...counts.values()], length: tokens.length };
}

interface Posting {
  docs: number[];
  tfs: number[];
}

/**
 * Robertson and Spärck Jones's inverse document frequency, the one BM25 ranks with: a term in every one of `n`
 * documents weighs next to nothing, one in none of them the most. The relevance model weighs a request's words
 * over a profile's chunks with it too (`relevance/weights.ts`).
 */
export function bm25Idf(df: number, n: number): number {
  const d = Math.min(Math.max(df, 0), n);
  return Math.log(1 + (n - d + 0.5) / (d + 0.5));
}

/**
 * Okapi BM25 with Lucene's non-negative IDF, ln(1 + (N − df + 0.5) / (df + 0.5)):
 * score(q, d) = Σ_t IDF(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d|/avgdl)), each distinct query term once.
 * Postings live in memory and are built from stored TermFrequencies in one pass.
 */
export class Bm25Index {
  readonly ids: readonly string[];
  private readonly postings = new Map<string, Posting>();
  private readonly norms: Float64Array;
  private readonly params: Bm25Params;

  constructor(entries: readonly Bm25Entry[], params: Partial<Bm25Params> = {}) {
    this.params = { ...BM25_DEFAULTS, ...params };
    this.ids = entries.map((e) => e.id);
    const avgdl = entries.reduce((n, e) => n + e.length, 0) / Math.max(entries.length, 1) || 1;
    const { k1, b } = this.params;
    // k1·(1 − b + b·|d|/avgdl) depends only on the document: computed once here, not per query term.
    this.norms = Float64Array.from(entries, (e) => k1 * (1 - b + (b * e.length) / avgdl));
    entries.forEach((entry, doc) => {
      entry.terms.forEach((term, i) => {
        let posting = this.postings.get(term);
        if (!posting) this.postings.set(term, (posting = { docs: [], tfs: [] }));
        posting.docs.push(doc);
        posting.tfs.push(entry.counts[i]);
      });
    });
  }

  static fromTexts(docs: readonly { id: string; text: string }[], lang = "en", params?: Partial<Bm25Params>): Bm25Index {
    return new Bm25Index(docs.map((d) => ({ id: d.id, ...termFrequencies(d.text, lang) })), params);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Documents holding the term. */
  documentFrequency(term: string): number {
    return this.postings.get(term)?.docs.length ?? 0;
  }

  /** Occurrences of the term over the documents holding it, by their positions (in index order, as `documentsWith`). */
  countsOf(term: string): readonly number[] {
    return this.postings.get(term)?.tfs ?? [];
  }

  /** Positions (in index order) of the documents holding the term. */
  documentsWith(term: string): readonly number[] {
    return this.postings.get(term)?.docs ?? [];
  }

  /** Documents matching at least one query term, best first (ties in index order), at most `limit`. */
  search(query: string, limit = Infinity, lang = "en"): Bm25Hit[] {
    const n = this.ids.length;
    const scores = new Float64Array(n);
    const matched: number[] = [];
    const { k1 } = this.params;
    for (const term of new Set(tokenize(query, lang))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const df = posting.docs.length;
      const idf = bm25Idf(df, n);
      for (let i = 0; i < df; i++) {
        const doc = posting.docs[i];
        const tf = posting.tfs[i];
        if (scores[doc] === 0) matched.push(doc);
        scores[doc] += (idf * tf * (k1 + 1)) / (tf + this.norms[doc]);
      }
    }
    matched.sort((a, b) => scores[b] - scores[a] || a - b);
    return matched.slice(0, limit).map((doc, i) => ({ id: this.ids[doc], score: scores[doc], rank: i + 1 }));
  }
}
