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

/** The three things the model reads of a sentence, each a share (0–1) of the subject's weight. */
export interface RelevanceFeatures {
  /** Stated by the sentence's own words. */
  own: number;
  /** Stated by its passage's heading path and page title. */
  context: number;
  /** Stated by the best other sentence of its passage. */
  neighbour: number;
}

/** The share of the subject's weight a set of terms states. */
export function subjectShare(terms: ReadonlySet<string>, subject: readonly WeightedTerm[]): number {
  const total = subject.reduce((n, t) => n + t.weight, 0);
  if (!total) return 0;
  return subject.reduce((n, t) => n + (terms.has(t.term) ? t.weight : 0), 0) / total;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** P(relevant) of a sentence from its features, by the calibrated logistic model. */
export function relevanceProbability(f: RelevanceFeatures, coefficients = CALIBRATION.coefficients): number {
  const c = coefficients;
  return sigmoid(c.bias + c.own * f.own + c.context * f.context + c.neighbour * f.neighbour);
}

export type RelevanceGrade = "relevant" | "ambiguous" | "irrelevant";

/** The corrective-retrieval grade of a probability. */
export function gradeOf(p: number): RelevanceGrade {
  return p >= CALIBRATION.relevant ? "relevant" : p >= CALIBRATION.ambiguous ? "ambiguous" : "irrelevant";
}
