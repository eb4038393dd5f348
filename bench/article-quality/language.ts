
import { identifyLanguage as identify } from "../../shared/text/language";

export interface LanguageVerdict {
  /** ISO 639-1 of the identified language, or "und" (UNDETERMINED) when the text is too short or unclear to judge. */
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

/**
 * The language of one field, with the platform's identifier (`shared/text/language.ts`, Nito-ELD, chosen by
 * measurement), after stripping what carries no language: "und" when the stripped text is too short to judge
 * (the identifier's own floor: under 20 characters or 4 words) or not reliably one language.
 */
export function identifyLanguage(text: string, literals: string[], requested?: string): LanguageVerdict {
  // The field as written first; only when it is not judged the requested language, again without the customer's literals.
  if (requested) {
    const whole = strippedForLanguage(text, []);
    const lang = identify(whole);
    if (lang === requested) return { lang, judged: whole };
  }
  const judged = strippedForLanguage(text, literals);
  return { lang: identify(judged), judged };
}
