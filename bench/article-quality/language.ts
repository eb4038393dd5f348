
// franc-min and iso-639-3 are ES modules; Node ≥ 20.19 loads them with require() (require(esm)).
const { franc } = require("franc-min") as typeof import("franc-min", { with: { "resolution-mode": "import" } });
const { iso6393 } = require("iso-639-3") as typeof import("iso-639-3", { with: { "resolution-mode": "import" } });

/** Shortest text (after stripping) franc is asked about; shorter items are "undetermined". */
export const MIN_CHARS = 20;
/**
 * Candidate languages: the bench's four and the neighbours most often mixed up with them. Without a candidate
 * list, franc-min picks among 82 languages and tags short technical sentences as Scots, Latin or Tagalog,
 * which says nothing about whether the text is in the requested language.
 */
export const CANDIDATES = ["eng", "fra", "deu", "spa", "ita", "por", "nld", "cat"];

const toIso6391 = new Map(iso6393.filter((l) => l.iso6391).map((l) => [l.iso6393, l.iso6391!]));

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
  let t = text
    .replace(/`[^`]*`/g, " ")
    .replace(/\[\[\d+\]\]\([^)]*\)/g, " ")
    .replace(/\\\[\d+\\\]/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/\\([\\`*_[\]<>#|])/g, "$1");
  for (const literal of literals.filter((l) => l.trim().length > 0).sort((a, b) => b.length - a.length)) {
    t = t.replace(new RegExp(escapeRegExp(literal.trim()), "giu"), " ");
  }
  return t.replace(/\s+/g, " ").trim();
}

/** The language of one field with franc-min, as ISO 639-1; "und" when the stripped text is under MIN_CHARS. */
export function identifyLanguage(text: string, literals: string[]): LanguageVerdict {
  const judged = strippedForLanguage(text, literals);
  if (judged.length < MIN_CHARS) return { lang: "und", judged };
  const code = franc(judged, { minLength: MIN_CHARS, only: CANDIDATES });
  return { lang: code === "und" ? "und" : (toIso6391.get(code) ?? code), judged };
}
