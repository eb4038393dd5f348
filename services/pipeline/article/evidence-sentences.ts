import { Bm25Index } from "../../../shared/text/bm25";
import { splitSentences, countWords, wordsOf } from "../../../shared/text/segment";
import { baseLanguage } from "../../../shared/text/stopwords";
import { termSet } from "./similarity";
import type { Evidence } from "./types";

/**
 * A citable unit of evidence: one sentence, or a sentence with the ones after it that lean on it
 * ("It works offline…" needs the sentence naming "it"), so no unit is read without its antecedent.
 */
export interface EvidenceUnit {
  /** `<evidence id>#<first sentence index>`. */
  key: string;
  evidenceId: string;
  /** The heading of the passage in its source: ranking reads it with the text. */
  heading: string;
  /** Position of the first sentence in the quote, for keeping a source's order. */
  position: number;
  sentences: string[];
  text: string;
  words: number;
  terms: ReadonlySet<string>;
}

const MIN_WORDS = 6;
const MAX_WORDS = 60;
/** Words that open a sentence which only makes sense after the previous one. */
const DEPENDENT_OPENERS: Record<string, ReadonlySet<string>> = {
  en: new Set(["it", "its", "this", "that", "these", "those", "they", "their", "them", "he", "she", "his", "her", "such", "both", "there", "then", "thus"]),
  de: new Set(["er", "sie", "es", "dies", "diese", "dieser", "dieses", "ihr", "ihre", "sein", "seine", "dabei", "damit", "dadurch"]),
  fr: new Set(["il", "elle", "ils", "elles", "ce", "cela", "ceci", "ça", "ces", "cette", "leur", "leurs", "son", "sa", "ses", "c'est", "c’est", "c'était", "c’était"]),
  // Spanish drops the subject: an opening object pronoun ("Nos permiten …") points back as well.
  es: new Set(["esto", "esta", "este", "estos", "estas", "ello", "su", "sus", "ellos", "ellas", "nos", "les"]),
};
const TERMINAL = /[.!…]["”’»)]*$/;

/** A sentence that can stand as a claim: a complete statement (not a question, heading or fragment) of a sensible length, prose rather than code or boilerplate. */
export function isUsableSentence(sentence: string, lang: string): boolean {
  const words = countWords(sentence, lang);
  if (words < MIN_WORDS || words > MAX_WORDS) return false;
  if (!TERMINAL.test(sentence)) return false;
  // Table rows flattened by extraction ("Starter | $29 | 5") are data, not prose.
  if (sentence.includes(" | ")) return false;
  if (looksLikeCode(sentence) || isBoilerplate(sentence, lang) || isFragment(sentence)) return false;
  return /^[\p{Lu}\p{N}"“„«¿¡(]/u.test(sentence);
}

/**
 * Not a statement: an exclamation (a call to action, "Merci de nous aider … !"), or a quoted title or path
 * with little around it ("« FAQ de Debian GNU/Linux, chapitre 6 ». ", "« /usr/share/doc/… » du paquet …").
 */
function isFragment(sentence: string): boolean {
  // An exclamation, or a list trailing off ("human, hardware, software, …").
  if (/(!|…|\.\.\.)["”’»)\s]*$/.test(sentence)) return true;
  const quoted = [...sentence.matchAll(/[«“"„]([^»”"]*)[»”"]/g)].reduce((n, m) => n + m[0].length, 0);
  return /^[«“"„]/.test(sentence) && quoted > sentence.length / 2;
}

/**
 * Command lines, log output and configuration that reached the prose (an inline run the extractor could not
 * tell apart): a shell prompt, a log timestamp, two `Key: value` pairs, an address, or a high share of words
 * that are options, paths, assignments or markup.
 */
export function looksLikeCode(sentence: string): boolean {
  if (/(^|\s)[$#>]\s+\S/.test(sentence) || /^\s*(sudo|apt(-get)?|dpkg|#)\s/.test(sentence)) return true;
  if (/\b\d{1,2}:\d{2}:\d{2}\b/.test(sentence) || /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} +\d{2}:/.test(sentence)) return true;
  // Two "Key: value" runs are a flattened definition list or configuration, not a sentence.
  if ((sentence.match(/[\p{L}\d)-]: \S/gu) ?? []).length >= 2) return true;
  if (/https?:\/\/|\bwww\.\S/.test(sentence)) return true;
  const tokens = sentence.split(/\s+/);
  const technical = tokens.filter((t) => /^--?\w|[/\\]\w.*[/\\]|[=<>{}`|~]|\w\(\)|^\w+\.\w{1,4}$|_\w/.test(t)).length;
  return technical >= 3 || technical / tokens.length > 0.2;
}

/** Words that only make sense next to something the quote does not carry: "as follows", "see below", "Let's have a look". */
const BOILERPLATE: Record<string, RegExp> = {
  en: /^(list|table|figure) of\b|\bfollowing (entries|lines|commands?|examples?|tables?|lists?|code|steps|settings|files?)\b|\b(let's|let us|as follows|the following|see (below|above)|shown (below|above)|below is|here is|here are|click|this (chapter|section|page|document|manual|guide|tutorial)|in this (chapter|section|document|manual)|(see|in) section \d)|^see\b/i,
  fr: /\b(voici|ci-dessous|ci-dessus|suivant(e|es|s)?|comme suit|cliquez|ce (chapitre|document|manuel)|cette (section|page)|section \d)|^voir\b/i,
  de: /\b(folgende[nrms]?|wie folgt|siehe|hier (ist|sind)|klicken|dieses (kapitel|dokument|handbuch)|dieser abschnitt|in diesem (kapitel|abschnitt)|abschnitt \d)/i,
  es: /\b(a continuación|siguientes?|como sigue|véase|vea|haga clic|este (capítulo|documento|manual)|esta (sección|página)|sección \d)/i,
};

export function isBoilerplate(sentence: string, lang: string): boolean {
  return (BOILERPLATE[baseLanguage(lang)] ?? BOILERPLATE.en).test(sentence) || BOILERPLATE.en.test(sentence);
}

/** Pronouns that point back wherever they stand ("Teams that plan them a week ahead…"). */
const ANAPHORA: Record<string, ReadonlySet<string>> = {
  en: new Set(["it", "they", "them", "those", "these", "he", "she", "him", "his", "her", "such"]),
  de: new Set(["er", "sie", "ihn", "ihm", "ihnen", "diese", "dieser", "dieses", "solche"]),
  fr: new Set(["il", "elle", "ils", "elles", "eux", "celui", "celle", "ceux", "celles"]),
  es: new Set(["él", "ella", "ellos", "ellas", "estos", "estas", "dicho", "dicha"]),
};

/** A sentence that only makes sense after the one before it: it opens with a pointer word, or uses a pronoun anywhere. */
export function dependsOnPrevious(sentence: string, lang: string): boolean {
  const base = baseLanguage(lang);
  // A sentence in parentheses is an aside to the one before; "do this" points back as a pronoun does.
  if (/^\(.*\)[.!]?$/.test(sentence.trim()) || /\b(do|does|did|doing|done) (this|that)\b/i.test(sentence)) return true;
  const words = wordsOf(sentence, lang).map((w) => w.toLowerCase());
  if (!words.length) return false;
  if ((DEPENDENT_OPENERS[base] ?? DEPENDENT_OPENERS.en).has(words[0])) return true;
  const anaphora = ANAPHORA[base] ?? ANAPHORA.en;
  // "it" and "they" as the first word were handled above; elsewhere German "sie" is also the polite "you", so only the opener counts there.
  return base !== "de" && words.some((w) => anaphora.has(w));
}

/** Units per evidence item, kept across stages (draft, edit, seo read the same pool), oldest dropped first. */
const UNIT_CACHE_SIZE = 1000;
const unitCache = new Map<string, readonly EvidenceUnit[]>();

/** The citable units of one evidence item, in the quote's order. Shared: do not modify. */
export function unitsOfEvidence(evidence: Evidence, lang: string): readonly EvidenceUnit[] {
  const key = `${lang}\u0000${evidence.id}\u0000${evidence.heading ?? ""}\u0000${evidence.quote}`;
  let units = unitCache.get(key);
  if (!units) {
    units = splitIntoUnits(evidence, lang);
    unitCache.set(key, units);
    if (unitCache.size > UNIT_CACHE_SIZE) unitCache.delete(unitCache.keys().next().value!);
  }
  return units;
}

function splitIntoUnits(evidence: Evidence, lang: string): EvidenceUnit[] {
  const sentences = splitSentences(evidence.quote, lang).map((s) => s.text);
  const units: EvidenceUnit[] = [];
  let current: { position: number; sentences: string[] } | null = null;
  const close = () => {
    if (current && current.sentences.every((s) => isUsableSentence(s, lang))) {
      const text = current.sentences.join(" ");
      units.push({
        key: `${evidence.id}#${current.position}`,
        evidenceId: evidence.id,
        heading: evidence.heading ?? "",
        position: current.position,
        sentences: current.sentences,
        text,
        words: countWords(text, lang),
        terms: termSet(`${evidence.heading ?? ""} ${text}`, lang),
      });
    }
    current = null;
  };
  sentences.forEach((sentence, i) => {
    // A dependent sentence joins the unit before it, unless it opens the quote (its antecedent was cut off).
    if (current && dependsOnPrevious(sentence, lang) && current.sentences.length < 3) {
      current.sentences.push(sentence);
      return;
    }
    close();
    if (dependsOnPrevious(sentence, lang)) return;
    current = { position: i, sentences: [sentence] };
  });
  close();
  return units;
}

/** Every unit of a pool, each sentence of the pool once (the same passage found twice is one unit). */
export function unitsOfPool(pool: readonly Evidence[], lang: string): EvidenceUnit[] {
  const seen = new Set<string>();
  const out: EvidenceUnit[] = [];
  for (const evidence of pool) {
    for (const unit of unitsOfEvidence(evidence, lang)) {
      const fingerprint = unit.text.toLowerCase().replace(/\s+/g, " ");
      if (seen.has(fingerprint)) continue;
      seen.add(fingerprint);
      out.push(unit);
    }
  }
  return out;
}

/** The number of distinct usable sentences a pool offers: what the evidence threshold counts. */
export function usableSentenceCount(units: readonly EvidenceUnit[]): number {
  return units.reduce((n, u) => n + u.sentences.length, 0);
}

/** A BM25 index over units, for ranking them against a section's query. */
export function unitIndex(units: readonly EvidenceUnit[], lang: string): Bm25Index {
  return Bm25Index.fromTexts(units.map((u) => ({ id: u.key, text: `${u.heading}\n${u.text}` })), lang);
}
