import { baseLanguage } from "./stopwords";

/**
 * A light English suffix stripper, hand-written because no stemmer package is installed and a small one is
 * enough: for retrieval, light stemmers perform on par with Porter's full algorithm (Harman 1991, "How effective
 * is suffixing?"), and both the index and the queries go through the same function, so stems need only be
 * consistent, not dictionary words. It conflates plurals, -ed/-ing, -ly/-ness/-ity and -tion/-sion with their
 * base ("integrations", "integrated", "integrate" → "integrat"; "pricing", "prices" → "pric").
 */

const VOWEL = /[aeiouy]/;

function strip(word: string, suffix: string, minStem: number, replacement = ""): string | null {
  if (!word.endsWith(suffix)) return null;
  const stem = word.slice(0, word.length - suffix.length);
  return stem.length >= minStem && VOWEL.test(stem) ? stem + replacement : null;
}

function undouble(stem: string): string {
  const last = stem[stem.length - 1];
  return stem.length > 3 && last === stem[stem.length - 2] && !"aeiouylsz".includes(last) ? stem.slice(0, -1) : stem;
}

export function stemEnglish(word: string): string {
  if (word.length <= 3 || /[^a-z]/.test(word)) return word;
  let w = word;

  // Plurals and third person: companies → company, classes → class, plans → plan (not status, analysis, business).
  w = strip(w, "ies", 2, "y") ?? strip(w, "sses", 2, "ss") ?? (/[^sui]s$/.test(w) ? w.slice(0, -1) : w);
  // Past and progressive: applied → apply, planned → plan, billing → bill.
  const verbal = strip(w, "ied", 2, "y") ?? strip(w, "ing", 3) ?? strip(w, "ed", 3);
  if (verbal !== null) w = verbal.endsWith("y") && w.endsWith("ied") ? verbal : undouble(verbal);
  // One derivational suffix: securely → secure, security → secur, integration → integrat, readiness → readi.
  w = strip(w, "ness", 4) ?? strip(w, "ity", 4) ?? strip(w, "ly", 4) ?? (/[ts]ion$/.test(w) ? strip(w, "ion", 4) : null) ?? w;
  // Final e: price/pricing → pric, integrate/integrated → integrat.
  if (w.length > 3 && w.endsWith("e") && !w.endsWith("ee")) w = w.slice(0, -1);
  return w;
}

/**
 * Snowball's French, German and Spanish stemmers (the `snowball-stemmers` port of the reference algorithms):
 * "paquets" and "paquet", "Pakete" and "Paket", "redes" and "red" are one term. Other languages are not stemmed.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const snowball = require("snowball-stemmers") as { newStemmer(language: string): { stem(word: string): string } };
const SNOWBALL_LANGUAGES: Record<string, string> = { fr: "french", de: "german", es: "spanish" };
const stemmers = new Map<string, (word: string) => string>();

export function stemmerFor(lang: string): (word: string) => string {
  const base = baseLanguage(lang);
  let stem = stemmers.get(base);
  if (!stem) {
    if (base === "en") stem = stemEnglish;
    else if (SNOWBALL_LANGUAGES[base]) {
      const stemmer = snowball.newStemmer(SNOWBALL_LANGUAGES[base]);
      // Numbers and mixed tokens ("ipv6") stay as written.
      stem = (word) => (/^\p{L}+$/u.test(word) ? stemmer.stem(word) : word);
    } else stem = (word) => word;
    stemmers.set(base, stem);
  }
  return stem;
}
