import { unitsOfPool, usableSentenceCount } from "./evidence-sentences";
import { sectionWords, type SectionWriter } from "./section-writer";
import type { ResearchReport } from "./research";
import type { ArticleBody, ArticleBrief, ArticleSection, Evidence, Outline } from "./types";

/**
 * The evidence threshold: an outline of W words needs at least W / 40 distinct usable evidence sentences
 * (and never fewer than 10). An evidence sentence averages about 20 words, so this is evidence for half of
 * the planned words: below it the extractive writer could fill less than half the article, and a model
 * writer would be stretching a few facts over many paragraphs. Either way the job fails rather than write
 * from nothing.
 */
export const WORDS_PER_REQUIRED_SENTENCE = 40;
export const MIN_REQUIRED_SENTENCES = 10;

export function requiredEvidenceSentences(targetWords: number): number {
  return Math.max(MIN_REQUIRED_SENTENCES, Math.ceil(targetWords / WORDS_PER_REQUIRED_SENTENCE));
}

export class NotEnoughEvidenceError extends Error {
  constructor(
    readonly usable: number,
    readonly needed: number,
    targetWords: number,
    hint: string,
  ) {
    super(`Not enough evidence: ${usable} usable sentences for a ${targetWords}-word outline (need ${needed}). ${hint}`.trim());
    this.name = "NotEnoughEvidenceError";
  }
}

/** What to do about thin evidence, from what research found. */
function evidenceHint(brief: ArticleBrief, research: ResearchReport | undefined): string {
  const found = research ? `Research found ${research.brand_passages} knowledge-base and ${research.web_passages} web passages` : "";
  const failures = research && (research.search_errors || research.pages_failed) ? ` (${research.search_errors} failed searches, ${research.pages_failed} unreadable pages)` : "";
  const more = research?.web_search ? "use mode deep_research to read more of the web" : "configure web search (SEARCH_PROVIDER)";
  const advice = brief.brand ? `Add sources on this topic to the brand profile, or ${more}.` : `Ground the article in a brand profile with sources on this topic, or ${more}.`;
  return `${found}${failures}${found ? ". " : ""}${advice}`;
}

export function assertEnoughEvidence(brief: ArticleBrief, outline: Outline, evidence: readonly Evidence[], research?: ResearchReport): { usable: number; needed: number } {
  const usable = usableSentenceCount(unitsOfPool(evidence, brief.language));
  const needed = requiredEvidenceSentences(outline.target_words);
  if (usable < needed) throw new NotEnoughEvidenceError(usable, needed, outline.target_words, evidenceHint(brief, research));
  return { usable, needed };
}

export interface DraftReport {
  writer: SectionWriter["kind"];
  sections: number;
  words: number;
  sentences: number;
  cited_sentences: number;
  dropped_citations: number;
  empty_sections: string[];
}

/** draft: every section in order, each writer call seeing the sections before it; sections the evidence could not fill are left out. */
export async function draftArticle(
  writer: SectionWriter,
  brief: ArticleBrief,
  outline: Outline,
  evidence: readonly Evidence[],
  progress?: (meta: Record<string, unknown>) => void,
): Promise<{ body: ArticleBody; report: DraftReport }> {
  const written: ArticleSection[] = [];
  const empty: string[] = [];
  let dropped = 0;
  let words = 0;
  for (const section of outline.sections) {
    const result = await writer.writeSection({ brief, outline, section, earlier: written, evidence });
    dropped += result.droppedCitations;
    if (result.section.paragraphs.length) written.push(result.section);
    else empty.push(section.key);
    words += sectionWords(result.section, brief.language);
    progress?.({ writer: writer.kind, sections_written: written.length + empty.length, of: outline.sections.length, words });
  }
  const sentences = written.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
  return {
    body: { writer: writer.kind, sections: written },
    report: {
      writer: writer.kind,
      sections: written.length,
      words,
      sentences: sentences.length,
      cited_sentences: sentences.filter((s) => s.cites.length).length,
      dropped_citations: dropped,
      empty_sections: empty,
    },
  };
}
