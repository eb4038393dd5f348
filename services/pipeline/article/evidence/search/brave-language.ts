/**
 * Brave's `search_lang` codes (Brave Web Search API documentation, "Language codes"): mostly ISO 639-1,
 * with a few of its own (jp, zh-hans/zh-hant, pt-br/pt-pt, en-gb, nb). Any other value is refused with 422.
 */
const BRAVE_SEARCH_LANGS = new Set([
  "ar", "eu", "bn", "bg", "ca", "hr", "cs", "da", "nl", "en", "et", "fi", "fr", "gl", "de", "gu", "he", "hi", "hu", "is", "it",
  "kn", "ko", "lv", "lt", "ms", "ml", "mr", "pl", "pa", "ro", "ru", "sr", "sk", "sl", "es", "sv", "ta", "te", "th", "tr", "uk", "vi",
]);

/** The `search_lang` for an article's language tag ("en-GB" → en-gb, "de-AT" → de), or undefined when Brave has none (then it is left out). */
export function braveSearchLang(tag: string): string | undefined {
  const [base = "", ...rest] = tag.toLowerCase().split(/[-_]/);
  if (base === "en") return rest.includes("gb") ? "en-gb" : "en";
  if (base === "ja") return "jp";
  if (base === "zh") return rest.some((p) => p === "hant" || p === "tw" || p === "hk" || p === "mo") ? "zh-hant" : "zh-hans";
  if (base === "pt") return rest.includes("br") ? "pt-br" : "pt-pt";
  if (base === "no" || base === "nb" || base === "nn") return "nb";
  return BRAVE_SEARCH_LANGS.has(base) ? base : undefined;
}
