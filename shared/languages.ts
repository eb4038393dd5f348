/**
 * The languages the platform writes articles in (primary subtags): the article pipeline has a typed profile
 * for each (services/pipeline/article/language/), and the API refuses a request in any other with a 400.
 */
export const SUPPORTED_LANGUAGES = ["en", "fr", "de", "es"] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

/** The supported language a tag's primary subtag names ("en-GB" → en), or null for one the platform does not write. */
export function supportedLanguageOf(tag: string): SupportedLanguage | null {
  const base = tag.toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(base) ? (base as SupportedLanguage) : null;
}

export const isSupportedLanguageTag = (tag: string): boolean => supportedLanguageOf(tag) !== null;
