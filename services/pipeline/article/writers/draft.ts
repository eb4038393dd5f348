import { unitsOfPool, usableSentenceCount } from "../evidence/units";
import { allocateBudgets } from "../brief/outline";
import { CALIBRATION, describeMissingCoverage, relevanceModel } from "../relevance";
import { shareOutEvidence } from "./assignment";
import { nameSectionsByContent } from "./section-names";
import { sectionWords, type SectionWriteInput, type SectionWriter, type WrittenSection } from "./section-writer";
import type { ResearchReport } from "../evidence/research";
import { type ArticleBody, type ArticleBrief, type ArticleSection, type Evidence, type Outline, sentencesIn } from "../types";
import { type FaqReserve } from "../search/faq";

/**
 * The evidence threshold, counted in sentences ABOUT the topic and in the article's language (`relevance/`):
 * an outline of W words is fully backed by W / 40 of them (an evidence sentence averages about 20 words, so
 * that is evidence for half the planned words). Below MIN_TOPIC_SENTENCES, or when the pool does not cover
 * the topic's concepts at all, the job fails before writing, saying what is missing. In between, the article
 * is planned shorter (`fitOutlineToEvidence`) rather than padded: thin evidence makes a short article.
 */
export const WORDS_PER_REQUIRED_SENTENCE = 40;
export const MIN_REQUIRED_SENTENCES = 10;
/** Fit, not chosen: `CALIBRATION.minTopicSentences` (docs/relevance.md). */
export const MIN_TOPIC_SENTENCES = CALIBRATION.minTopicSentences;

/** The evidence gate's two numbers (`CALIBRATION`'s, or a candidate's while the relevance bench fits them). */
export interface EvidenceGate {
  poolFloor: number;
  minTopicSentences: number;
}

/** Whether a pool passes the evidence gate: it states enough of the subject, in enough relevant sentences. */
export function passesEvidenceGate(poolCoverage: number, usable: number, gate: EvidenceGate = CALIBRATION): boolean {
  return poolCoverage >= gate.poolFloor && usable >= gate.minTopicSentences;
}

export function requiredEvidenceSentences(targetWords: number): number {
  return Math.max(MIN_REQUIRED_SENTENCES, Math.ceil(targetWords / WORDS_PER_REQUIRED_SENTENCE));
}

export class NotEnoughEvidenceError extends Error {
  constructor(
    readonly usable: number,
    readonly needed: number,
    message: string,
  ) {
    super(message);
    this.name = "NotEnoughEvidenceError";
  }
}

/** What research found and could do next, for a refusal message. */
function researchHint(brief: ArticleBrief, research: ResearchReport | undefined): string {
  const found = research ? ` Research found ${research.brand_passages} knowledge-base and ${research.web_passages} web passages` : "";
  const failures = research && (research.search_errors || research.pages_failed) ? ` (${research.search_errors} failed searches, ${research.pages_failed} unreadable pages)` : "";
  const web = research?.web_search ? "" : brief.brand ? " Web research (SEARCH_PROVIDER) can also supply sources." : " Ground the article in a brand profile with sources on this topic, or configure web research (SEARCH_PROVIDER).";
  return `${found}${failures}${found ? "." : ""}${web}`;
}

export interface EvidenceCheck {
  /** Distinct usable sentences about the topic, in the article's language. */
  usable: number;
  needed: number;
  pool_coverage: number;
}

export function assertEnoughEvidence(brief: ArticleBrief, outline: Outline, evidence: readonly Evidence[], research?: ResearchReport): EvidenceCheck {
  const relevance = relevanceModel(evidence, brief);
  const usable = usableSentenceCount(relevance.aboutUnits);
  const needed = requiredEvidenceSentences(outline.target_words);
  const poolCoverage = relevance.coverage.poolCoverage;
  if (!passesEvidenceGate(poolCoverage, usable)) {
    const units = unitsOfPool(evidence, brief.language);
    // Words the pool lacks are named when they are why: the pool does not cover the subject, or no sentence is
    // about it and some discriminating word is missing. A pool that states the subject (coverage over the floor
    // is stated in the article's language) but has too few sentences about it is told so.
    const lacksWords = poolCoverage < CALIBRATION.poolFloor || (usable === 0 && relevance.coverage.missing.some((t) => !t.ubiquitous));
    const why = lacksWords
      ? describeMissingCoverage(units, relevance.coverage, brief)
      : `Only ${usable} sentences of ${brief.brand ? "this brand profile's sources" : "the sources research found"} are about “${brief.topic}” in ${brief.language} (at least ${MIN_TOPIC_SENTENCES} are needed for an article); add sources that cover it in more depth.`;
    throw new NotEnoughEvidenceError(usable, needed, `${why}${researchHint(brief, research)}`);
  }
  return { usable, needed, pool_coverage: Math.round(poolCoverage * 100) / 100 };
}

/**
 * The outline cut to what the evidence can back: with fewer sentences about the topic than the target needs,
 * the target becomes usable × 40 words (never under the pipeline's minimum of a short article), and the
 * budgets are shared again. The plan's sections and headings stay.
 */
export function fitOutlineToEvidence(outline: Outline, check: EvidenceCheck): Outline {
  if (check.usable >= check.needed) return outline;
  const target = Math.max(MIN_TOPIC_SENTENCES * WORDS_PER_REQUIRED_SENTENCE, Math.min(outline.target_words, check.usable * WORDS_PER_REQUIRED_SENTENCE));
  const bodies = outline.sections.filter((s) => s.role === "body");
  const budgets = allocateBudgets(target, bodies.length);
  let b = 0;
  return {
    ...outline,
    target_words: target,
    sections: outline.sections.map((s) => ({ ...s, budget: s.role === "intro" ? budgets.intro : s.role === "conclusion" ? budgets.conclusion : budgets.body[b++] })),
  };
}

/**
 * The refusal floor on length: an article whose body, once written and checked, holds fewer words than this
 * is not delivered; the job fails and the credits come back. 200 words is half of the smallest article the API
 * lets a customer ask for (400 words, spec §4): under it what is left is a paragraph or two, which no request
 * asked for. Between 200 words and 75% of the request the article is delivered, and its score says how short
 * it is (`lengthCap`): a 250-word article for 1000 asked scores at most 25.
 */
export const MIN_ARTICLE_WORDS = 200;

export class ArticleTooShortError extends Error {
  constructor(
    readonly words: number,
    message: string,
  ) {
    super(message);
    this.name = "ArticleTooShortError";
  }
}

/** Fails with what is missing when the checked article is shorter than `MIN_ARTICLE_WORDS`. */
export function assertLongEnough(body: ArticleBody, brief: ArticleBrief, requestedWords: number, research?: ResearchReport): number {
  const words = body.sections.reduce((n, s) => n + sectionWords(s, brief.language), 0);
  if (words >= MIN_ARTICLE_WORDS) return words;
  const where = brief.brand ? "this brand profile's sources" : "the sources research found";
  throw new ArticleTooShortError(
    words,
    `Only ${words} words about “${brief.topic}” in ${brief.language} could be written from ${where} (an article needs at least ${MIN_ARTICLE_WORDS}; ${requestedWords} were asked): the rest of what they say is about something else or is not prose that can be quoted (tables, commands, lists); add sources that cover it in more depth.${researchHint(brief, research)}`,
  );
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
  /** Words asked minus words written (0 when the draft reaches what was asked): the article is shorter rather than padded, and says by how much. */
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
    return sentences.length ? sentences.reduce((n, s) => n + relevance.relative(relevance.sentenceStrength(s.text, s.cites)), 0) / sentences.length : 0;
  };
  const bodies = sections.filter((s) => s.role === "body");
  if (bodies.length < 3) return sections;
  const [first, ...rest] = bodies;
  const sorted = [first, ...rest.map((s, i) => ({ s, i, m: mean(s) })).sort((a, b) => b.m - a.m || a.i - b.i).map((x) => x.s)];
  let next = 0;
  return sections.map((s) => (s.role === "body" ? sorted[next++] : s));
}

/**
 * Every section of the outline written: side by side from the evidence the outline assigns each one (a model:
 * one round trip), or in order, each seeing the ones before (the extractive writer). Progress is told as each
 * section comes back.
 */
async function writeSections(
  writer: SectionWriter,
  brief: ArticleBrief,
  outline: Outline,
  evidence: readonly Evidence[],
  reserved: FaqReserve | undefined,
  written: (result: WrittenSection) => void,
): Promise<WrittenSection[]> {
  if (writer.drafting === "side-by-side") {
    const assigned = shareOutEvidence(outline, relevanceModel(evidence, brief), brief, reserved);
    return Promise.all(
      outline.sections.map(async (section) => {
        const passages = assigned.get(section.key) ?? [];
        const result = await writer.writeSection({ brief, outline, section, earlier: [], evidence, reserved, passages });
        written(result);
        return result;
      }),
    );
  }
  const results: WrittenSection[] = [];
  for (const section of outline.sections) {
    const earlier = results.map((r) => r.section).filter((s) => s.paragraphs.length);
    const result = await writer.writeSection({ brief, outline, section, earlier, evidence, reserved });
    written(result);
    results.push(result);
  }
  return results;
}

/**
 * A section written again after edit's re-research, beside the others as they stand: a quoted one is named by what it
 * holds, as the draft's sections are (`nameSectionsByContent`); a model writes to its heading.
 */
export async function writeSectionAgain(writer: SectionWriter, input: SectionWriteInput): Promise<ArticleSection> {
  const { section } = await writer.writeSection(input);
  return writer.kind === "extractive" ? nameSectionsByContent([...input.earlier, section], input.brief, input.evidence).at(-1)! : section;
}

/** draft: every section of the outline; sections the evidence could not fill are left out. */
export async function draftArticle(
  writer: SectionWriter,
  brief: ArticleBrief,
  outline: Outline,
  evidence: readonly Evidence[],
  progress?: (meta: Record<string, unknown>) => void,
  reserved?: FaqReserve,
): Promise<{ body: ArticleBody; report: DraftReport }> {
  let done = 0;
  let words = 0;
  const results = await writeSections(writer, brief, outline, evidence, reserved, (result) => {
    words += sectionWords(result.section, brief.language);
    progress?.({ writer: writer.kind, sections_written: ++done, of: outline.sections.length, words });
  });
  const written = results.map((r) => r.section).filter((s) => s.paragraphs.length);
  const empty = results.filter((r) => !r.section.paragraphs.length).map((r) => r.section.key);
  const dropped = results.reduce((n, r) => n + r.droppedCitations, 0);
  // Quoted sections are ordered by relevance and named by what they hold (a model writes to its headings).
  const ordered = writer.kind === "extractive" ? nameSectionsByContent(orderByRelevance(written, brief, evidence), brief, evidence) : written;
  const moved = ordered.some((s, i) => s.key !== written[i].key);
  const sentences = sentencesIn(ordered);
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
      shortfall_words: Math.max(0, outline.requested_words - words),
      ...(moved ? { reordered: ordered.filter((s) => s.role === "body").map((s) => s.key) } : {}),
    },
  };
}
