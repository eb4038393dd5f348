import { wordsOf } from "../../../shared/text/segment";
import { baseLanguage } from "../../../shared/text/stopwords";

/**
 * A small language identifier for the checks the pipeline makes on its own output (is the title, a heading,
 * an FAQ answer in the requested language?). It counts the frequent function words of each language it
 * knows: function words make up 40–50% of running text in these languages and differ between them, so a
 * dozen words are enough for a sentence (Grefenstette 1995, "Comparing two language identification schemes").
 * Too few words or no clear winner give "und" (undetermined); letters that only one of the languages uses
 * (ß, ñ, ç, ã …) break ties and decide short texts.
 */
const FUNCTION_WORDS: Record<string, string> = {
  en: `a the and of to is that for with are this be it on as by was or from an at which have has not you your we our they their
can will what how why should more than when also about into these those been were would could its there who all but if do does`,
  de: `der die das und ist nicht ein eine einen einer eines mit auf für von zu den dem des sich auch es im wie was wir sie sind
werden wird bei oder aber nach noch nur über vom zum zur kann können dass durch mehr hat haben ihr ihre unsere sollten man wenn ich`,
  fr: `le la les des est et un une du pour que qui dans sur pas avec par au aux ce cette ces sont plus ou nous vous leur leurs
son sa ses être été mais comme il elle ils se ne très aussi tout peut votre vos notre nos quand sans entre`,
  es: `el la los las del y una por para que con no se su sus al lo como más pero este esta estos está son también muy puede
cuando desde entre sobre hay qué cómo nuestro nuestra sin usted ser fue`,
  it: `il lo la gli le di che è e un una per con non del della dei delle nel nella sono come più anche ma questo questa al alla si
da dal molto essere ha hanno può quando tra`,
  pt: `o os a as do da dos das e é um uma em no na nos nas para com não que por se mais como mas ao seu sua são também muito pelo
pela você isso este esta está pode quando`,
  nl: `de het een en van is dat die in op te met voor zijn niet er aan ook als bij door om maar naar dan wordt worden kan ze we wij
uw hun deze dit nog meer onze hoe wat wanneer`,
};

const WORD_SETS: Record<string, ReadonlySet<string>> = Object.fromEntries(
  Object.entries(FUNCTION_WORDS).map(([lang, list]) => [lang, new Set(list.split(/\s+/).filter(Boolean))]),
);

/** The languages the identifier knows; others are reported as undetermined. */
export const IDENTIFIABLE_LANGUAGES = Object.keys(FUNCTION_WORDS);

const DISTINCT_LETTERS: [RegExp, string][] = [
  [/[ßäöü]/i, "de"],
  [/[ñ¿¡]/i, "es"],
  [/[çœ]|[èêëîûù]/i, "fr"],
  [/[ãõ]/i, "pt"],
  [/[ìò]/i, "it"],
  [/[ĳ]/i, "nl"],
];

export const UNDETERMINED = "und";

export interface LanguageGuess {
  /** A primary language subtag ("en"), or "und". */
  lang: string;
  /** Function words of the winner per word of the text, 0–1. */
  confidence: number;
}

function letterCue(text: string): string | undefined {
  return DISTINCT_LETTERS.find(([pattern]) => pattern.test(text))?.[1];
}

export function identifyLanguage(text: string): LanguageGuess {
  const words = wordsOf(text, "en").map((w) => w.toLowerCase());
  const hits = IDENTIFIABLE_LANGUAGES.map((lang) => ({ lang, n: words.filter((w) => WORD_SETS[lang].has(w)).length }));
  hits.sort((a, b) => b.n - a.n);
  const [best, second] = hits;
  const cue = letterCue(text);
  if (best.n >= 2 && best.n > second.n) return { lang: best.lang, confidence: best.n / words.length };
  if (best.n >= 1 && cue && hits.some((h) => h.lang === cue && h.n === best.n)) return { lang: cue, confidence: best.n / words.length };
  if (best.n >= 2 && best.n === second.n) return { lang: UNDETERMINED, confidence: 0 };
  if (cue) return { lang: cue, confidence: 0 };
  if (best.n === 1 && second.n === 0 && words.length <= 8) return { lang: best.lang, confidence: 1 / words.length };
  return { lang: UNDETERMINED, confidence: 0 };
}

/**
 * Whether a field is written in `requested`: yes when it is identified as that language or cannot be
 * identified (a short title without function words); no when it is identified as another language.
 * A requested language the identifier does not know accepts anything that is not clearly English, the
 * usual leak (English templates, English model answers).
 */
export function isInLanguage(text: string, requested: string): boolean {
  const want = baseLanguage(requested);
  const got = identifyLanguage(text).lang;
  if (got === UNDETERMINED) return true;
  if (!IDENTIFIABLE_LANGUAGES.includes(want)) return got !== "en";
  return got === want;
}

/** Whether a word is a function word of the language (used to decide the case after an added connective). */
export function isFunctionWord(word: string, lang: string): boolean {
  return WORD_SETS[baseLanguage(lang)]?.has(word.toLowerCase()) ?? false;
}
