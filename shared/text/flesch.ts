import { sentencesOf, wordsOf } from "./segment";
import { baseLanguage } from "./stopwords";

/**
 * Readability formulas. Each language has its own constants because words and sentences differ in length:
 *
 * - English, Flesch Reading Ease (1948): 206.835 − 1.015·ASL − 84.6·ASW, and the Flesch–Kincaid grade (1975):
 *   0.39·ASL + 11.8·ASW − 15.59 (ASL = words per sentence, ASW = syllables per word).
 * - German, Amstad (1978): 180 − ASL − 58.5·ASW, and the first Wiener Sachtextformel (Bamberger & Vanecek 1984)
 *   for the school grade: 0.1935·MS + 0.1672·ASL + 0.1297·IW − 0.0327·ES − 0.875 (MS: % of words with three or
 *   more syllables, IW: % longer than six letters, ES: % of one syllable).
 * - Other languages have formulas of their own (Fernández Huerta for Spanish, Kandel & Moles for French, …)
 *   not implemented here; they are scored with the English formula and reported as such.
 *
 * Reading ease runs from about 0 (very hard) to 100+ (very easy). Syllables are counted by heuristics, so
 * scores are approximate (within a few points of hand counts on ordinary prose).
 */
export type ReadabilityFormula = "flesch-kincaid-en" | "amstad-wstf-de";

export interface TextStatistics {
  sentences: number;
  words: number;
  syllables: number;
  /** Words of three or more syllables. */
  polysyllables: number;
  monosyllables: number;
  /** Words longer than six letters. */
  longWords: number;
}

export interface ReadingLevel {
  fleschReadingEase: number;
  grade: number;
  formula: ReadabilityFormula;
}

const LETTER = /\p{L}/u;

/**
 * English syllables: vowel groups, after dropping silent endings (-e, -es, -ed where not pronounced), plus one
 * for an i before a, o or u that starts a new syllable (ra-di-o, Aus-tra-li-an, but na-tion, so-cial).
 */
function englishSyllables(word: string): number {
  let w = word.toLowerCase().replace(/[^a-z]/g, "");
  if (!w) return 0;
  if (w.length <= 3) return 1;
  w = w.replace(/(?:[^laeiouy]es|[^laeiouydt]ed|[^laeiouy]e)$/, "").replace(/^y/, "");
  const groups = w.match(/[aeiouy]{1,2}/g)?.length ?? 0;
  const hiatus = w.match(/[^ctsgx]i[aou]/g)?.length ?? 0;
  return Math.max(1, groups + hiatus);
}

/** German syllables: vowel groups (ei, ie, au, eu, äu count once); a run of three vowels is two (Bau-er, freu-en). */
function germanSyllables(word: string): number {
  const groups = word.toLowerCase().match(/[aeiouyäöü]+/g) ?? [];
  return Math.max(1, groups.reduce((n, g) => n + (g.length >= 3 ? 2 : 1), 0));
}

export function countSyllables(word: string, lang = "en"): number {
  return baseLanguage(lang) === "de" ? germanSyllables(word) : englishSyllables(word);
}

/** Words are word-like segments with a letter (numbers are not words here); sentences come from Intl.Segmenter. */
export function textStatistics(text: string, lang = "en"): TextStatistics {
  const stats: TextStatistics = { sentences: 0, words: 0, syllables: 0, polysyllables: 0, monosyllables: 0, longWords: 0 };
  for (const sentence of sentencesOf(text, lang)) {
    const words = wordsOf(sentence, lang).filter((w) => LETTER.test(w));
    if (!words.length) continue;
    stats.sentences++;
    for (const word of words) {
      const syllables = countSyllables(word, lang);
      stats.words++;
      stats.syllables += syllables;
      if (syllables >= 3) stats.polysyllables++;
      if (syllables === 1) stats.monosyllables++;
      if ([...word].length > 6) stats.longWords++;
    }
  }
  return stats;
}

export function readingLevelOf(stats: TextStatistics, lang = "en"): ReadingLevel {
  if (!stats.words || !stats.sentences) return { fleschReadingEase: 0, grade: 0, formula: formulaFor(lang) };
  const asl = stats.words / stats.sentences;
  const asw = stats.syllables / stats.words;
  if (baseLanguage(lang) === "de") {
    const pct = (n: number) => (100 * n) / stats.words;
    return {
      fleschReadingEase: 180 - asl - 58.5 * asw,
      grade: 0.1935 * pct(stats.polysyllables) + 0.1672 * asl + 0.1297 * pct(stats.longWords) - 0.0327 * pct(stats.monosyllables) - 0.875,
      formula: "amstad-wstf-de",
    };
  }
  return { fleschReadingEase: 206.835 - 1.015 * asl - 84.6 * asw, grade: 0.39 * asl + 11.8 * asw - 15.59, formula: "flesch-kincaid-en" };
}

function formulaFor(lang: string): ReadabilityFormula {
  return baseLanguage(lang) === "de" ? "amstad-wstf-de" : "flesch-kincaid-en";
}

export function readingLevel(text: string, lang = "en"): ReadingLevel {
  return readingLevelOf(textStatistics(text, lang), lang);
}

/** Flesch Reading Ease of a text (Amstad's variant for German); 0 for a text without words. */
export function fleschReadingEase(text: string, lang = "en"): number {
  return readingLevel(text, lang).fleschReadingEase;
}
