import type { ArticleResource } from "../../../../shared/schemas/articles";
import type { JobResource } from "../../../../shared/schemas/jobs";

/**
 * The quality score in words (docs/dashboard.md#the-review-desk): each part of the article's
 * `quality_breakdown` said as what it counts, from the breakdown itself, the sentences of the text
 * as the reading page counts them, and what the article's job recorded when it scored the article
 * (the `score` stage's body words, caps and form problems; the `plan` stage's requested length).
 */

export interface QualityLine {
  part: string;
  label: string;
  score: number;
  /** What the part counts, in words. */
  text: string;
  /** `ok` at or above 95, `warn` from 75, `off` below. */
  tone: "ok" | "warn" | "off";
}

/** What the article's job recorded when it scored it; null when the job is gone (jobs are not kept forever). */
export interface ScoredAt {
  body_words: number | null;
  asked_words: number | null;
  caps: Record<string, number>;
  form_problems: string[];
  /** The body sentences the relevance model judged off topic. */
  off_topic: string[];
}

export function scoredAt(job: JobResource | null): ScoredAt | null {
  if (!job) return null;
  const meta = (key: string) => job.stages.find((s) => s.key === key)?.meta ?? {};
  const score = meta("score");
  const plan = meta("plan");
  const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const clamped = plan.clamped as { requested?: unknown } | undefined;
  return {
    body_words: num(score.body_words),
    asked_words: num(score.requested_words) ?? num(clamped?.requested) ?? num(plan.target_words),
    caps: (score.quality_caps as Record<string, number> | undefined) ?? {},
    form_problems: Array.isArray(score.form_problems) ? score.form_problems.filter((p): p is string => typeof p === "string") : [],
    off_topic: Array.isArray(score.off_topic_sentences) ? score.off_topic_sentences.filter((p): p is string => typeof p === "string") : [],
  };
}

const n = (x: number): string => x.toLocaleString("en-US");
const plural = (count: number, one: string, many = `${one}s`) => `${n(count)} ${count === 1 ? one : many}`;
/** How many of `whole` a share (0–100) leaves out: the count the part's percentage stands for. */
const missing = (share: number, whole: number) => Math.round(whole * (1 - share / 100));

const LABELS: Record<keyof ArticleResource["quality_breakdown"], string> = {
  topical_relevance: "On topic",
  claim_support: "Claims supported",
  language_consistency: "Language",
  form: "Form",
  citation_coverage: "Citations",
  readability: "Readability",
  structure: "Structure",
  keyword_coverage: "Keyword",
  duplication: "Repetition",
  length_vs_target: "Length",
  voice_match: "Voice",
};

export function qualityLines(a: Pick<ArticleResource, "quality_breakdown" | "language" | "flesch_score" | "word_count">, text: { sentences: number; uncited: number; offTopic?: number }, at: ScoredAt | null): QualityLine[] {
  const b = a.quality_breakdown;
  const m = text.sentences;
  const cited = m - text.uncited;
  const says: Record<keyof typeof b, string> = {
    topical_relevance: m ? `${n(missing(b.topical_relevance, m))} of ${plural(m, "sentence")} judged off topic${text.offTopic ? " (marked in the text)" : ""}` : "No sentences to judge",
    claim_support: cited ? `${n(missing(b.claim_support, cited))} of ${plural(cited, "cited sentence")} not stated by the passage they cite` : "No cited sentences",
    language_consistency: b.language_consistency >= 100 ? `Everything in ${a.language}` : `${Math.round(100 - b.language_consistency)}% of the texts not in ${a.language}`,
    form: at?.form_problems.length ? `Problems: ${at.form_problems.join("; ")}` : b.form >= 100 ? "No form problems" : `${Math.round(b.form)}/100`,
    citation_coverage: m ? `${n(text.uncited)} of ${plural(m, "sentence")} cite no source (marked in the text)` : "No sentences",
    readability: `Reading ease ${a.flesch_score}`,
    structure: `${Math.round(b.structure)}/100: introduction, headed sections, conclusion, paragraph lengths, FAQ`,
    keyword_coverage: `${Math.round(b.keyword_coverage)}/100: title, first paragraph, a heading, meta title and description, slug`,
    duplication: b.duplication >= 100 ? "No sentence repeats another section" : `${Math.round(b.duplication)}/100: some sentences repeat another section`,
    length_vs_target: lengthText(a.word_count, at),
    voice_match: `${Math.round(b.voice_match)}/100 against the brand's voice`,
  };
  return (Object.keys(LABELS) as (keyof typeof b)[]).map((part) => ({
    part,
    label: LABELS[part],
    score: b[part],
    text: says[part] + (at && at.caps[part] !== undefined ? ` — caps the score at ${at.caps[part]}` : ""),
    tone: b[part] >= 95 ? "ok" : b[part] >= 75 ? "warn" : "off",
  }));
}

function lengthText(words: number, at: ScoredAt | null): string {
  const written = at?.body_words ?? words;
  const asked = at?.asked_words;
  if (!asked) return `${plural(written, "word")}`;
  if (written < asked) return `${plural(asked - written, "word")} short of ${n(asked)} asked`;
  return `${plural(written, "word")} for ${n(asked)} asked`;
}
