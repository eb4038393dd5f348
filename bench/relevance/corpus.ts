import fs from "node:fs";
import path from "node:path";
import { chunkDocument } from "../../services/brand-knowledge/knowledge/chunk";
import { withoutSiteChrome } from "../../services/brand-knowledge/knowledge/site-chrome";
import type { Evidence } from "../../services/pipeline/article/types";
import { Bm25Index, termFrequencies } from "../../shared/text/bm25";
import type { ExtractedDocument } from "../../shared/text/document";
import { cleanHeading, extractDocument, extractPlainText } from "../../shared/text/extract";
import type { TermStats } from "../../services/pipeline/article/relevance";
import { DEBIAN_REFERENCE_DIR, pageFiles, type Lang } from "../article-quality/sites";

/**
 * A knowledge base as the relevance bench sees it: its documents cut into chunks the way ingestion cuts them
 * (`chunkDocument`), each chunk an evidence passage with its page title and heading path, a BM25 index over
 * them (retrieval's lexical half) and their document frequencies (what `brand-knowledge.termStats` answers).
 */
export interface Corpus {
  lang: string;
  passages: (Evidence & { doc: string; path: string[] })[];
  index: Bm25Index;
  stats(terms: readonly { term: string }[]): TermStats;
}

export function corpusOf(docs: readonly ExtractedDocument[], lang: string): Corpus {
  // As ingestion reads a website: its chrome (a notice on most pages) out first (`withoutSiteChrome`).
  const passages = withoutSiteChrome(docs).documents.flatMap((doc) =>
    chunkDocument(doc, { sourceId: "bench" }).map((c, i) => ({
      id: `${path.basename(doc.url)}#${i}`,
      url: doc.url,
      title: doc.title,
      heading: c.headingPath.map(cleanHeading).join(" › "),
      quote: c.text,
      fetched_at: "2026-01-01T00:00:00.000Z",
      origin: "brand" as const,
      doc: doc.url,
      path: c.headingPath.map(cleanHeading),
    })),
  );
  const index = new Bm25Index(passages.map((p) => ({ id: p.id, ...termFrequencies(`${p.title}\n${p.heading}\n${p.quote}`, lang) })));
  return {
    lang,
    passages,
    index,
    // Every chunk here is indexed in the corpus's language, so the term is the index's own.
    stats: (terms) => ({
      chunks: index.size,
      df: Object.fromEntries(terms.map(({ term }) => [term, index.documentFrequency(term)])),
      cf: Object.fromEntries(terms.map(({ term }) => [term, index.countsOf(term).reduce((a, b) => a + b, 0)])),
    }),
  };
}

/** An installed HTML page as ingestion extracts it, under an address of the bench's own. */
const installedPage = (dir: string, file: string, url: string) => extractDocument({ url, contentType: "text/html", body: fs.readFileSync(path.join(dir, file), "utf8") });

/** One language's debian-reference manual (Debian's package), one document per page. */
export function debianReference(lang: Lang): ExtractedDocument[] {
  return pageFiles(lang)
    .filter((f) => /^ch\d\d/.test(f))
    .map((f) => installedPage(DEBIAN_REFERENCE_DIR, f, `http://reference.example/${f}`));
}

/** A pasted text as ingestion extracts it, under the title the customer gave the source. */
export function pastedText(url: string, content: string, title?: string): ExtractedDocument {
  return extractPlainText({ url, content, title });
}

/** Where Debian's developers-reference{,-fr,-de} packages put their pages (bench/ensure-debian-reference.sh). */
export const DEVELOPERS_REFERENCE_DIR = process.env.BENCH_DEVELOPERS_REFERENCE_DIR ?? "/usr/share/developers-reference";
export const DEVELOPERS_REFERENCE_LANGUAGES = ["en", "fr", "de"] as const;

/**
 * One language's Developer's Reference (Debian's developers-reference packages), one document per chapter page:
 * a focused book (every page is about Debian packages and their maintainers), where the profile-wide words are
 * most of any request's subject. The single-page edition, the index and the search page are left out.
 */
export function developersReference(lang: (typeof DEVELOPERS_REFERENCE_LANGUAGES)[number]): ExtractedDocument[] {
  const dir = lang === "en" ? DEVELOPERS_REFERENCE_DIR : path.join(DEVELOPERS_REFERENCE_DIR, lang);
  const pages = fs.readdirSync(dir).filter((f) => f.endsWith(".html") && !["index.html", "search.html", "developers-reference.html"].includes(f));
  if (!pages.length) throw new Error(`no pages in ${dir}: run bench/ensure-debian-reference.sh`);
  return pages.sort().map((f) => installedPage(dir, f, `http://developers.example/${lang}/${f}`));
}
