import fs from "node:fs";
import path from "node:path";
import { countWords } from "./segment";
import { baseLanguage } from "./stopwords";

/**
 * Language identification with Nito-ELD (`eld`, the Efficient Language Detector: n-gram profiles of 60
 * languages, maintained, pure JavaScript, no model download). Chosen over franc and tinyld by measurement
 * (docs/article-pipeline.md#language): on 1,487 sentences of the Debian reference in en/fr/de/es it was
 * right on 1,436 (franc 1,401, tinyld 1,389), and on the 193 English sentences of the test fixtures on all
 * of them (franc called 7 French, German or Dutch). Its smallest data set ("extrasmall") costs about 30 MB of
 * heap, loaded once per process on first use. Texts too short to judge are "und", never a guess.
 *
 * `eld` is an ES module that exports nothing to require(); its entry file is loaded by path, which Node
 * ≥ 20.19 does synchronously (require of ES modules, the project's engines), and jest compiles (jest.config.js).
 */
interface EldResult {
  language: string;
  isReliable(): boolean;
}
type Eld = { detect(text: string): EldResult };

let detector: Eld | undefined;
function eld(): Eld {
  if (!detector) {
    const entry = (require.resolve.paths("eld") ?? [])
      .map((dir) => path.join(dir, "eld", "src", "entries", "static.extrasmall.js"))
      .find((file) => fs.existsSync(file));
    if (!entry) throw new Error("the eld package is not installed");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    detector = (require(entry) as { eld: Eld }).eld;
  }
  return detector;
}

export const UNDETERMINED = "und";

/** Below this many words (or 20 letters) a text is not judged: trigrams of a heading say little. */
export const MIN_JUDGED_WORDS = 4;
const MIN_JUDGED_CHARS = 20;

/** The primary language subtag of a text ("en", "fr", …), or "und" when it is too short or unclear to say. */
export function identifyLanguage(text: string): string {
  const clean = text.replace(/https?:\/\/\S+/g, " ").replace(/[`*_#>[\]()|]/g, " ").trim();
  if (clean.length < MIN_JUDGED_CHARS || countWords(clean) < MIN_JUDGED_WORDS) return UNDETERMINED;
  const result = eld().detect(clean);
  return result.language && result.isReliable() ? result.language : UNDETERMINED;
}

/**
 * Whether a text is written in `requested`: yes when identified as that language or too short to judge,
 * no when identified as another one. `ignore` holds literal strings the customer supplied (the topic,
 * the keyword) that stay as they were typed, whatever their language: they are left out of the judgement.
 */
export function isInLanguage(text: string, requested: string, ignore: readonly string[] = []): boolean {
  const want = baseLanguage(requested);
  const found = identifyLanguage(text);
  if (found === UNDETERMINED || found === want) return true;
  // Only when the whole text fails is it judged again without the customer's literals (a keyword typed in English).
  let judged = text;
  for (const literal of ignore) if (literal.trim()) judged = judged.split(literal).join(" ");
  if (judged === text) return false;
  const without = identifyLanguage(judged);
  return without === UNDETERMINED || without === want;
}

/** Whether a text is judged to be in `requested` (not merely undetermined): evidence must pass this to be quoted. */
export function isClearlyInLanguage(text: string, requested: string): boolean {
  return identifyLanguage(text) === baseLanguage(requested);
}
