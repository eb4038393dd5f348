import { baseLanguage } from "./stopwords";
import { countWords } from "./segment";

/**
 * Language identification with franc (franc-min: trigram profiles of the 82 languages with 8M+ speakers,
 * wooorm's maintained identifier): small (7 MB of memory, 20 ms to load), no native code and no model
 * download, and it says "und" when a text is too short to judge instead of guessing. Measured on the
 * Debian reference in en/fr/de/es (docs/article-pipeline.md#language): as accurate as ELD and tinyld on
 * sentences of ten words and more, and the only one of the three that stays silent on two-word headings
 * rather than answering Portuguese for "Fazit".
 *
 * franc-min and iso-639-3 are ES modules; Node ≥ 20.19 loads them with require() (the project's engines),
 * and jest's transform compiles them (jest.config.js).
 */
type FrancModule = typeof import("franc-min", { with: { "resolution-mode": "import" } });
type IsoModule = typeof import("iso-639-3", { with: { "resolution-mode": "import" } });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { franc } = require("franc-min") as FrancModule;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { iso6393To1 } = require("iso-639-3") as IsoModule;

export const UNDETERMINED = "und";

/** Below this many words (or 20 letters) a text is not judged: trigrams of a heading say little. */
export const MIN_JUDGED_WORDS = 4;
const MIN_JUDGED_CHARS = 20;

/** The primary language subtag of a text ("en", "fr", …), or "und" when it is too short or unclear to say. */
export function identifyLanguage(text: string): string {
  const clean = text.replace(/https?:\/\/\S+/g, " ").replace(/[`*_#>[\]()|]/g, " ").trim();
  if (clean.length < MIN_JUDGED_CHARS || countWords(clean) < MIN_JUDGED_WORDS) return UNDETERMINED;
  const code = franc(clean, { minLength: MIN_JUDGED_CHARS });
  if (code === UNDETERMINED) return UNDETERMINED;
  return (iso6393To1 as Record<string, string>)[code] ?? code;
}

/**
 * Whether a text is written in `requested`: yes when identified as that language or too short to judge,
 * no when identified as another one. `ignore` holds literal strings the customer supplied (the topic,
 * the keyword) that stay as they were typed, whatever their language: they are left out of the judgement.
 */
export function isInLanguage(text: string, requested: string, ignore: readonly string[] = []): boolean {
  let judged = text;
  for (const literal of ignore) if (literal.trim()) judged = judged.split(literal).join(" ");
  const found = identifyLanguage(judged);
  return found === UNDETERMINED || found === baseLanguage(requested);
}

/** Whether a text is judged to be in `requested` (not merely undetermined): evidence must pass this to be quoted. */
export function isClearlyInLanguage(text: string, requested: string): boolean {
  return identifyLanguage(text) === baseLanguage(requested);
}
