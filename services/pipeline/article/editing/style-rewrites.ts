import { baseLanguage } from "../../../../shared/text/stopwords";
import type { ArticleBrief } from "../types";
import { escapeRegExp } from "../../../../shared/text/regex";

/**
 * Plain replacements for the phrases a voice profile can list to avoid (brand-knowledge's cliché and
 * intensifier lists). Intensifiers are dropped. Verb forms (-s, -ed, -ing) follow the replacement. Phrases
 * that are often meant literally ("at the end of the day", "low-hanging fruit") have no replacement: a
 * rewrite could change what the sentence says.
 */
const PLAIN_WORDS: Record<string, string> = {
  "best-in-class": "strong",
  "cutting-edge": "modern",
  "delve into": "look at",
  disruptive: "new",
  "elevate your": "improve your",
  empower: "help",
  "game-changer": "major change",
  "game-changing": "significant",
  "harness the power": "make use",
  holistic: "complete",
  "in today's fast-paced world": "today",
  "in the ever-evolving landscape": "today",
  "industry-leading": "strong",
  leverage: "use",
  "move the needle": "make a difference",
  "next-generation": "new",
  "one-stop shop": "single place",
  "paradigm shift": "major change",
  revolutionary: "new",
  revolutionize: "change",
  "robust solution": "reliable solution",
  seamless: "smooth",
  seamlessly: "smoothly",
  "state-of-the-art": "modern",
  supercharge: "boost",
  synergy: "cooperation",
  "take it to the next level": "improve it",
  "think outside the box": "think differently",
  unleash: "release",
  "unlock the power": "make full use",
  "world-class": "excellent",
  amazing: "notable",
  awesome: "great",
  incredible: "remarkable",
  ultimate: "complete",
};
const DROPPED_INTENSIFIERS = new Set(["absolutely", "extremely", "incredibly", "literally", "really", "super", "totally", "truly", "very"]);

/** Wordy English phrasings and their short forms (Strunk & White's "omit needless words"). */
const TIGHTENINGS: [RegExp, string][] = [
  [/\bin order to\b/gi, "to"],
  [/\bit is important to note that\s+/gi, ""],
  [/\bit should be noted that\s+/gi, ""],
  [/\bdue to the fact that\b/gi, "because"],
  [/\ba number of\b/gi, "several"],
  [/\bat this point in time\b/gi, "now"],
  [/\bin the event that\b/gi, "if"],
  [/\bthe vast majority of\b/gi, "most"],
  [/\bfor the purpose of\b/gi, "for"],
  [/\bwith regard to\b/gi, "about"],
  [/\bhas the ability to\b/gi, "can"],
  [/\b(?:is|are) able to\b/gi, "can"],
];

const CONTRACTIONS: [RegExp, string][] = [
  [/\bcan't\b/gi, "cannot"],
  [/\bwon't\b/gi, "will not"],
  [/\b(\w+)n't\b/gi, "$1 not"],
  [/\b(it|that|there|what|here)'s\b/gi, "$1 is"],
  [/\blet's\b/gi, "let us"],
  [/\b(\w+)'re\b/gi, "$1 are"],
  [/\b(\w+)'ve\b/gi, "$1 have"],
  [/\b(\w+)'ll\b/gi, "$1 will"],
];

/** A phrase, and for a single verb-like word its -s/-ed/-ing forms (leverage, leverages, leveraged, leveraging), the ending in named groups. */
function phrasePattern(key: string): RegExp {
  if (/[\s-]/.test(key)) return new RegExp(`\\b${escapeRegExp(key)}\\b`, "gi");
  if (key.endsWith("e")) return new RegExp(`\\b${escapeRegExp(key.slice(0, -1))}(?:e(?<suffix>s|d)?|(?<ing>ing))\\b`, "gi");
  return new RegExp(`\\b${escapeRegExp(key)}(?:(?<suffix>s|ed)|(?<ing>ing))?\\b`, "gi");
}

/** The replacement with the original's verb ending: leverages → uses, leveraging → using, empowered → helped. */
function inflect(base: string, ending: string): string {
  if (!ending) return base;
  if (ending === "s") return base.endsWith("s") ? base : `${base}s`;
  const stem = base.endsWith("e") ? base.slice(0, -1) : base;
  return ending === "ing" ? `${stem}ing` : `${stem}ed`;
}

function keepInitialCase(original: string, replacement: string): string {
  if (!replacement) return replacement;
  return /^\p{Lu}/u.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}

function tidy(text: string): string {
  const cleaned = text.replace(/\s{2,}/g, " ").replace(/\s+([,.;:!?])/g, "$1").trim();
  return cleaned.charAt(0).toUpperCase() + cleaned.slice(1);
}

export interface StyleEdit {
  text: string;
  phrasesReplaced: number;
  tightened: number;
}

/** Whether the requested tone or the brand's asks for formal prose (no contractions, no exclamations). */
export function wantsFormalTone(brief: ArticleBrief): boolean {
  const tones = [brief.tone ?? "", ...(brief.voice?.tone ?? [])].join(" ").toLowerCase();
  return /\bformal|professional|förmlich|formell|soutenu|formel/.test(tones);
}

/**
 * One sentence edited for voice and concision: the brand's phrases to avoid replaced by plain words (or
 * dropped, for intensifiers), wordy phrasings shortened, and for a formal tone contractions expanded and
 * exclamation marks calmed. English rules only: other languages keep their sentences as written.
 */
export function applyStyleRewrites(sentence: string, brief: ArticleBrief): StyleEdit {
  if (baseLanguage(brief.language) !== "en") return { text: sentence, phrasesReplaced: 0, tightened: 0 };
  let text = sentence;
  let phrasesReplaced = 0;
  let tightened = 0;
  for (const phrase of brief.voice?.avoidPhrases ?? []) {
    const key = phrase.toLowerCase();
    const plain = DROPPED_INTENSIFIERS.has(key) ? "" : PLAIN_WORDS[key];
    if (plain === undefined) continue;
    text = text.replace(phrasePattern(key), (match: string, ...rest: unknown[]) => {
      phrasesReplaced++;
      // With named groups the callback's last argument is the groups object; phrases have none.
      const groups = (typeof rest[rest.length - 1] === "object" ? rest[rest.length - 1] : {}) as { suffix?: string; ing?: string };
      const ending = groups.ing ? "ing" : groups.suffix === "d" ? "ed" : (groups.suffix ?? "");
      return keepInitialCase(match, inflect(plain, ending));
    });
  }
  for (const [pattern, replacement] of TIGHTENINGS) {
    text = text.replace(pattern, (match) => {
      tightened++;
      return keepInitialCase(match, replacement);
    });
  }
  if (wantsFormalTone(brief)) {
    for (const [pattern, replacement] of CONTRACTIONS) text = text.replace(pattern, replacement);
    text = text.replace(/!+/g, ".");
  }
  return { text: text === sentence ? sentence : tidy(text), phrasesReplaced, tightened };
}
