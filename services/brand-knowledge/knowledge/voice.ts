import { readingLevelOf, textStatistics, type TextStatistics } from "../../../shared/text/flesch";
import { sentencesOf, wordSpans, wordsOf } from "../../../shared/text/segment";
import { stemEnglish } from "../../../shared/text/stem";
import { baseLanguage, COMMON_WORDS, isStopword } from "../../../shared/text/stopwords";
import { normalizeWord } from "../../../shared/text/tokenize";

import type { Person, VoiceProfile } from "../../../shared/schemas/brand";


export interface VoiceInput {
  writingSamples: string[];
  siteTexts: string[];
  lang?: string;
}

/*
 * Lexical markers (English). A tone is reported when its marker rate passes a threshold; the rates are
 * per word unless noted, and the thresholds sit well above what neutral prose shows.
 */
const ASSERTIVE = new Set("always best certainly clearly definitely ensure ensures every exactly fastest guarantee guaranteed guarantees leading must never proven powerful will".split(" "));
const HEDGES = new Set("arguably could generally likely may might often perhaps possibly probably seems sometimes somewhat suggest suggests tend tends typically usually".split(" "));
const FORMAL = new Set("accordingly additionally commence consequently furthermore hence hereby herein moreover nevertheless notwithstanding pursuant regarding respectively shall subsequently therefore thus utilize whereas".split(" "));
const WARM = new Set("awesome delighted enjoy excited friendly fun glad great happy hello hey hi love thank thanks together welcome wonderful".split(" "));
const TECHNICAL = new Set("algorithm api authentication configure configuration database deployment encryption endpoint infrastructure integration latency protocol schema sdk server throughput webhook".split(" "));
const CONTRACTION_ENDINGS = ["n't", "'re", "'ve", "'ll", "'d", "'m"];
const CONTRACTED_IS = new Set(["it's", "that's", "there's", "here's", "what's", "let's", "he's", "she's", "who's", "where's"]);

const PRONOUNS: Record<Person, ReadonlySet<string>> = {
  first_plural: new Set(["we", "us", "our", "ours", "ourselves", "we're", "we've", "we'll", "we'd", "let's"]),
  first_singular: new Set(["i", "me", "my", "mine", "myself", "i'm", "i've", "i'll", "i'd"]),
  second: new Set(["you", "your", "yours", "yourself", "yourselves", "you're", "you've", "you'll", "you'd"]),
  third: new Set(["he", "she", "they", "them", "their", "theirs", "him", "his", "her", "hers", "he's", "she's", "they're"]),
};
const PERSONS = Object.keys(PRONOUNS) as Person[];

/** Generic marketing phrases a brand voice does well to avoid unless its own samples use them. */
const CLICHES = [
  "at the end of the day", "best-in-class", "cutting-edge", "delve into", "disruptive", "elevate your", "empower",
  "game-changer", "game-changing", "harness the power", "holistic", "in today's fast-paced world",
  "in the ever-evolving landscape", "industry-leading", "leverage", "low-hanging fruit", "move the needle",
  "next-generation", "one-stop shop", "paradigm shift", "revolutionary", "revolutionize", "robust solution",
  "seamless", "seamlessly", "state-of-the-art", "supercharge", "synergy", "take it to the next level",
  "think outside the box", "unleash", "unlock the power", "world-class",
];
/**
 * Intensifiers: when the site uses one at least twice and a page or more of samples (MEANINGFUL_ABSENCE_WORDS)
 * never does, the samples clearly avoid it.
 */
const INTENSIFIERS = ["absolutely", "amazing", "awesome", "extremely", "incredible", "incredibly", "literally", "really", "super", "totally", "truly", "ultimate", "very"];

const MEANINGFUL_ABSENCE_WORDS = 250;

interface CorpusStats {
  words: number;
  sentenceLengths: number[];
  readability: TextStatistics;
  pronouns: Record<Person, number>;
  markers: { assertive: number; hedges: number; formal: number; warm: number; technical: number; contractions: number; exclamations: number; questions: number; letters: number };
  terms: Map<string, { count: number; surfaces: Map<string, number> }>;
  /** Lower-cased words joined by single spaces and padded, for phrase look-ups that ignore hyphens and case. */
  flat: string;
}

/** Headings and list fragments are not sentences: fewer words than this and a line is left out of the statistics. */
const MIN_SENTENCE_WORDS = 3;

function analyse(texts: string[], lang: string): CorpusStats | null {
  const stats: CorpusStats = {
    words: 0,
    sentenceLengths: [],
    readability: { sentences: 0, words: 0, syllables: 0, polysyllables: 0, monosyllables: 0, longWords: 0 },
    pronouns: { first_plural: 0, first_singular: 0, second: 0, third: 0 },
    markers: { assertive: 0, hedges: 0, formal: 0, warm: 0, technical: 0, contractions: 0, exclamations: 0, questions: 0, letters: 0 },
    terms: new Map(),
    flat: " ",
  };
  const flat: string[] = [];
  const english = baseLanguage(lang) === "en";
  for (const text of texts) {
    if (!text.trim()) continue;
    for (const sentence of sentencesOf(text, lang)) {
      const words = wordsOf(sentence, lang);
      if (words.length < MIN_SENTENCE_WORDS) continue;
      stats.sentenceLengths.push(words.length);
      const r = textStatistics(sentence, lang);
      for (const key of Object.keys(r) as (keyof TextStatistics)[]) stats.readability[key] += r[key];
      if (sentence.trimEnd().endsWith("!")) stats.markers.exclamations++;
      if (sentence.trimEnd().endsWith("?")) stats.markers.questions++;
      for (const raw of words) {
        const word = lowerWord(raw);
        stats.words++;
        stats.markers.letters += [...raw].length;
        flat.push(word);
        for (const person of PERSONS) if (PRONOUNS[person].has(word)) stats.pronouns[person]++;
        if (ASSERTIVE.has(word)) stats.markers.assertive++;
        if (HEDGES.has(word)) stats.markers.hedges++;
        if (FORMAL.has(word)) stats.markers.formal++;
        if (WARM.has(word)) stats.markers.warm++;
        if (TECHNICAL.has(word) || /\d/.test(raw) || (raw.length >= 2 && raw === raw.toUpperCase() && /\p{Lu}/u.test(raw))) stats.markers.technical++;
        if (CONTRACTION_ENDINGS.some((e) => word.endsWith(e)) || CONTRACTED_IS.has(word)) stats.markers.contractions++;
        const base = normalizeWord(raw);
        if (base.length >= 3 && /^\p{L}+$/u.test(base) && !isStopword(base, lang) && !COMMON_WORDS.has(base) && !isPronoun(base)) {
          // Inflections count as one term ("customer", "customers"), shown in their commonest spelling.
          const key = english ? stemEnglish(base) : base;
          let term = stats.terms.get(key);
          if (!term) stats.terms.set(key, (term = { count: 0, surfaces: new Map() }));
          term.count++;
          const surface = raw.endsWith("'s") || raw.endsWith("\u2019s") ? raw.slice(0, -2) : raw;
          term.surfaces.set(surface, (term.surfaces.get(surface) ?? 0) + 1);
        }
      }
    }
    flat.push("|");
  }
  stats.flat = ` ${flat.join(" ")} `;
  return stats.words ? stats : null;
}

/** Lower case with straight apostrophes, keeping contractions and possessives whole ("it's", "we're"). */
function lowerWord(raw: string): string {
  return raw.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
}

function isPronoun(word: string): boolean {
  return PERSONS.some((p) => PRONOUNS[p].has(word));
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function phraseKey(phrase: string, lang: string): string {
  return ` ${wordsOf(phrase, lang).map(lowerWord).join(" ")} `;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * Frequent 2–4-word phrases: within sentences, no numbers, not starting or ending with a stopword, seen at least
 * twice; a phrase inside a longer one that is as frequent is dropped in favour of the longer one. Phrases are
 * quoted as written ("month-end close"), in lower case unless a capital sits inside the sentence (a name).
 */
function frequentPhrases(texts: string[], lang: string, max: number): string[] {
  const counts = new Map<string, { count: number; texts: Set<number>; surfaces: Map<string, number> }>();
  texts.forEach((text, t) => {
    for (const sentence of sentencesOf(text, lang)) {
      const spans = wordSpans(sentence, lang);
      const words = spans.map((s) => lowerWord(s.word));
      for (let n = 2; n <= 4; n++) {
        for (let i = 0; i + n <= words.length; i++) {
          const gram = words.slice(i, i + n);
          if (isStopword(gram[0], lang) || isStopword(gram[n - 1], lang) || gram.some((w) => /\d/.test(w))) continue;
          const key = gram.join(" ");
          let c = counts.get(key);
          if (!c) counts.set(key, (c = { count: 0, texts: new Set(), surfaces: new Map() }));
          c.count++;
          c.texts.add(t);
          const quoted = sentence.slice(spans[i].start, spans[i + n - 1].end);
          const surface = i === 0 ? quoted.charAt(0).toLowerCase() + quoted.slice(1) : quoted;
          c.surfaces.set(surface, (c.surfaces.get(surface) ?? 0) + 1);
        }
      }
    }
  });
  type Counted = { count: number; texts: Set<number>; surfaces: Map<string, number> };
  const score = (key: string, c: Counted) => c.count * Math.sqrt(key.split(" ").length) * (c.texts.size > 1 ? 1.5 : 1);
  const frequent = [...counts].filter(([, c]) => c.count >= 2);
  // A phrase inside a longer frequent phrase that is at least as common adds nothing: each phrase marks
  // its own shorter sub-phrases (linear in the phrases, where comparing every pair was quadratic).
  const subsumed = new Set<string>();
  for (const [key, c] of frequent) {
    const words = key.split(" ");
    for (let n = 2; n < words.length; n++) {
      for (let i = 0; i + n <= words.length; i++) {
        const sub = words.slice(i, i + n).join(" ");
        const inner = counts.get(sub);
        if (inner && inner.count >= 2 && c.count >= inner.count) subsumed.add(sub);
      }
    }
  }
  const kept = frequent.filter(([key]) => !subsumed.has(key));
  return kept
    .sort((a, b) => score(b[0], b[1]) - score(a[0], a[1]) || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    .map(([, c]) => [...c.surfaces].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0]);
}

interface Blend {
  samples: CorpusStats | null;
  site: CorpusStats | null;
  wSamples: number;
  wSite: number;
}

/** Weighted average of a per-corpus rate. */
function blended(blend: Blend, rate: (s: CorpusStats) => number): number {
  return (blend.samples ? blend.wSamples * rate(blend.samples) : 0) + (blend.site ? blend.wSite * rate(blend.site) : 0);
}

function tones(blend: Blend): string[] {
  const perWord = (key: keyof CorpusStats["markers"]) => blended(blend, (s) => s.markers[key] / s.words);
  const perSentence = (key: keyof CorpusStats["markers"]) => blended(blend, (s) => s.markers[key] / Math.max(1, s.sentenceLengths.length));
  const assertive = perWord("assertive");
  const hedges = perWord("hedges");
  const contractions = perWord("contractions");
  const exclamations = perSentence("exclamations");
  const second = blended(blend, (s) => s.pronouns.second / s.words);
  const wordLength = perWord("letters");
  const scores: [string, number][] = [
    ["confident", assertive >= 1.5 * hedges ? assertive / 0.006 : 0],
    ["cautious", hedges > assertive ? hedges / 0.008 : 0],
    ["friendly", Math.max(perWord("warm") / 0.004, second >= 0.02 && contractions >= 0.004 ? 1.2 : 0)],
    ["conversational", Math.max(contractions / 0.01, perSentence("questions") / 0.1)],
    ["formal", contractions < 0.002 && exclamations < 0.02 ? Math.max(perWord("formal") / 0.002, wordLength / 5.3) : 0],
    ["technical", perWord("technical") / 0.03],
    ["enthusiastic", exclamations / 0.15],
  ];
  const found = scores.filter(([, s]) => s >= 1).sort((a, b) => b[1] - a[1]);
  return found.length ? found.slice(0, 4).map(([t]) => t) : ["neutral"];
}

function dominantPerson(blend: Blend): Person {
  const rates = PERSONS.map((p) => [p, blended(blend, (s) => s.pronouns[p] / s.words)] as const);
  const [person, rate] = rates.reduce((best, r) => (r[1] > best[1] ? r : best));
  // Below one pronoun in 200 words the text speaks about things, not as or to anyone: impersonal third person.
  return rate >= 0.005 ? person : "third";
}

function vocabulary(blend: Blend, max: number): string[] {
  const scores = new Map<string, { score: number; count: number; surfaces: Map<string, number> }>();
  for (const [stats, weight] of [[blend.samples, blend.wSamples], [blend.site, blend.wSite]] as const) {
    if (!stats || !weight) continue;
    for (const [word, term] of stats.terms) {
      let entry = scores.get(word);
      if (!entry) scores.set(word, (entry = { score: 0, count: 0, surfaces: new Map() }));
      entry.score += (weight * term.count) / stats.words;
      entry.count += term.count;
      for (const [surface, n] of term.surfaces) entry.surfaces.set(surface, (entry.surfaces.get(surface) ?? 0) + n);
    }
  }
  return [...scores]
    .filter(([, e]) => e.count >= 2)
    .sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1))
    .slice(0, max)
    // The commonest spelling: product names keep their capitals, ordinary words their lower case.
    .map(([word, e]) => [...e.surfaces].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1))[0]?.[0] ?? word);
}

function avoidPhrases(blend: Blend, lang: string): string[] {
  const reference = blend.samples ?? blend.site;
  if (!reference) return [];
  const used = (stats: CorpusStats | null, phrase: string) => (stats ? stats.flat.split(phraseKey(phrase, lang)).length - 1 : 0);
  const unused = CLICHES.filter((c) => used(reference, c) === 0);
  // Clichés the site actually uses (and the samples do not) come first: they are the likely relapses.
  const onSite = blend.samples ? unused.filter((c) => used(blend.site, c) > 0) : [];
  const avoided =
    blend.samples && blend.samples.words >= MEANINGFUL_ABSENCE_WORDS ? INTENSIFIERS.filter((w) => used(blend.samples, w) === 0 && used(blend.site, w) >= 2) : [];
  return [...new Set([...onSite, ...avoided, ...unused])];
}

/**
 * A voice profile from writing samples first and site text second. Each corpus is measured on its own (rates
 * per word or sentence, so a large site does not outvote short samples by volume), then blended: samples weigh
 * 0.5 + 0.3·min(1, sample words / 500), i.e. at least half and 80% once there are 500 words of samples; the
 * site text has the rest. Without samples the site text is all there is; phrases to prefer come from the
 * samples alone when there are any.
 */
export function buildVoiceProfile(input: VoiceInput): VoiceProfile {
  const lang = input.lang ?? "en";
  const sampleTexts = input.writingSamples.filter((t) => t.trim());
  const siteTexts = input.siteTexts.filter((t) => t.trim());
  const samples = analyse(sampleTexts, lang);
  const site = analyse(siteTexts, lang);
  const wSamples = samples ? (site ? 0.5 + 0.3 * Math.min(1, samples.words / 500) : 1) : 0;
  const blend: Blend = { samples, site, wSamples, wSite: site ? 1 - wSamples : 0 };
  const basedOn = { samples: sampleTexts.length, siteDocuments: siteTexts.length };
  if (!samples && !site) {
    return { tone: ["neutral"], readingLevel: { fleschReadingEase: 0, grade: 0 }, sentenceLength: { mean: 0, p90: 0 }, person: "third", vocabulary: [], preferPhrases: [], avoidPhrases: [], basedOn };
  }

  return {
    tone: tones(blend),
    readingLevel: {
      fleschReadingEase: round1(blended(blend, (s) => readingLevelOf(s.readability, lang).fleschReadingEase)),
      grade: round1(blended(blend, (s) => readingLevelOf(s.readability, lang).grade)),
    },
    sentenceLength: {
      mean: round1(blended(blend, (s) => s.sentenceLengths.reduce((a, b) => a + b, 0) / Math.max(1, s.sentenceLengths.length))),
      p90: round1(blended(blend, (s) => percentile(s.sentenceLengths, 90))),
    },
    person: dominantPerson(blend),
    vocabulary: vocabulary(blend, 15),
    preferPhrases: frequentPhrases(samples ? sampleTexts : siteTexts, lang, 10),
    avoidPhrases: avoidPhrases(blend, lang),
    basedOn,
  };
}
