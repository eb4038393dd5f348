import { unitsOfPool, usableSentenceCount } from "./evidence-sentences";
import { relevanceModel } from "./relevance";
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
  /** Words planned for the whole article. */
  target_words: number;
  /** Planned words the on-topic evidence could not fill (0 when the draft reaches 90% of the target): the article is shorter rather than padded. */
  shortfall_words: number;
  /** Body sections moved forward because their evidence is more on topic (keys in the new order), when any moved. */
  reordered?: string[];
}

/**
 * Body sections, the first (it names the keyword) aside, ordered by how on-topic their cited sentences are
 * (mean relative relevance), so the most topic-relevant material comes first. Stable for equal scores.
 */
export function orderByRelevance(sections: ArticleSection[], brief: ArticleBrief, evidence: readonly Evidence[]): ArticleSection[] {
  const relevance = relevanceModel(evidence, brief);
  const mean = (section: ArticleSection) => {
    const sentences = section.paragraphs.flatMap((p) => p.sentences).filter((s) => s.cites.length);
    return sentences.length ? sentences.reduce((n, s) => n + relevance.relative(relevance.score(s.text)), 0) / sentences.length : 0;
  };
  const bodies = sections.filter((s) => s.role === "body");
  if (bodies.length < 3) return sections;
  const [first, ...rest] = bodies;
  const sorted = [first, ...rest.map((s, i) => ({ s, i, m: mean(s) })).sort((a, b) => b.m - a.m || a.i - b.i).map((x) => x.s)];
  let next = 0;
  return sections.map((s) => (s.role === "body" ? sorted[next++] : s));
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
  const ordered = writer.kind === "extractive" ? orderByRelevance(written, brief, evidence) : written;
  const moved = ordered.some((s, i) => s !== written[i]);
  const sentences = ordered.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
  return {
    body: { writer: writer.kind, sections: ordered },
    report: {
      writer: writer.kind,
      sections: written.length,
      words,
      sentences: sentences.length,
      cited_sentences: sentences.filter((s) => s.cites.length).length,
      dropped_citations: dropped,
      empty_sections: empty,
      target_words: outline.target_words,
      shortfall_words: words >= 0.9 * outline.target_words ? 0 : outline.target_words - words,
      ...(moved ? { reordered: ordered.filter((s) => s.role === "body").map((s) => s.key) } : {}),
    },
  };
}
