import { createHash } from "node:crypto";
import type { RetrievedChunk } from "../../../../shared/schemas/brand";
import { Bm25Index } from "../../../../shared/text/bm25";
import type { ExtractedDocument } from "../../../../shared/text/document";
import { splitSentences } from "../../../../shared/text/segment";
import { leansOn } from "./units";
import type { Evidence } from "../types";

/**
 * Bounds of the evidence pool kept in the job's state: enough for a 3000-word article, small enough for one
 * document (80 × 2,000 characters, about 160 KB at most). A quote holds a whole knowledge-base chunk (300
 * tokens: on the Debian reference in four languages, median 1,227 characters, longest 1,972): at 1,200, 342 of
 * the 565 chunks the article-quality bench retrieved were cut, and the sentences cut off were lost to the
 * article, though retrieval had found their section (docs/article-pipeline.md#stages).
 */
export const MAX_EVIDENCE_ITEMS = 80;
export const MAX_QUOTE_CHARS = 2000;
/** A passage of a web page: a few sentences. */
const PASSAGE_SENTENCES = 4;

export type EvidenceDraft = Omit<Evidence, "id">;

/**
 * The best run of whole sentences of `text` within `maxChars`, ranked by the query's terms: a quote stays
 * verbatim (sentences are never cut), and of a long chunk the part that answers the query is kept, never
 * opening on a sentence that leans on the one it would leave out.
 */
export function boundedQuote(text: string, query: string, lang: string, maxChars = MAX_QUOTE_CHARS): string {
  const trimmed = text.trim();
  if (trimmed.length <= maxChars) return trimmed;
  // Line breaks stay: a heading line must never run into the sentence after it.
  const sentences = splitSentences(trimmed, lang).filter((s) => s.text.length <= maxChars);
  if (!sentences.length) return "";
  const join = (from: number, to: number) => sentences.slice(from, to + 1).map((s, i, all) => s.text + (i === all.length - 1 ? "" : s.endsParagraph ? "\n" : " ")).join("");
  const windows: { start: number; end: number; text: string }[] = [];
  for (let start = 0; start < sentences.length; start++) {
    // A quote never opens on a sentence that leans on the one before ("It …", the result of a step): cut off
    // from it, it would be dropped, or read wrong.
    if (start > 0 && leansOn(sentences[start].text, sentences[start - 1].text, lang)) continue;
    let end = start;
    let length = sentences[start].text.length;
    while (end + 1 < sentences.length && length + 1 + sentences[end + 1].text.length <= maxChars) length += 1 + sentences[++end].text.length;
    windows.push({ start, end, text: join(start, end) });
  }
  const index = Bm25Index.fromTexts(windows.map((w, i) => ({ id: String(i), text: w.text })), lang);
  const best = index.search(query, 1, lang)[0];
  return windows[best ? Number(best.id) : 0].text;
}

/**
 * A retrieved knowledge-base chunk as evidence. Its address is one a reader can open: the page for crawled
 * sources and for pasted text that says where it came from; otherwise the source's identifier
 * (`sourceReference`, `urn:uuid:…`), which the renderer cites by title without a link.
 */
export function evidenceFromChunk(chunk: RetrievedChunk, query: string, lang: string, fetchedAt: string, sourceAddress: (sourceId: string) => string): EvidenceDraft | null {
  const quote = boundedQuote(chunk.text, query, lang);
  if (!quote) return null;
  const url = chunk.url && /^https?:/i.test(chunk.url) ? chunk.url : sourceAddress(chunk.source_id);
  const heading = chunk.heading_path.join(" › ");
  return { url, title: chunk.title, ...(heading ? { heading } : {}), quote, fetched_at: fetchedAt, origin: "brand", chunk_id: chunk.chunk_id, position: chunk.ordinal };
}

/** The passages of a fetched page that answer the query best: runs of a few sentences inside one section, at most `max`. */
export function passagesFromDocument(doc: ExtractedDocument, query: string, lang: string, max: number, fetchedAt: string): EvidenceDraft[] {
  const passages: { heading: string; text: string; position: number }[] = [];
  for (const section of doc.sections) {
    const sentences = splitSentences(section.text, lang);
    const heading = section.headingPath.join(" › ");
    for (let i = 0; i < sentences.length; i += PASSAGE_SENTENCES) {
      const text = boundedQuote(sentences.slice(i, i + PASSAGE_SENTENCES).map((x) => x.text + (x.endsParagraph ? "\n" : " ")).join("").trim(), query, lang);
      if (text) passages.push({ heading, text, position: passages.length });
    }
  }
  if (!passages.length) return [];
  const index = Bm25Index.fromTexts(passages.map((p, i) => ({ id: String(i), text: `${p.heading}\n${p.text}` })), lang);
  return index.search(query, max, lang).map((hit) => {
    const { heading, text, position } = passages[Number(hit.id)];
    return { url: doc.url, title: doc.title, ...(heading ? { heading } : {}), quote: text, fetched_at: fetchedAt, origin: "web" as const, position };
  });
}

const fingerprint = (draft: EvidenceDraft) => createHash("sha256").update(`${draft.url}\u0000${draft.quote}`).digest("hex").slice(0, 16);

/**
 * The evidence pool: items in the order they were found, numbered e1, e2, … as they are added, so ids are
 * stable for a given research run and short enough for a model to copy. The same passage is added once.
 */
export class EvidencePool {
  private readonly items: Evidence[];
  private readonly seen = new Set<string>();

  constructor(
    existing: readonly Evidence[] = [],
    private readonly max = MAX_EVIDENCE_ITEMS,
  ) {
    this.items = [...existing];
    for (const item of existing) this.seen.add(fingerprint(item));
  }

  get size(): number {
    return this.items.length;
  }

  get full(): boolean {
    return this.items.length >= this.max;
  }

  /** Adds the passage unless it is known or the pool is full; returns the item (new or existing), or null. */
  add(draft: EvidenceDraft): Evidence | null {
    const key = fingerprint(draft);
    if (this.seen.has(key)) return this.items.find((e) => fingerprint(e) === key) ?? null;
    if (this.full) return null;
    this.seen.add(key);
    const item: Evidence = { id: `e${this.nextNumber()}`, ...draft };
    this.items.push(item);
    return item;
  }

  private nextNumber(): number {
    return this.items.reduce((n, e) => Math.max(n, Number(e.id.slice(1)) || 0), 0) + 1;
  }

  toArray(): Evidence[] {
    return [...this.items];
  }
}

export function evidenceById(pool: readonly Evidence[]): Map<string, Evidence> {
  return new Map(pool.map((e) => [e.id, e]));
}
