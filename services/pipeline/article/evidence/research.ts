import { analyseRequest, requestedAngle } from "../relevance";
import type { ArticleMode } from "../../../../shared/schemas/articles";
import type { RetrievedChunk } from "../../../../shared/schemas/brand";
import type { ExtractedDocument } from "../../../../shared/text/document";
import { EvidencePool, evidenceFromChunk, passagesFromDocument, type EvidenceDraft } from "./passages";
import type { SearchProvider } from "./search/provider";
import type { ArticleBrief, Evidence, Outline, PlannedSection } from "../types";

export interface ResearchDeps {
  /** The brand's knowledge base; undefined when the article has no brand profile. */
  retrieve?: (query: string, k: number) => Promise<RetrievedChunk[]>;
  /** The address of a pasted source of the brand profile (what its citations link to). */
  sourceAddress: (sourceId: string) => string;
  /** Web search; undefined when SEARCH_PROVIDER is none. */
  search?: SearchProvider;
  /** Fetches and extracts a result page through the URL guard. */
  fetchDocument: (url: string) => Promise<ExtractedDocument>;
  now: () => Date;
  progress?: (meta: Record<string, unknown>) => void;
}

export interface ResearchDepth {
  queriesPerSection: number;
  brandPassagesPerQuery: number;
  resultsPerQuery: number;
  pagesPerQuery: number;
  maxPages: number;
  passagesPerPage: number;
}

/**
 * deep_research asks more questions per section, reads more results, and keeps more of each page.
 * Knowledge-base passages per query: every query names the topic, so the queries of one article find mostly
 * the same best chunks; at 8 per query a German backup article's four queries brought 11 distinct chunks.
 * 16 (20 deep) reach the rest of the topic's sections; what is not about the topic is filtered out after.
 */
export const RESEARCH_DEPTH: Record<ArticleMode, ResearchDepth> = {
  standard: { queriesPerSection: 1, brandPassagesPerQuery: 16, resultsPerQuery: 5, pagesPerQuery: 2, maxPages: 8, passagesPerPage: 2 },
  deep_research: { queriesPerSection: 3, brandPassagesPerQuery: 20, resultsPerQuery: 8, pagesPerQuery: 3, maxPages: 24, passagesPerPage: 3 },
};

const WEB_CONCURRENCY = 4;

export interface ResearchQuery {
  section: string;
  query: string;
}

/** A section's queries: its own (heading and topic), then, when researching deeper, heading with keyword and the heading alone. */
export function sectionQueries(section: PlannedSection, brief: ArticleBrief, depth: ResearchDepth): string[] {
  const candidates = section.role === "body" ? [section.query, `${section.heading} ${brief.keyword}`, section.heading] : [section.query, brief.topic];
  return [...new Set(candidates.map((q) => q.replace(/\s+/g, " ").trim()).filter(Boolean))].slice(0, depth.queriesPerSection);
}

/**
 * The request's subject as a query, without its angle ("best practices for backing up a Debian server" →
 * "backup Debian server"): what the knowledge base is asked first, so the angle's words do not pull in
 * passages about "practices". A joined form the profile knows ("backup") is asked as such.
 */
export function subjectQuery(brief: ArticleBrief): string {
  const terms = brief.subject?.terms ?? analyseRequest(brief.topic, brief.keyword, brief.language).subject;
  return terms.map((t) => (t.surface.includes(" ") ? t.term : t.surface)).join(" ");
}

/**
 * Every query of an outline, each text once: the subject's first, with the words of its angle's material when the
 * request's angle names some (a beginner's: "quick start introduction …", `angleMaterial.query`), then each
 * section's; the introduction and conclusion share the topic's.
 */
export function researchQueries(outline: Outline, brief: ArticleBrief, depth: ResearchDepth): ResearchQuery[] {
  const seen = new Set<string>();
  const out: ResearchQuery[] = [];
  const subject = subjectQuery(brief).trim();
  const opening = outline.sections[0];
  if (subject && opening) {
    seen.add(subject.toLowerCase());
    out.push({ section: opening.key, query: subject });
    const material = requestedAngle(brief)?.query;
    if (material) {
      const query = `${subject} ${material}`;
      seen.add(query.toLowerCase());
      out.push({ section: opening.key, query });
    }
  }
  for (const section of outline.sections) {
    for (const query of sectionQueries(section, brief, depth)) {
      if (seen.has(query.toLowerCase())) continue;
      seen.add(query.toLowerCase());
      out.push({ section: section.key, query });
    }
  }
  return out;
}

async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i]) out.push(a[i]);
    if (b[i]) out.push(b[i]);
  }
  return out;
}

export interface ResearchReport {
  /** Whether a web search provider was configured for this research. */
  web_search: boolean;
  queries: string[];
  brand_passages: number;
  web_passages: number;
  pages_fetched: number;
  pages_failed: number;
  search_errors: number;
  /** Distinct sources research read: web pages that read well, plus knowledge-base sources whose passages entered the pool. */
  sources_read: number;
  /** Queries asked per section at this depth (deep_research asks more). */
  queries_per_section: number;
  sources: string[];
  evidence: number;
}

/**
 * Gathers evidence for the queries into the pool: the brand's knowledge base (hybrid retrieval) and, with a
 * search provider, web pages found for the same queries, fetched through the URL guard and cut into
 * passages that answer the query. Unreachable or unreadable pages are skipped; a failed search is counted.
 * The pool is filled round-robin over the queries (each query's brand and web passages alternating, best first).
 */
export async function gatherEvidence(
  deps: ResearchDeps,
  brief: ArticleBrief,
  queries: readonly ResearchQuery[],
  depth: ResearchDepth,
  existing: readonly Evidence[] = [],
): Promise<{ evidence: Evidence[]; report: ResearchReport }> {
  const fetchedAt = deps.now().toISOString();
  const lang = brief.language;
  const brand = deps.retrieve
    ? await mapLimited(queries, WEB_CONCURRENCY, async ({ query }) =>
        (await deps.retrieve!(query, depth.brandPassagesPerQuery)).flatMap((c) => evidenceFromChunk(c, query, lang, fetchedAt, deps.sourceAddress) ?? []),
      )
    : queries.map(() => [] as EvidenceDraft[]);
  deps.progress?.({ queries: queries.length, brand_passages: brand.flat().length });

  let searchErrors = 0;
  let failed = 0;
  // One fetch per address, shared by the queries that found it; failures are remembered as null.
  const fetches = new Map<string, Promise<ExtractedDocument | null>>();
  const fetchOnce = (url: string) => {
    let pending = fetches.get(url);
    if (!pending) {
      pending = deps.fetchDocument(url).catch(() => {
        failed++;
        return null;
      });
      fetches.set(url, pending);
    }
    return pending;
  };
  const readable = new Set<string>();
  /** Per query, result pages in rank order until `pagesPerQuery` read well: unreadable results (errors, PDFs, refused addresses) are passed over. */
  const pagesPerQuery = deps.search
    ? await mapLimited(queries, WEB_CONCURRENCY, async ({ query }) => {
        let results: { url: string }[];
        try {
          results = await deps.search!.search(query, { language: lang, limit: depth.resultsPerQuery });
        } catch {
          searchErrors++;
          return [];
        }
        const docs: ExtractedDocument[] = [];
        for (const { url } of results) {
          if (docs.length >= depth.pagesPerQuery || (readable.size >= depth.maxPages && !readable.has(url))) break;
          const doc = await fetchOnce(url);
          if (!doc) continue;
          readable.add(url);
          docs.push(doc);
        }
        return docs;
      })
    : queries.map(() => [] as ExtractedDocument[]);
  if (deps.search) deps.progress?.({ queries: queries.length, brand_passages: brand.flat().length, pages_fetched: readable.size, pages_failed: failed });

  const pool = new EvidencePool(existing);
  const candidates = queries.map(({ query }, i) => {
    const web = pagesPerQuery[i].flatMap((doc) => passagesFromDocument(doc, query, lang, depth.passagesPerPage, fetchedAt));
    return interleave(brand[i], web);
  });
  // Round-robin over the queries, best passages first: a full pool still has evidence for every section.
  const rounds = Math.max(0, ...candidates.map((c) => c.length));
  for (let r = 0; r < rounds && !pool.full; r++) for (const list of candidates) if (list[r]) pool.add(list[r]);
  const evidence = pool.toArray();
  const added = evidence.slice(existing.length);
  // A knowledge-base source is cited by one address (its page, or the address a pasted text gave, else its `urn:uuid:` identifier), whichever chunk was quoted.
  const brandSources = new Set(added.filter((e) => e.origin === "brand").map((e) => e.url));
  return {
    evidence,
    report: {
      web_search: Boolean(deps.search),
      queries: queries.map((q) => q.query).slice(0, 30),
      brand_passages: added.filter((e) => e.origin === "brand").length,
      web_passages: added.filter((e) => e.origin === "web").length,
      pages_fetched: readable.size,
      pages_failed: failed,
      search_errors: searchErrors,
      sources_read: readable.size + brandSources.size,
      queries_per_section: depth.queriesPerSection,
      sources: [...new Set(added.map((e) => e.url))].slice(0, 30),
      evidence: evidence.length,
    },
  };
}
