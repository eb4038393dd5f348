
import { wordsOf } from "../../shared/text/segment";

type FrancModule = typeof import("franc-min", { with: { "resolution-mode": "import" } });
type IsoModule = typeof import("iso-639-3", { with: { "resolution-mode": "import" } });

/**
 * franc-min and iso-639-3 are ES modules; Node ≥ 20.19 loads them with require() (require(esm)). Loaded on first
 * use, so the other checks can be imported where require(esm) is not available (Jest's module loader).
 */
let loaded: { franc: FrancModule["franc"]; toIso6391: Map<string, string> } | undefined;
function identifier() {
  if (!loaded) {
    const { franc } = require("franc-min") as FrancModule;
    const { iso6393 } = require("iso-639-3") as IsoModule;
    loaded = { franc, toIso6391: new Map(iso6393.filter((l) => l.iso6391).map((l) => [l.iso6393, l.iso6391!])) };
  }
  return loaded;
}

/** Shortest text (after stripping) franc is asked about; shorter items are "undetermined". */
export const MIN_CHARS = 20;
/** Below this length a verdict also needs a function word of the language (see FUNCTION_WORDS). */
export const SHORT_CHARS = 40;
/**
 * Candidate languages: the bench's four, the languages of its evidence. Without a candidate list franc-min picks
 * among 82 languages and tags short technical sentences as Scots, Portuguese or Dutch.
 */
export const CANDIDATES = ["eng", "fra", "deu", "spa"];

/**
 * The most frequent function words of each language, none shared between two lists. Trigram models misjudge
 * short technical sentences (command names, paths); function words do not. A verdict stands unless another
 * language's function words outnumber those of franc's choice. Calibrated on the manual's own pages (sentences of
 * ch02, ch05, ch09): English sentences judged English 0.89–1.0 with this rule against 0.85–0.98 with franc
 * alone, while English sentences accepted as French, German or Spanish fell to ≤ 0.07.
 */
const FUNCTION_WORDS: Record<string, Set<string>> = Object.fromEntries(
  Object.entries({
    en: "the and of to is are for with that this it be by on you not as or from can which when if your has have into than these those its what does do how there their they would should about been were",
    fr: "le les des du une et est sont pour avec dans qui sur pas par ce cette ces il vous ne au aux ou être peut leur mais comme très elle nous ont fait",
    de: "der die das und ist sind dem des ein eine einen mit für auf nicht sich von zu im auch wird werden kann oder wenn sie bei dass aus nach wie wir diese seine ihre einem einer keine nur noch über durch ohne zum zur vom",
    es: "el los las del una son para con por lo al como más su sus pero este esta puede cuando está también muy hay sobre desde",
  }).map(([lang, words]) => [lang, new Set(words.split(" "))]),
);

function functionWords(text: string, lang: string): number {
  return wordsOf(text, lang).filter((w) => FUNCTION_WORDS[lang].has(w.toLowerCase())).length;
}


export interface LanguageVerdict {
  /** ISO 639-1 of the identified language, or "und" when the text is too short to judge. */
  lang: string;
  /** The text that was judged. */
  judged: string;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Prepares a field for identification: the customer's own words (topic, keyword) go, and so do what carries no
 * language: addresses, inline code, citation marks, markdown escapes.
 */
export function strippedForLanguage(text: string, literals: string[]): string {
  let t = text;
  for (const literal of literals.filter((l) => l.trim().length > 0).sort((a, b) => b.length - a.length)) {
    t = t.replace(new RegExp(escapeRegExp(literal.trim()), "giu"), " ");
  }
  t = t
    .replace(/`[^`]*`/g, " ")
    .replace(/\[\[\d+\]\]\([^)]*\)/g, " ")
    .replace(/\\\[\d+\\\]/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\\([\\`*_[\]<>#|])/g, "$1")
    // Paths, options, versions, man references and quotes carry no language and mislead trigram models.
    .replace(/\S*[/_=@\\<>{}|$~]\S*/g, " ")
    .replace(/\S*\d\S*/g, " ")
    .replace(/(^|\s)-{1,2}[\w-]+/g, " ")
    .replace(/\S+\.\S+/g, " ")
    .replace(/["“”„«»‘’()[\],;:]/g, " ");
  return t.replace(/\s+/g, " ").trim();
}

/** The language of one field with franc-min, as ISO 639-1; "und" when the stripped text is under MIN_CHARS. */
export function identifyLanguage(text: string, literals: string[]): LanguageVerdict {
  const judged = strippedForLanguage(text, literals);
  if (judged.length < MIN_CHARS) return { lang: "und", judged };
  const { franc, toIso6391 } = identifier();
  const code = franc(judged, { minLength: MIN_CHARS, only: CANDIDATES });
  if (code === "und") return { lang: "und", judged };
  let lang = toIso6391.get(code) ?? code;
  let count = functionWords(judged, lang);
  for (const other of Object.keys(FUNCTION_WORDS)) {
    const n = functionWords(judged, other);
    if (n > count) [lang, count] = [other, n];
  }
  // A short text without one function word of the language franc chose is a guess: franc-min needs more text.
  if (count === 0 && judged.length < SHORT_CHARS) return { lang: "und", judged };
  return { lang, judged };
}
