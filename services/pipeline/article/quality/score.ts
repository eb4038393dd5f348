import type { z } from "zod";
import type { QualityBreakdown } from "../../../../shared/schemas/articles";
import { readingLevel } from "../../../../shared/text/flesch";
import { articleMetrics, type ArticleMetrics } from "../../../../shared/text/metrics";
import { hasSourceNumbering } from "../../../../shared/text/extract";
import { countWords, sentencesOf } from "../../../../shared/text/segment";
import { isInLanguage } from "../../../../shared/text/language";
import { offlineSupport } from "../editing/citation-check";
import { isBoilerplate, looksLikeCode } from "../evidence/units";
import { isWellFormedQuestion } from "../search/faq";
import { clampTargetWords } from "../brief/outline";
import { hasDoubledWord } from "../language/phrases";
import { relevanceModel, spansWholeProfile } from "../relevance";
import { sectionWords } from "../writers/section-writer";
import { plannedKey } from "../writers/section-grouping";
import { headingKey } from "../writers/section-names";
import { containsKeyword, META_DESCRIPTION_MAX, META_TITLE_MAX, namesKeyword, slugify } from "../search/seo";
import { nearDuplicate, termSet } from "../evidence/similarity";
import { type ArticleBody, type ArticleBrief, type Evidence, type Outline, sentencesIn, type SeoResult } from "../types";

export type QualityBreakdownScores = z.output<typeof QualityBreakdown>;

/**
 * Weights of the quality score (they sum to 1). What decides whether an article is worth anything weighs
 * most: whether it is about its topic, whether its sources say what it claims, whether it is in the requested
 * language and well formed (60% together). Readability and the rest only rank articles that pass those.
 */
export const QUALITY_WEIGHTS: Record<keyof QualityBreakdownScores, number> = {
  topical_relevance: 0.2,
  claim_support: 0.2,
  language_consistency: 0.1,
  form: 0.1,
  citation_coverage: 0.1,
  readability: 0.05,
  structure: 0.05,
  keyword_coverage: 0.05,
  duplication: 0.05,
  length_vs_target: 0.05,
  voice_match: 0.05,
};

/** A share at or above this is "passing" (topic, support, language): below it the score is capped. */
export const PASSING_SHARE = 0.95;

/**
 * The cap a failing share puts on the whole score, whatever the other parts say: 150 × share, at most 70.
 * A third of the sentences on topic (or in the requested language, or supported) caps the score at 50;
 * nothing of it, at 0; anything below 95% at 70, under every passing article: an article with a fifth of its
 * sentences off topic cannot score above 70.
 */
export const SHARE_CAP_MAX = 70;
export function shareCap(share: number): number {
  return share >= PASSING_SHARE ? 100 : Math.min(SHARE_CAP_MAX, 150 * share);
}

/**
 * The cap on an article whose on-topic share no one could judge: a request that is what its whole profile is
 * about (`spansWholeProfile`), judged by the lexical model alone (no model graded the strips). Every passage states
 * such a subject, so `topical_relevance` reads 100 whatever the article holds: «Cómo crear un paquete Debian desde
 * cero» scored 97 with readers finding 28 of its 52 sentences on topic (package-name statistics, "Dinamismo social en
 * Debian"). It is delivered (refusing such requests refused good ones: docs/relevance.md, `whole`), scored as a
 * failing share is, at most `SHARE_CAP_MAX`, and `quality_caps` says why.
 */
export function unjudgedTopicCap(brief: Pick<ArticleBrief, "subject" | "strip_grades">): number {
  return spansWholeProfile(brief.subject) && !brief.strip_grades ? SHARE_CAP_MAX : 100;
}

/** The cap form problems put on the score: 75 for one, 5 less for each further one, never under 40. */
export function formCap(problems: number): number {
  return problems === 0 ? 100 : Math.max(40, 75 - 5 * (problems - 1));
}

/** A body at or above this share of the requested length is "long enough": below it the score is capped. */
export const LENGTH_PASSING_SHARE = 0.75;

/**
 * The cap a short body puts on the score: at 75% of the requested length or more, none; below, the share of
 * the length delivered, in points (100 × words / target): a 28% article scores at most 28, a 60% one 60.
 * `length_vs_target` (weight 0.05) alone let a 13% article lose 5 points and still score 93; a reader who asked
 * for 1000 words and got 134 did not get 93% of an article. Below 75% the cap is under every passing article.
 */
export function lengthCap(bodyWords: number, targetWords: number): number {
  const ratio = targetWords > 0 ? bodyWords / targetWords : 1;
  return ratio >= LENGTH_PASSING_SHARE ? 100 : Math.max(0, 100 * ratio);
}

/** Reading ease a general web audience reads comfortably ("plain English", Flesch 1949: 60–70; we accept 50–70). */
const DEFAULT_EASE_BAND: [number, number] = [50, 70];
const EASE_POINTS_PER_UNIT = 2;
const PARAGRAPH_MAX_WORDS = 150;
/** Clichés a voice profile would list: without a profile they still cost voice points. */
const GENERIC_CLICHES = ["cutting-edge", "game-changer", "seamless", "leverage", "world-class", "state-of-the-art", "revolutionize", "unlock the power", "in today's fast-paced world", "synergy"];

const clamp = (n: number) => Math.max(0, Math.min(100, n));
const round1 = (n: number) => Math.round(n * 10) / 10;
const share = (part: number, whole: number) => (whole ? part / whole : 1);

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
  // A planned section split under its sources' headings ("s3~1", "s3~2": `finishSections`) is judged whole.
  const written = new Map<string, number>();
  for (const s of body.sections) written.set(plannedKey(s.key), (written.get(plannedKey(s.key)) ?? 0) + sectionWords(s, lang));
  const balanced = [...written].filter(([key, words]) => {
    const ratio = words / (budgets.get(key) ?? 1);
    return ratio >= 0.5 && ratio <= 1.5;
  }).length;
  const paragraphs = body.sections.flatMap((s) => s.paragraphs);
  const short = paragraphs.filter((p) => countWords(p.sentences.map((x) => x.text).join(" "), lang) <= PARAGRAPH_MAX_WORDS).length;
  return clamp(
    (body.sections[0]?.role === "intro" ? 15 : 0) +
      (bodies.length >= 3 && bodies.length <= 8 ? 20 : bodies.length ? 10 : 0) +
      (body.sections.some((s) => s.role === "conclusion") ? 15 : 0) +
      25 * share(balanced, written.size) +
      15 * share(short, paragraphs.length) +
      (faqCount >= 3 ? 10 : 0),
  );
}

/** keyword_coverage: title 25, first paragraph 25, a heading 20, meta title 10, meta description 10, slug 10. */
export function keywordCoverageScore(body: ArticleBody, seo: Pick<SeoResult, "title" | "meta_title" | "meta_description" | "slug">, keyword: string, lang = "en"): number {
  const firstParagraph = body.sections[0]?.paragraphs[0]?.sentences.map((s) => s.text).join(" ") ?? "";
  const keywordSlug = slugify(keyword);
  return (
    (containsKeyword(seo.title, keyword) ? 25 : 0) +
    (namesKeyword(firstParagraph, keyword, lang) ? 25 : 0) +
    (body.sections.some((s) => containsKeyword(s.heading, keyword)) ? 20 : 0) +
    (containsKeyword(seo.meta_title, keyword) ? 10 : 0) +
    (containsKeyword(seo.meta_description, keyword) ? 10 : 0) +
    (keywordSlug && seo.slug.includes(keywordSlug) ? 10 : 0)
  );
}

/** citation_coverage: share of the body's sentences that cite evidence. */
export function citationCoverageScore(body: ArticleBody): number {
  const sentences = sentencesIn(body.sections);
  return clamp(100 * share(sentences.filter((s) => s.cites.length).length, sentences.length));
}

/** The body's sentences the relevance model judges off topic (`relevance.isAboutSentence`), in order. */
export function offTopicSentences(body: ArticleBody, evidence: readonly Evidence[], brief: Pick<ArticleBrief, "topic" | "keyword" | "language">): string[] {
  const relevance = relevanceModel(evidence, brief);
  const sentences = body.sections.flatMap((section) => section.paragraphs.flatMap((p) => p.sentences.map((s) => ({ ...s, heading: section.role === "body" ? section.heading : "" }))));
  return sentences.filter((s) => !relevance.isAboutSentence(s.text, s.cites, s.heading)).map((s) => s.text);
}

/** topical_relevance: 100 × the share of the body's sentences the relevance model judges on topic. */
export function topicalShare(body: ArticleBody, evidence: readonly Evidence[], brief: Pick<ArticleBrief, "topic" | "keyword" | "language">): number {
  const total = sentencesIn(body.sections).length;
  return share(total - offTopicSentences(body, evidence, brief).length, total);
}

/**
 * claim_support: the share of cited sentences whose cited passages state them, by the offline rule
 * (`offlineSupport`: 70% of the claim's content terms and every figure in the quotes). A model's verdict never
 * counts here: support is established against the quoted source text.
 */
export function supportShare(body: ArticleBody, evidence: readonly Evidence[], lang: string): number {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const cited = sentencesIn(body.sections).filter((s) => s.cites.length);
  const supported = cited.filter((s) => {
    const quotes = s.cites.flatMap((id) => (byId.has(id) ? [byId.get(id)!.quote] : []));
    return quotes.length > 0 && offlineSupport(s.text, quotes, lang).supported;
  }).length;
  return share(supported, cited.length);
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
 * language_consistency: the share of what the reader sees that is in the requested language (`isInLanguage`,
 * the customer's own topic and keyword left out of the judgement): title, meta title and description,
 * headings, title variants, FAQ questions and answers, and every body sentence. Texts too short to judge pass.
 */
export function languageShare(body: ArticleBody, seo: Pick<SeoResult, "title" | "meta_title" | "meta_description" | "faq" | "title_variants">, brief: Pick<ArticleBrief, "language" | "topic" | "keyword">): number {
  const items = [
    seo.title,
    seo.meta_title,
    seo.meta_description,
    ...seo.title_variants,
    ...body.sections.map((s) => s.heading).filter(Boolean),
    ...seo.faq.flatMap((f) => [f.question, f.answer]),
    ...body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text))),
  ];
  return share(items.filter((t) => isInLanguage(t, brief.language, [brief.topic, brief.keyword])).length, items.length);
}

/**
 * Form problems a reader would notice: a heading with the source's numbering or a doubled word, a heading given
 * twice, an FAQ question that is not one (`isWellFormedQuestion`) or whose answer repeats a body sentence, a meta
 * title over 60 or a meta description over 160 characters or not ending a sentence, and code or boilerplate in
 * the prose.
 */
export function formProblems(body: ArticleBody, seo: Pick<SeoResult, "meta_title" | "meta_description" | "faq">, brief: Pick<ArticleBrief, "language" | "topic" | "keyword">): string[] {
  const problems: string[] = [];
  const headings = new Set<string>();
  for (const s of body.sections) {
    if (!s.heading) continue;
    if (hasSourceNumbering(s.heading)) problems.push(`numbered heading: ${s.heading}`);
    if (hasDoubledWord(s.heading)) problems.push(`doubled word in heading: ${s.heading}`);
    // The same heading by its terms, as the edit stage gives each heading once (`headingKey`): "Compost heaps" again is "Compost heap".
    const key = headingKey(s.heading, brief.language);
    if (key && headings.has(key)) problems.push(`repeated heading: ${s.heading}`);
    headings.add(key);
  }
  const bodySentences = new Set(body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text.trim()))));
  for (const f of seo.faq) {
    if (!isWellFormedQuestion(f.question, brief)) problems.push(`malformed FAQ question: ${f.question}`);
    if (bodySentences.has(f.answer.trim())) problems.push(`FAQ answer repeats the body: ${f.question}`);
  }
  if (seo.meta_title.length > META_TITLE_MAX) problems.push("meta title over 60 characters");
  if (seo.meta_description.length > META_DESCRIPTION_MAX || !/[.!?]["”»)]?$/.test(seo.meta_description.trim()) || /…|\.\.\.$/.test(seo.meta_description)) {
    problems.push("meta description not ending a sentence within 160 characters");
  }
  for (const sentence of bodySentences) if (looksLikeCode(sentence) || isBoilerplate(sentence, brief.language)) problems.push(`code or boilerplate in prose: ${sentence.slice(0, 80)}`);
  return problems;
}

export interface ArticleScore extends ArticleMetrics {
  quality_score: number;
  quality_breakdown: QualityBreakdownScores;
  body_words: number;
  /** What capped the score, when something did (docs/article-pipeline.md#the-quality-score). */
  quality_caps: Record<string, number>;
  form_problems: string[];
  /** The sentences judged off topic (at most 50), so a reader can see which (the dashboard marks them). */
  off_topic_sentences: string[];
}

/**
 * score: the metrics of the rendered markdown (the same function the articles service recomputes with) and the
 * quality score: the weighted parts, capped by the topic, support and language shares and by form problems.
 * Length is judged against the planned target (before thin evidence shortened the plan): a short article says so.
 */
export function scoreArticle(input: {
  markdown: string;
  body: ArticleBody;
  outline: Outline;
  seo: SeoResult;
  brief: ArticleBrief;
  evidence: readonly Evidence[];
}): ArticleScore {
  const { body, brief, seo } = input;
  const lang = brief.language;
  const metrics = articleMetrics(input.markdown, lang);
  const bodyText = body.sections.flatMap((s) => s.paragraphs.map((p) => p.sentences.map((x) => x.text).join(" "))).join("\n");
  const bodyWords = countWords(bodyText, lang);
  const ease = readingLevel(bodyText, lang).fleschReadingEase;
  const offTopic = offTopicSentences(body, input.evidence, brief);
  const sentenceCount = sentencesIn(body.sections).length;
  const topical = share(sentenceCount - offTopic.length, sentenceCount);
  const support = supportShare(body, input.evidence, lang);
  const language = languageShare(body, seo, brief);
  const problems = formProblems(body, seo, brief);
  const targetWords = clampTargetWords(input.outline.requested_words).used;
  const breakdown: QualityBreakdownScores = {
    topical_relevance: round1(100 * topical),
    claim_support: round1(100 * support),
    language_consistency: round1(100 * language),
    form: clamp(100 - 20 * problems.length),
    citation_coverage: round1(citationCoverageScore(body)),
    readability: round1(readabilityScore(ease, brief.voice?.readingEase ?? null)),
    structure: round1(structureScore(body, input.outline, seo.faq.length, lang)),
    keyword_coverage: keywordCoverageScore(body, seo, brief.keyword, lang),
    duplication: round1(duplicationScore(body, lang)),
    length_vs_target: round1(lengthScore(bodyWords, targetWords)),
    voice_match: round1(voiceMatchScore(bodyText, brief, lang, ease)),
  };
  const weighted = (Object.keys(QUALITY_WEIGHTS) as (keyof QualityBreakdownScores)[]).reduce((sum, k) => sum + QUALITY_WEIGHTS[k] * breakdown[k], 0);
  const caps = {
    topical_relevance: Math.min(shareCap(topical), unjudgedTopicCap(brief)),
    claim_support: shareCap(support),
    language_consistency: shareCap(language),
    form: formCap(problems.length),
    // Against what the customer asked (400 asked, 320 written: 80%), not the pipeline's 600-word floor of a plan.
    length_vs_target: lengthCap(bodyWords, input.outline.requested_words),
  };
  const binding = Object.fromEntries(Object.entries(caps).filter(([, cap]) => cap < weighted).map(([k, cap]) => [k, round1(cap)]));
  return {
    ...metrics,
    quality_score: Math.round(Math.min(weighted, ...Object.values(caps))),
    quality_breakdown: breakdown,
    body_words: bodyWords,
    quality_caps: binding,
    form_problems: problems.slice(0, 10),
    off_topic_sentences: offTopic.slice(0, 50),
  };
}
