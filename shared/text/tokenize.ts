import { wordsOf } from "./segment";
import { stemmerFor } from "./stem";
import { isStopword } from "./stopwords";

/** Lower case, compatibility forms folded (full-width digits, ligatures), typographic apostrophes straightened, possessive dropped. */
export function normalizeWord(word: string): string {
  const w = word.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
  return w.endsWith("'s") ? w.slice(0, -2) : w;
}

/**
 * Index terms of a text: Unicode word segmentation (Intl.Segmenter), normalised words without stopwords or
 * single letters, stemmed (English by `stem.ts`, French, German and Spanish by Snowball). French elisions
 * ("l'épinglage", "d'APT") lose their article. Numbers stay terms: prices, years and plan sizes are what
 * people search for.
 */
export function tokenize(text: string, lang = "en"): string[] {
  const stem = stemmerFor(lang);
  const out: string[] = [];
  for (const raw of wordsOf(text, lang)) {
    // Plural acronyms ("APIs", "SDKs") would otherwise keep their s: the stemmer leaves "-is" endings alone.
    let word = normalizeWord(/^\p{Lu}{2,}s$/u.test(raw) ? raw.slice(0, -1) : raw);
    word = word.replace(/^(?:l|d|qu|n|s|c|j|m|t|lorsqu|jusqu|puisqu)'(?=\p{L})/u, "");
    if (!word || isStopword(word, lang)) continue;
    if (word.length === 1 && !(word >= "0" && word <= "9")) continue;
    out.push(stem(word));
  }
  return out;
}
