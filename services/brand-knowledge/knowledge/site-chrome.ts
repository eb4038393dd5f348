import type { ExtractedDocument } from "../../../shared/text/document";
import { assemble } from "../../../shared/text/extract";
import { countWords } from "../../../shared/text/segment";

/** Fewer pages than this cannot tell a site's chrome from what two pages happen to share. */
const MIN_PAGES = 3;
/** Share of a site's pages a paragraph must be on to be the site's chrome rather than its content. */
const CHROME_SHARE = 0.5;

/**
 * Fewer words than this make a label, not a notice: "Note", "Tip", a table's header row repeat on most pages of a
 * manual and carry the structure of what follows them.
 */
const MIN_WORDS = 5;

const normal = (paragraph: string) => paragraph.replace(/\s+/g, " ").trim().toLowerCase();
const noticesOf = (doc: ExtractedDocument) => doc.sections.flatMap((s) => s.text.split("\n")).filter((p) => countWords(p, doc.lang) >= MIN_WORDS);

/**
 * A crawled site's chrome, taken out of its pages' text: a paragraph of a sentence's length found on at least half
 * of the site's pages (and on three at least) is the site speaking about itself, not about any page's subject. Readability drops a
 * page's navigation and footer, but not a notice the site puts in every page's content: the New Maintainers'
 * Guide opens 10 of its 12 French pages with « La réécriture de ce tutoriel … est disponible sur Guide du
 * responsable Debian. Veuillez utiliser ce nouveau tutoriel comme document principal. », which articles quoted as
 * if it were about their subject. Written here (twenty lines) because it needs every page of the crawl at once,
 * which no per-page extractor sees; it is the cross-page repetition test of boilerplate detection.
 */
export function withoutSiteChrome(documents: readonly ExtractedDocument[]): { documents: ExtractedDocument[]; removed: number } {
  if (documents.length < MIN_PAGES) return { documents: [...documents], removed: 0 };
  const pagesWith = new Map<string, number>();
  for (const doc of documents) for (const p of new Set(noticesOf(doc).map(normal))) pagesWith.set(p, (pagesWith.get(p) ?? 0) + 1);
  const floor = Math.max(MIN_PAGES, Math.ceil(CHROME_SHARE * documents.length));
  const chrome = new Set([...pagesWith].filter(([, pages]) => pages >= floor).map(([p]) => p));
  if (!chrome.size) return { documents: [...documents], removed: 0 };
  let removed = 0;
  const cleaned = documents.map((doc) => {
    const sections = doc.sections.flatMap((section) => {
      const lines = section.text.split("\n");
      const kept = lines.filter((line) => !chrome.has(normal(line)));
      removed += lines.length - kept.length;
      if (kept.length === lines.length) return [section];
      const text = kept.join("\n");
      return text.trim() || section.code?.length ? [{ ...section, text }] : [];
    });
    return assemble(doc.url, doc.title, doc.lang, sections);
  });
  return { documents: cleaned, removed };
}
