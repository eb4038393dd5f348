import { countWords } from "../../../../shared/text/segment";
import type { ArticleBrief, ArticleSection, Evidence, Outline, PlannedSection } from "../types";
import { type FaqReserve } from "../search/faq";

export interface SectionWriteInput {
  brief: ArticleBrief;
  outline: Outline;
  section: PlannedSection;
  /** Sections the writer must not repeat: those written before it (in order), or the others when one is written again; none when sections are written side by side. */
  earlier: readonly ArticleSection[];
  evidence: readonly Evidence[];
  /** Sentences kept for the FAQ's answers: no writer quotes a unit that holds one (`isReservedForFaq`, `search/faq.ts`). */
  reserved?: FaqReserve;
  /**
   * The passages the outline gave this section (`assignment.ts`), when sections are written side by side: the
   * writer uses these and no others. Absent: the writer picks from the pool itself.
   */
  passages?: readonly Evidence[];
}

export interface WrittenSection {
  section: ArticleSection;
  /** Citation markers that named no evidence given to the writer (dropped; the sentence is then uncited). */
  droppedCitations: number;
}

/**
 * Writes one section of the article from evidence. Every factual sentence cites evidence ids, never an
 * address; the editor later checks each citation against its quote. Two implementations: the model
 * writer (an OpenAI-compatible chat model) and the extractive writer (the offline default).
 */
export interface SectionWriter {
  readonly kind: "model" | "extractive";
  /**
   * "side-by-side": every section is written at once from the evidence the outline assigns it (one round trip
   * for a model). "in-order": each section sees the ones before it (the extractive writer shares out passages
   * as it goes, which costs nothing offline).
   */
  readonly drafting: "side-by-side" | "in-order";
  writeSection(input: SectionWriteInput): Promise<WrittenSection>;
}

export function sectionWords(section: ArticleSection, lang: string): number {
  return section.paragraphs.reduce((n, p) => n + p.sentences.reduce((m, s) => m + countWords(s.text, lang), 0), 0);
}

/** What a later section needs to know of an earlier one: its heading and the first sentence of each paragraph. */
export function summarizeSection(section: ArticleSection, maxWords = 70): string {
  const firsts = section.paragraphs.map((p) => p.sentences[0]?.text ?? "").filter(Boolean);
  const words = firsts.join(" ").split(/\s+/);
  const summary = words.length > maxWords ? `${words.slice(0, maxWords).join(" ")}…` : words.join(" ");
  return `${section.heading || "Introduction"}: ${summary}`;
}
