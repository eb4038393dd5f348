import type { PriceComponent, Quote, QuoteInput } from "../../shared/schemas/billing";

/** Credit prices of an article (rule: credit pricing, a base per mode plus a fixed price per option). */
export const ARTICLE_PRICES = {
  standard: 10,
  deep_research: 25,
  image: 3,
  derivatives: 3,
  nonEnglish: 5,
} as const;

/** English is `en` and its regional forms (`en-GB`, `en_us`, `EN`): the primary subtag decides, case-insensitively. */
export function isEnglish(language: string): boolean {
  return language.split(/[-_]/, 1)[0].toLowerCase() === "en";
}

/** The price of one article and the components it is made of, in the order the spec lists them. */
export function priceArticle(input: QuoteInput): Quote {
  const breakdown: PriceComponent[] = [{ component: `mode:${input.mode}`, credits: ARTICLE_PRICES[input.mode] }];
  if (input.image) breakdown.push({ component: "image", credits: ARTICLE_PRICES.image });
  // Flat: any non-empty selection of derivatives costs the same.
  if (input.derivatives.length > 0) breakdown.push({ component: "derivatives", credits: ARTICLE_PRICES.derivatives });
  if (!isEnglish(input.language)) breakdown.push({ component: "non_english_language", credits: ARTICLE_PRICES.nonEnglish });
  return { credits: breakdown.reduce((sum, c) => sum + c.credits, 0), breakdown };
}
