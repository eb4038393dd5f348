import { baseLanguage } from "../../../../shared/text/stopwords";
import { CALIBRATION } from "./calibration";
import type { WeightedTerm } from "./weights";

/** Shortest subject term a German compound is matched by ("Datensicherungssystem" ⊃ "datensicher"). */
const COMPOUND_MIN = 5;

/**
 * German writes compounds as one word: "Datensicherungssystem" names the subject term "datensicher" as much as
 * the word itself does. A text's term that contains a subject term of at least five letters states it (German
 * only: in English, French and Spanish a word containing another is usually another word).
 */
export function withCompounds(terms: ReadonlySet<string>, subject: readonly string[], lang: string): ReadonlySet<string> {
  if (baseLanguage(lang) !== "de") return terms;
  const long = subject.filter((c) => c.length >= COMPOUND_MIN && !terms.has(c));
  if (!long.length) return terms;
  const found = long.filter((c) => [...terms].some((t) => t.length > c.length && t.includes(c)));
  return found.length ? new Set([...terms, ...found]) : terms;
}

/**
 * A text's terms with the parts of the request's split compounds it says whole: "Dateiberechtigungen" in a
 * heading states "Datei" and "Berechtigungen" (a part under five letters, "Konto", is not found inside the
 * compound by `withCompounds`).
 */
export function withSplitParts(terms: ReadonlySet<string>, subject: readonly { term: string; compound?: string }[]): ReadonlySet<string> {
  const parts = subject.filter((t) => t.compound && !terms.has(t.term) && terms.has(t.compound));
  return parts.length ? new Set([...terms, ...parts.map((t) => t.term)]) : terms;
}

/** What the model reads of a sentence, each a share (0–1) of the subject's weight. */
export interface RelevanceFeatures {
  /** Stated by the sentence's own words. */
  own: number;
  /** Stated by its passage's heading path or its page's title, whichever states more. */
  context: number;
  /** Stated by the better of the units just before and after it in its passage. */
  neighbour: number;
  /**
   * 1 when its passage stands under headings that state none of the subject (`context` 0 though there are
   * headings), else 0; 0 for text under no heading (a pasted note): a sentence in a section about something else,
   * which names the subject in passing. The manuals' structure cannot weigh it (its negatives all stand under such
   * headings, so it only repeats `context`); readers' labels do (`CALIBRATION.coefficients`).
   */
  elsewhere: number;
}

/** What a term of one of the request's phrases counts for without any of its partners. */
const PHRASE_PART = 0.5;

/** How many of the subject's heaviest terms make a full share. */
const YARDSTICK_TERMS = 2;

/**
 * The share of the subject a set of terms states: the weight of the subject terms it holds over the weight
 * of the two heaviest subject terms the evidence states anywhere (`statable`), at most 1. A long request
 * ("how field-service contractors can cut drive time with smarter scheduling") is not stated whole by any one
 * sentence; one that states its two most discriminating terms states as much of it as a sentence can. A term
 * no evidence states cannot be asked of a sentence: it weighs on the evidence gate (`poolCoverage`) instead.
 */
export function subjectShare(terms: ReadonlySet<string>, subject: readonly WeightedTerm[], statable: readonly WeightedTerm[] = subject): number {
  const pool = statable.length ? statable : subject;
  const yardstick = pool.map((t) => t.weight).sort((a, b) => b - a).slice(0, YARDSTICK_TERMS).reduce((a, b) => a + b, 0);
  if (!yardstick) return 0;
  // What the whole profile says ("Datei", "Debian" in a packaging guide) states nothing of a subject that has words
  // of its own: a text holding only ubiquitous terms of such a subject states none of it. (With a share of 0.10
  // for "Datei", a strip about dput beside one naming the changelog was relevant to "Die Datei debian/changelog
  // richtig pflegen".) A subject that is all ubiquitous is what the whole profile covers, and is stated by its
  // terms, except its background ones (`WeightedTerm.background`), far lighter than its heaviest.
  const distinct = pool.filter((t) => !t.ubiquitous);
  const stating = distinct.length ? distinct : pool.filter((t) => !t.background);
  if (stating.length < pool.length && !stating.some((t) => terms.has(t.term))) return 0;
  const credit = (t: WeightedTerm) => (!terms.has(t.term) ? 0 : t.partners?.length && !t.partners.some((p) => terms.has(p)) ? PHRASE_PART * t.weight : t.weight);
  return Math.min(1, subject.reduce((n, t) => n + credit(t), 0) / yardstick);
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** The logistic model's weights: a bias and one per feature (`CALIBRATION.coefficients`). */
export type RelevanceCoefficients = { bias: number } & Record<keyof RelevanceFeatures, number>;

/** The calibrated logistic model's linear score (log-odds) of a sentence: what orders relevant sentences. */
export function relevanceLogit(f: RelevanceFeatures, coefficients: RelevanceCoefficients = CALIBRATION.coefficients): number {
  const c = coefficients;
  return c.bias + c.own * f.own + c.context * f.context + c.neighbour * f.neighbour + c.elsewhere * f.elsewhere;
}

/** P(relevant) of a sentence from its features, by the calibrated logistic model. */
export function relevanceProbability(f: RelevanceFeatures, coefficients: RelevanceCoefficients = CALIBRATION.coefficients): number {
  return sigmoid(relevanceLogit(f, coefficients));
}

/** Corrective retrieval's grades of a passage (`model-grades.ts`). */
export type RelevanceGrade = "relevant" | "ambiguous" | "irrelevant";
