/**
 * The languages the platform writes articles in (primary subtags): the article pipeline has a typed profile
 * for each (services/pipeline/article/language/), and the API refuses a request in any other with a 400.
 */
export const SUPPORTED_LANGUAGES = ["en", "fr", "de", "es"] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/** The primary subtag of a language tag is one the platform writes ("en-GB" → en). */
export function isSupportedLanguageTag(tag: string): boolean {
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(base);
}
