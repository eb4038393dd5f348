/**
 * Sentence and word boundaries from Intl.Segmenter (Unicode UAX #29 with ICU's locale data, built into Node),
 * which handles decimals, abbreviations such as "e.g." and non-Latin scripts better than punctuation rules.
 */
import { baseLanguage, isStopword } from "./stopwords";

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(lang: string, granularity: "sentence" | "word"): Intl.Segmenter {
  const key = `${granularity}:${lang}`;
  let found = segmenters.get(key);
  if (!found) {
    try {
      found = new Intl.Segmenter(lang, { granularity });
    } catch {
      // A malformed language tag from a page must not fail extraction; the root locale segments any script.
      found = new Intl.Segmenter("en", { granularity });
    }
    segmenters.set(key, found);
  }
  return found;
}

/**
 * Node's Intl.Segmenter gets slower with every segment of a long string (quadratic: 160,000 characters
 * take ~12 s), so text is segmented in pieces of at most PIECE_CHARS, cut where no boundary can straddle:
 * at line breaks, else after sentence-ending punctuation and a space, else at a space.
 */
const PIECE_CHARS = 2000;

function* pieces(text: string): Generator<{ piece: string; offset: number }> {
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + PIECE_CHARS);
    if (end < text.length) {
      const window = text.slice(start, end);
      const newline = window.lastIndexOf("\n");
      const sentenceEnd = Math.max(window.lastIndexOf(". "), window.lastIndexOf("! "), window.lastIndexOf("? "));
      const space = window.lastIndexOf(" ");
      const cut = newline > 0 ? newline + 1 : sentenceEnd > 0 ? sentenceEnd + 2 : space > 0 ? space + 1 : window.length;
      end = start + cut;
    }
    yield { piece: text.slice(start, end), offset: start };
    start = end;
  }
}

/** Segments of a text of any length, with indexes into the whole text. */
function* segmentsOf(text: string, lang: string, granularity: "sentence" | "word"): Generator<Intl.SegmentData> {
  const seg = segmenter(lang, granularity);
  for (const { piece, offset } of pieces(text)) {
    for (const s of seg.segment(piece)) yield offset ? { ...s, index: s.index + offset, input: text } : s;
  }
}

export interface Sentence {
  text: string;
  /** The sentence closes a paragraph (a line break followed it). */
  endsParagraph: boolean;
}

/** Sentences of a text, trimmed; a line break always ends a sentence (UAX #29 rule SB4), so list items stay apart. */
export function splitSentences(text: string, lang = "en"): Sentence[] {
  const out: Sentence[] = [];
  const german = baseLanguage(lang) === "de";
  for (const { segment } of segmentsOf(text, lang, "sentence")) {
    const trimmed = segment.trim();
    if (!trimmed) continue;
    const last = out[out.length - 1];
    if (last && !last.endsParagraph && continuesSentence(last.text, trimmed, lang, german)) {
      last.text = `${last.text} ${trimmed}`;
      last.endsParagraph = /\n\s*$/.test(segment);
      continue;
    }
    out.push({ text: trimmed, endsParagraph: /\n\s*$/.test(segment) });
  }
  return out;
}

/**
 * Whether the segmenter's cut between two pieces of one line is no sentence end, and the pieces are one sentence:
 * - German writes ordinals with a full stop ("seit dem 1. Januar 1970", "im 3. Kapitel"), which the segmenter takes
 *   for a sentence end before the capitalised noun;
 * - an abbreviation that never ends a sentence ("z.B.", "e.g.", "p. ex.") is taken for one before a capital or a
 *   digit ("Probleme wie z.B. Abhängigkeiten …", "to e.g. 800Kib/sec");
 * - a name's initial ("first defined by S. Adve") is taken for one before the name, when what follows opens with a
 *   capitalised word that is no function word (a new sentence opens with "The", "Le", "Der", "El" as often as not).
 */
function continuesSentence(before: string, next: string, lang: string, german: boolean): boolean {
  if (german && GERMAN_ORDINAL_END.test(before) && GERMAN_AFTER_ORDINAL.test(next)) return true;
  if (endsOnOpenAbbreviation(before) || (SPACED_FIRST_HALF.test(before) && SPACED_SECOND_HALF.test(next))) return true;
  return INITIAL_END.test(before) && /^\p{Lu}/u.test(next) && !isStopword(firstWord(next), lang);
}

/** A single capital letter and a full stop after a space: a name's initial. */
const INITIAL_END = /(?:^|\s)\p{Lu}\.$/u;
const firstWord = (text: string) => (/^[\p{L}\p{N}'’-]+/u.exec(text)?.[0] ?? "").toLowerCase();

/**
 * Abbreviations that never end a sentence, in the languages the platform writes: "for example", "that is",
 * "compare", "versus", "respectively", "so-called" ("u.a.", "etc.", "usw." can end one, and are not here).
 */
const NEVER_ENDS = /(?:^|[\s(„"«“])(?:e\.\s?g|i\.\s?e|cf|vs|viz|z\.\s?B|d\.\s?h|bzw|vgl|sog|p\.\s?ex|c\.-à-d|p\.\s?ej)\.["”’»)]*$/iu;

/**
 * The text ends on an abbreviation that never ends a sentence (`NEVER_ENDS`). Inside a line `splitSentences` joins
 * such a cut again; at a paragraph's end it is a sentence cut before what it announced: "Es protokolliert sowohl
 * den Aufruf von dpkg, z.B." (a code block followed), which is no sentence to quote.
 */
export function endsOnOpenAbbreviation(text: string): boolean {
  return NEVER_ENDS.test(text.trim());
}
/** "z. B." written with its space: the segmenter breaks after "z." before the capital B. */
const SPACED_FIRST_HALF = /(?:^|\s)z\.$/;
const SPACED_SECOND_HALF = /^B\.\s/;

const GERMAN_ORDINAL_END = /(^|[\s(])\d{1,2}\.$/;
/** What follows a German ordinal: a month, or a noun counted in order. */
const GERMAN_AFTER_ORDINAL =
  /^(Januar|Jänner|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember|Kapitel|Abschnitt|Jahrhundert|Jahrhunderts|Schritt|Stelle|Mal|Tag|Tages|Woche|Monat|Monats|Jahr|Ebene|Stufe|Platz|Auflage|Version|Quartal)\b/;

export function sentencesOf(text: string, lang = "en"): string[] {
  return splitSentences(text, lang).map((s) => s.text);
}

/** Word-like segments (words and numbers, no punctuation or spaces), in their original case. */
export function wordsOf(text: string, lang = "en"): string[] {
  const out: string[] = [];
  for (const s of segmentsOf(text, lang, "word")) if (s.isWordLike) out.push(s.segment);
  return out;
}

export interface WordSpan {
  word: string;
  /** Offsets in the text: text.slice(start, end) === word. */
  start: number;
  end: number;
}

/** Word-like segments with their positions, for quoting a run of words with the punctuation between them. */
export function wordSpans(text: string, lang = "en"): WordSpan[] {
  const out: WordSpan[] = [];
  for (const s of segmentsOf(text, lang, "word")) if (s.isWordLike) out.push({ word: s.segment, start: s.index, end: s.index + s.segment.length });
  return out;
}

export function countWords(text: string, lang = "en"): number {
  let n = 0;
  for (const s of segmentsOf(text, lang, "word")) if (s.isWordLike) n++;
  return n;
}

/**
 * Model tokens per word. BPE tokenizers of the GPT family average about 0.75 English words per token
 * (OpenAI's rule of thumb), i.e. ~1.3 tokens per word; numbers and rare words cost more, so this is an estimate.
 */
export const TOKENS_PER_WORD = 1.3;

export function tokensForWords(words: number): number {
  return Math.ceil(words * TOKENS_PER_WORD);
}

export function estimateTokens(text: string, lang = "en"): number {
  return tokensForWords(countWords(text, lang));
}

/** Cuts a text into consecutive pieces of at most `maxWords` words each, at word boundaries (for over-long sentences). */
export function splitByWords(text: string, maxWords: number, lang = "en"): string[] {
  const pieces: string[] = [];
  let current = "";
  let words = 0;
  for (const s of segmenter(lang, "word").segment(text)) {
    if (s.isWordLike && words === maxWords) {
      pieces.push(current.trim());
      current = "";
      words = 0;
    }
    current += s.segment;
    if (s.isWordLike) words++;
  }
  if (current.trim()) pieces.push(current.trim());
  return pieces;
}
