import type { z } from "zod";
import type { QualityBreakdown } from "../../../shared/schemas/articles";
import { readingLevel } from "../../../shared/text/flesch";
import { articleMetrics, type ArticleMetrics } from "../../../shared/text/metrics";
import { countWords, sentencesOf } from "../../../shared/text/segment";
import { offlineSupport } from "./citation-check";
import { isInLanguage } from "./language";
import { relevanceModel } from "./relevance";
import { renderSentence } from "./render";
import { sectionWords } from "./section-writer";
import { slugify } from "./seo";
import { nearDuplicate, termSet } from "./similarity";
import type { ArticleBody, ArticleBrief, Evidence, Outline, SeoResult } from "./types";

export type QualityBreakdownScores = z.output<typeof QualityBreakdown>;

/**
 * Weights of the quality score (they sum to 1). Grounding counts most: citation coverage and precision
 * together are 40% of the score, because an article whose claims are not traceable is not publishable.
 */
export const QUALITY_WEIGHTS: Record<keyof QualityBreakdownScores, number> = {
  readability: 0.1,
  structure: 0.1,
  keyword_coverage: 0.1,
  citation_coverage: 0.2,
  citation_precision: 0.2,
  duplication: 0.1,
  length_vs_target: 0.1,
  voice_match: 0.05,
  language_consistency: 0.05,
};

/** Reading ease a general web audience reads comfortably ("plain English", Flesch 1949: 60–70; we accept 50–70). */
const DEFAULT_EASE_BAND: [number, number] = [50, 70];
const EASE_POINTS_PER_UNIT = 2;
const PARAGRAPH_MAX_WORDS = 150;
/** Clichés a voice profile would list: without a profile they still cost voice points. */
const GENERIC_CLICHES = ["cutting-edge", "game-changer", "seamless", "leverage", "world-class", "state-of-the-art", "revolutionize", "unlock the power", "in today's fast-paced world", "synergy"];

const clamp = (n: number) => Math.max(0, Math.min(100, n));
const round1 = (n: number) => Math.round(n * 10) / 10;
const share = (part: number, whole: number) => (whole ? part / whole : 1);
const hasKeyword = (text: string, keyword: string) => text.toLowerCase().includes(keyword.toLowerCase());

/** readability: 100 inside the target band (the brand's own reading ease ± 10, else 50–70), minus 2 per point outside. */
export function readabilityScore(fleschEase: number, voiceEase: number | null): number {
  const [low, high] = voiceEase ? [voiceEase - 10, voiceEase + 10] : DEFAULT_EASE_BAND;
  const distance = fleschEase < low ? low - fleschEase : fleschEase > high ? fleschEase - high : 0;
  return clamp(100 - EASE_POINTS_PER_UNIT * distance);
}

/** structure: introduction, 3–8 headed body sections, a conclusion, sections near their budgets, short paragraphs, an FAQ. */
export function structureScore(body: ArticleBody, outline: Outline, faqCount: number, lang: string): number {
  const bodies = body.sections.filter((s) => s.role === "body");
  const budgets = new Map(outline.sections.map((s) => [s.key, s.budget]));
  const balanced = body.sections.filter((s) => {
    const ratio = sectionWords(s, lang) / (budgets.get(s.key) ?? 1);
    return ratio >= 0.5 && ratio <= 1.5;
  }).length;
  const paragraphs = body.sections.flatMap((s) => s.paragraphs);
  const short = paragraphs.filter((p) => countWords(p.sentences.map((x) => x.text).join(" "), lang) <= PARAGRAPH_MAX_WORDS).length;
  return clamp(
    (body.sections[0]?.role === "intro" ? 15 : 0) +
      (bodies.length >= 3 && bodies.length <= 8 ? 20 : bodies.length ? 10 : 0) +
      (body.sections.some((s) => s.role === "conclusion") ? 15 : 0) +
      25 * share(balanced, body.sections.length) +
      15 * share(short, paragraphs.length) +
      (faqCount >= 3 ? 10 : 0),
  );
}

/** keyword_coverage: title 25, first paragraph 25, a heading 20, meta title 10, meta description 10, slug 10. */
export function keywordCoverageScore(body: ArticleBody, seo: Pick<SeoResult, "title" | "meta_title" | "meta_description" | "slug">, keyword: string): number {
  const firstParagraph = body.sections[0]?.paragraphs[0]?.sentences.map((s) => s.text).join(" ") ?? "";
  const keywordSlug = slugify(keyword);
  return (
    (hasKeyword(seo.title, keyword) ? 25 : 0) +
    (hasKeyword(firstParagraph, keyword) ? 25 : 0) +
    (body.sections.some((s) => hasKeyword(s.heading, keyword)) ? 20 : 0) +
    (hasKeyword(seo.meta_title, keyword) ? 10 : 0) +
    (hasKeyword(seo.meta_description, keyword) ? 10 : 0) +
    (keywordSlug && seo.slug.includes(keywordSlug) ? 10 : 0)
  );
}

/** citation_coverage: share of the body's sentences that cite evidence. */
export function citationCoverageScore(body: ArticleBody): number {
  const sentences = body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
  return clamp(100 * share(sentences.filter((s) => s.cites.length).length, sentences.length));
}

/**
 * citation_precision: share of cited sentences that are precise citations for this article: their evidence
 * supports them (by the offline rule, or by the model's verdict for sentences the editor had the model
 * check, `modelVerified`) AND they are on topic (`relevance.ts`: topic and keyword terms, idf-weighted, the
 * cited passage's heading a third, the passage's best other sentence and the section heading's own terms
 * half; at least 30% of the pool's best sentences). A true sentence
 * about something else is a citation that does not serve the article. 100 with no citations. Without a
 * brief (older callers), relevance is not judged.
 */
export function citationPrecisionScore(
  body: ArticleBody,
  evidence: readonly Evidence[],
  lang: string,
  modelVerified = false,
  brief?: Pick<ArticleBrief, "topic" | "keyword" | "language">,
): number {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const cited = body.sections.flatMap((section) => section.paragraphs.flatMap((p) => p.sentences.map((s) => ({ ...s, heading: section.role === "body" ? section.heading : "" })))).filter((s) => s.cites.length);
  if (!cited.length) return 100;
  const relevance = brief ? relevanceModel(evidence, brief) : undefined;
  const precise = cited.filter((s) => {
    const sources = s.cites.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    if (!sources.length) return false;
    if (relevance && !relevance.onTopic(relevance.sentence(s.text, s.cites, s.heading))) return false;
    return modelVerified || offlineSupport(s.text, sources.map((e) => e.quote), lang).supported;
  }).length;
  return clamp(100 * share(precise, cited.length));
}

/** duplication: 100 minus 3 points per percent of sentences that repeat a sentence of another section. */
export function duplicationScore(body: ArticleBody, lang: string): number {
  const items = body.sections.flatMap((s, i) => s.paragraphs.flatMap((p) => p.sentences.map((x) => ({ section: i, terms: termSet(x.text, lang) }))));
  const repeated = items.filter((a, i) => items.some((b, j) => j < i && b.section !== a.section && nearDuplicate(a.terms, b.terms))).length;
  return clamp(100 * (1 - 3 * share(repeated, items.length || 1)));
}

/** length_vs_target: the body's words against the target: 100 within ±10%, then 2 points per percent further off. */
export function lengthScore(bodyWords: number, targetWords: number): number {
  const offPercent = (Math.abs(bodyWords - targetWords) * 100) / targetWords;
  return clamp(100 - Math.max(0, offPercent - 10) * 2);
}

/**
 * voice_match: with a voice profile, phrases to avoid (40: minus 10 per occurrence), mean sentence length
 * within 4 words of the brand's (30, then 3 points per word off), reading ease within 10 of the brand's
 * (30, then 2 per point). Without one: generic clichés (60) and a mean sentence length of 12–25 words (40).
 */
export function voiceMatchScore(text: string, brief: ArticleBrief, lang: string, ease = readingLevel(text, lang).fleschReadingEase): number {
  const lower = text.toLowerCase();
  const count = (phrase: string) => lower.split(phrase.toLowerCase()).length - 1;
  const sentences = sentencesOf(text, lang);
  const meanLength = sentences.length ? countWords(text, lang) / sentences.length : 0;
  const voice = brief.voice;
  if (!voice) {
    const cliches = GENERIC_CLICHES.reduce((n, c) => n + count(c), 0);
    const lengthOk = meanLength >= 12 && meanLength <= 25 ? 40 : Math.max(0, 40 - 3 * Math.min(Math.abs(meanLength - 12), Math.abs(meanLength - 25)));
    return clamp(Math.max(0, 60 - 15 * cliches) + lengthOk);
  }
  const avoided = Math.max(0, 40 - 10 * voice.avoidPhrases.reduce((n, p) => n + count(p), 0));
  const lengthPart = voice.sentenceMean ? Math.max(0, 30 - 3 * Math.max(0, Math.abs(meanLength - voice.sentenceMean) - 4)) : 30;
  const easePart = voice.readingEase ? Math.max(0, 30 - 2 * Math.max(0, Math.abs(ease - voice.readingEase) - 10)) : 30;
  return clamp(avoided + lengthPart + easePart);
}

/**
 * language_consistency: every field the reader sees (title, meta title and description, headings, FAQ
 * questions and answers, each body paragraph) identified as the requested language (or too short to tell);
 * the share of fields that pass, body paragraphs counted together as half the weight.
 */
export function languageConsistencyScore(body: ArticleBody, seo: Pick<SeoResult, "title" | "meta_title" | "meta_description" | "faq">, lang: string): number {
  const fields = [seo.title, seo.meta_title, seo.meta_description, ...body.sections.map((s) => s.heading).filter(Boolean), ...seo.faq.flatMap((f) => [f.question, f.answer])];
  const paragraphs = body.sections.flatMap((s) => s.paragraphs.map((p) => p.sentences.map((x) => renderSentence(x)).join(" ")));
  const fieldShare = share(fields.filter((f) => isInLanguage(f, lang)).length, fields.length);
  const paragraphShare = share(paragraphs.filter((p) => isInLanguage(p, lang)).length, paragraphs.length);
  return clamp(100 * (0.5 * fieldShare + 0.5 * paragraphShare));
}

export interface ArticleScore extends ArticleMetrics {
  quality_score: number;
  quality_breakdown: QualityBreakdownScores;
  body_words: number;
}

/** score: the metrics of the rendered markdown (the same function the articles service recomputes with) and the quality score. */
export function scoreArticle(input: {
  markdown: string;
  body: ArticleBody;
  outline: Outline;
  seo: SeoResult;
  brief: ArticleBrief;
  evidence: readonly Evidence[];
  modelVerified?: boolean;
}): ArticleScore {
  const { body, brief, seo } = input;
  const lang = brief.language;
  const metrics = articleMetrics(input.markdown, lang);
  const bodyText = body.sections.flatMap((s) => s.paragraphs.map((p) => p.sentences.map((x) => renderSentence(x)).join(" "))).join("\n");
  const bodyWords = countWords(bodyText, lang);
  const ease = readingLevel(bodyText, lang).fleschReadingEase;
  const breakdown: QualityBreakdownScores = {
    readability: round1(readabilityScore(ease, brief.voice?.readingEase ?? null)),
    structure: round1(structureScore(body, input.outline, seo.faq.length, lang)),
    keyword_coverage: keywordCoverageScore(body, seo, brief.keyword),
    citation_coverage: round1(citationCoverageScore(body)),
    citation_precision: round1(citationPrecisionScore(body, input.evidence, lang, input.modelVerified, brief)),
    duplication: round1(duplicationScore(body, lang)),
    length_vs_target: round1(lengthScore(bodyWords, input.outline.target_words)),
    voice_match: round1(voiceMatchScore(bodyText, brief, lang, ease)),
    language_consistency: round1(languageConsistencyScore(body, seo, lang)),
  };
  const quality = (Object.keys(QUALITY_WEIGHTS) as (keyof QualityBreakdownScores)[]).reduce((sum, k) => sum + QUALITY_WEIGHTS[k] * breakdown[k], 0);
  return { ...metrics, quality_score: Math.round(quality), quality_breakdown: breakdown, body_words: bodyWords };
}
