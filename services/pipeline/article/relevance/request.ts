import { wordsOf } from "../../../../shared/text/segment";
import { normalizeWord, tokenize } from "../../../../shared/text/tokenize";
import { baseLanguage } from "../../../../shared/text/stopwords";
import { languageProfile } from "../language";

/**
 * A request split into its SUBJECT (what the article is about: the terms that decide coverage and relevance)
 * and its ANGLE (how the customer wants it treated: "how to", "best practices", "mistakes to avoid", "vs", and
 * the light verbs a request is phrased with). The angle steers the outline; it never decides coverage.
 */
export interface SubjectTerm {
  /** The index term (tokenized and stemmed like the knowledge base's index). */
  term: string;
  /** How the customer wrote it: "backing up", "agencies". */
  surface: string;
  /**
   * The subject terms it makes a phrase with in the request, across "of" and its kin ("copias de seguridad",
   * "mots de passe"); words merely side by side ("Debian server backup") are each a part of the subject. A text that states it without any of them states less of the
   * subject ("seguridad de datos" is not "copias de seguridad"): `features.ts` counts it half.
   */
  partners?: string[];
  /** The term is in the target keyword: the customer's own name for the core of the subject (`weights.ts`). */
  core?: boolean;
  /** The German compound it is a part of (`splitCompounds`): a text that says the compound says this part too. */
  compound?: string;
}

export interface RequestAnalysis {
  subject: SubjectTerm[];
  /** The angle's words as the customer wrote them, in order. */
  angle: string[];
  /**
   * Terms two adjacent words of the request make when written as one ("backing up" → "backup", "Daten
   * sicherung" → "datensicherung"): a profile whose index knows the joined term states the subject that way,
   * and `subjectWeights` then uses it in place of its parts.
   */
  joins: { term: string; parts: [string, string]; surface: string; word: string }[];
  /**
   * The ways a German compound of the subject splits into two words ("Dateiberechtigungen" → "Datei" +
   * "Berechtigungen"): `subjectWeights` takes the one the profile's counts favour, or none (`compoundSplits`).
   */
  splits: CompoundSplit[];
}

export interface CompoundSplit {
  /** The compound's term, a subject term. */
  term: string;
  candidates: { modifier: { term: string; word: string }; head: { term: string; word: string } }[];
  /**
   * The parts must also be found together, in one sentence of the sources (`pairTerm`), for the split to stand:
   * an English word cut anywhere gives fragments that are words of their own ("composting" → "com" + "posting",
   * both in a Debian manual, never together).
   */
  together?: true;
}

/** The key a split's two parts are counted under together (units holding both), beside the terms' own counts. */
export const pairTerm = (modifier: string, head: string) => `${modifier}+${head}`;

/** Particles that make one word with the verb before them when written together ("back up" → "backup", "log in" → "login"). */
const PARTICLES = new Set(["up", "in", "out", "down", "off", "on", "over"]);

const angleCache = new Map<string, ReadonlySet<string>>();

/** The angle words of a language as index terms (stemmed like everything else). */
export function angleTerms(lang: string): ReadonlySet<string> {
  const base = baseLanguage(lang);
  let set = angleCache.get(base);
  if (!set) {
    const profile = languageProfile(base);
    set = new Set([...tokenize(profile.angleWords, base), ...profile.angleWords.split(/\s+/).filter(Boolean).map((w) => normalizeWord(w))]);
    angleCache.set(base, set);
  }
  return set;
}

/**
 * Whether a word of a request is an angle word: as written, or by its stem ("Fehlern", "tips"). Not by its stem
 * alone for a German noun in -er: the stemmer cuts the agent noun and its verb alike ("Benutzer" and "benutzen"
 * are both "benutz", "Nutzer" and "nutzen" both "nutz"), and the users are a subject.
 */
function isAngle(word: string, term: string, angle: ReadonlySet<string>, lang: string): boolean {
  if (angle.has(normalizeWord(word))) return true;
  if (baseLanguage(lang) === "de" && /^\p{Lu}.*er$/u.test(word)) return false;
  return angle.has(term);
}

/** Subject and angle of a request (topic and keyword), each term once, in the order written. */
export function analyseRequest(request: string, requestKeyword: string, lang: string): RequestAnalysis {
  const angle = angleTerms(lang);
  const subject = new Map<string, string>();
  const angleWords: string[] = [];
  // An angle phrase ("for the first time") is angle whole: its words leave the request before the words are read.
  const phrases = languageProfile(baseLanguage(lang)).anglePhrases;
  const withoutPhrases = (text: string) =>
    !phrases
      ? text
      : text.replace(phrases, (match) => {
          const phrase = match.toLowerCase();
          if (!angleWords.includes(phrase)) angleWords.push(phrase);
          return " ";
        });
  const [topic, keyword] = [withoutPhrases(request), withoutPhrases(requestKeyword)];
  const words = wordsOf(`${topic} ${keyword}`, lang);
  for (const word of words) {
    const terms = tokenize(word, lang);
    if (!terms.length) continue;
    const compound = baseLanguage(lang) === "de" ? germanAngleCompound(word, angle, lang) : undefined;
    if (compound) {
      if (!angleWords.includes(compound.head)) angleWords.push(compound.head);
      if (compound.subject && !subject.has(compound.subject.term)) subject.set(compound.subject.term, compound.subject.modifier);
      continue;
    }
    for (const term of terms) {
      if (isAngle(word, term, angle, lang)) {
        if (!angleWords.includes(word.toLowerCase())) angleWords.push(word.toLowerCase());
      } else if (!subject.has(term)) subject.set(term, word);
    }
  }
  // A request made only of angle words ("Getting started") keeps them: something must be its subject.
  if (!subject.size) for (const word of words) for (const term of tokenize(word, lang)) if (!subject.has(term)) subject.set(term, word);
  const partners = phrasePartners([topic, keyword], lang, new Set(subject.keys()));
  const joins: RequestAnalysis["joins"] = [];
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1], words[i]];
    const left = tokenize(a, lang)[0];
    if (!left || !subject.has(left)) continue;
    // The second word is a content word ("Daten sicherung") or a verb's particle ("backing up"), never a
    // function word: "mots de" must not make "motd".
    const right = tokenize(b, lang)[0] ?? (PARTICLES.has(normalizeWord(b)) ? normalizeWord(b) : undefined);
    // Nor an angle word: "Pakete verwalten" is no "Paketverwaltung" (a word the sources hardly use) but packages.
    if (!right || (!PARTICLES.has(right) && isAngle(b, right, angle, lang))) continue;
    for (const joined of new Set([`${normalizeWord(a)}${normalizeWord(b)}`, `${left}${normalizeWord(b)}`])) {
      const term = tokenize(joined, lang)[0];
      if (term && term !== left && !joins.some((j) => j.term === term)) joins.push({ term, parts: [left, right], surface: `${a} ${b}`, word: joined });
    }
  }
  if (baseLanguage(lang) === "de") joins.push(...germanVerbJoins(words, subject, lang));
  const core = new Set(tokenize(keyword, lang));
  const splits =
    baseLanguage(lang) === "de"
      ? [...subject].flatMap(([term, word]) => germanCompoundSplits(word, term, angle, lang))
      : baseLanguage(lang) === "en"
        ? [...subject].flatMap(([term, word]) => englishCompoundSplits(word, term, angle, lang))
        : [];
  return {
    subject: [...subject].map(([term, surface]) => ({
      term,
      surface,
      ...(partners.get(term)?.size ? { partners: [...partners.get(term)!] } : {}),
      ...(core.has(term) ? { core: true } : {}),
    })),
    angle: angleWords,
    joins,
    splits,
  };
}

/** Shortest angle word a German compound ends with that makes it one ("tipps", "pflege", "fehler"; not "wege"). */
const ANGLE_HEAD_MIN = 5;
/** Shortest word before it ("Rad-", "Paket-"). */
const MODIFIER_MIN = 3;
const LINKING_S = /(heit|keit|ung|ion|tät|schaft|ling)s$/iu;

/**
 * A German noun compound whose last part is an angle word: "Paketverwaltung" is "Pakete verwalten",
 * "Zimmerpflanzenpflege" is "Zimmerpflanzen pflegen", "Sicherheitstipps" is "Tipps zur Sicherheit". English and
 * French write the angle apart ("managing packages", « entretien du vélo ») and it steers; German writes it into
 * the word, and the whole compound, which the sources hardly ever use ("Paketverwaltung" is in 2 of the German
 * manual's 477 chunks, "Paket" in 237), gated the topic. The word before the angle is the subject (a linking
 * "s" dropped: "Sicherheits-"); a compound whose first part is an angle word too ("Anfängerfehler") is all angle.
 */
function germanAngleCompound(word: string, angle: ReadonlySet<string>, lang: string): { subject?: { term: string; modifier: string }; head: string } | undefined {
  if (!/^\p{Lu}/u.test(word)) return undefined; // nouns only: German capitalises them
  const lower = word.toLowerCase();
  for (let at = MODIFIER_MIN; at <= lower.length - ANGLE_HEAD_MIN; at++) {
    const head = lower.slice(at);
    const headTerms = tokenize(head, lang);
    if (!angle.has(normalizeWord(head)) && !(headTerms.length && headTerms.every((t) => angle.has(t)))) continue;
    const written = word.slice(0, at);
    // The linking "s" German puts after -heit, -keit, -ung, -ion, -tät, -schaft, -ling ("Sicherheitstipps").
    const modifier = LINKING_S.test(written) ? written.slice(0, -1) : written;
    const term = tokenize(modifier, lang)[0];
    if (!term) return undefined;
    // An angle word before it too makes the whole word angle ("Anfängerfehler"). Judged by the word, not its
    // stem: "Benutzer" and "benutzen" share the stem "benutz", and "Benutzerverwaltung" is about users.
    return angle.has(normalizeWord(modifier)) ? { head: lower } : { subject: { term, modifier }, head };
  }
  return undefined;
}

/** The function words a noun phrase continues across: "of" and its French and Spanish equivalents (German writes one word). */
export const PHRASE_LINKS: ReadonlySet<string> = new Set(["of", "de", "des", "du", "d", "del"]);

/** Subject terms written next to each other (function words between them aside) in the topic or the keyword. */
function phrasePartners(texts: readonly string[], lang: string, subject: ReadonlySet<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const text of texts) {
    let previous: string | null = null;
    let linked = false;
    for (const word of wordsOf(text, lang)) {
      const term = tokenize(word, lang)[0];
      if (!term) {
        // Only "of" and its kin make a phrase ("copias de seguridad", "mots de passe"); any other function word ends one.
        if (PHRASE_LINKS.has(normalizeWord(word)) && previous) linked = true;
        else previous = null;
        continue;
      }
      if (!subject.has(term)) {
        previous = null; // an angle word ends it
        linked = false;
        continue;
      }
      // Words merely next to each other are a modifier chain ("Debian server backup", "drive time"): each states
      // part of the subject alone. A phrase is made across a link only.
      if (previous && previous !== term && linked) {
        if (!out.has(previous)) out.set(previous, new Set());
        if (!out.has(term)) out.set(term, new Set());
        out.get(previous)!.add(term);
        out.get(term)!.add(previous);
      }
      previous = term;
      linked = false;
    }
  }
  return out;
}

/**
 * German verbs in a request ("Wie sichert man Daten …?", "Wer verwaltet …") as the noun the sources name the
 * thing by ("Sicherung", "Verwaltung"): the stemmer leaves "sichert" and "verwaltet" whole but cuts "Sicherung"
 * to "sicher" and "Verwaltung" to "verwalt", so the verb would gate a topic the sources cover. A lower-case word
 * (German capitalises nouns) whose term ends in -t, without its ending (-et after t or d, else -t), is tried
 * as a join, searched as its noun in -ung: `subjectWeights` uses it in the verb's place only when the profile's
 * index knows it.
 */
function germanVerbJoins(words: readonly string[], subject: ReadonlyMap<string, string>, lang: string): RequestAnalysis["joins"] {
  const out: RequestAnalysis["joins"] = [];
  for (const word of words) {
    // The verb as written ends in -t ("sichert"): an infinitive's stem may end in t too ("verwalten" → "verwalt").
    if (!/^\p{Ll}.*t$/u.test(word)) continue;
    const term = tokenize(word, lang)[0];
    if (!term || !subject.has(term) || !/t$/.test(term) || term.length < 6) continue;
    const stem = /[td]et$/.test(term) ? term.slice(0, -2) : term.slice(0, -1);
    // Searched as the noun in -ung, which the index's stemmer cuts to the same term ("Sicherung" → "sicher").
    if (!out.some((j) => j.term === stem)) out.push({ term: stem, parts: [term, term], surface: `${stem}ung`, word: `${stem}ung` });
  }
  return out;
}


/** Shortest part of a German compound a split makes ("Datei", "Konten"; not "Ei"). */
const PART_MIN = 4;

/** Shortest part of an English closed compound a split makes ("bee" of "beehive"). */
const ENGLISH_PART_MIN = 3;

/**
 * The two-word splits of an English closed compound of the request ("beehive" → "bee" + "hive", "toolbox" →
 * "tool" + "box"), each part a content word of at least three letters. Decided by the profile's counts like a
 * German split (`splitCompounds`): a compound the sources use as often as its parts ("filesystem", "hostname",
 * "password") stays whole; and only into parts some sentence of the sources writes together (`together`). (A
 * customer asked "Preparing a beehive for winter" of notes that say "hive" and "bees" and was told there was
 * nothing about "beehive": 2026-11-27, a held-out probe.)
 */
function englishCompoundSplits(word: string, term: string, angle: ReadonlySet<string>, lang: string): CompoundSplit[] {
  if (!/^\p{L}+$/u.test(word)) return [];
  const split = twoWordSplits(word, term, angle, lang, ENGLISH_PART_MIN, (at) => [word.slice(0, at), word.slice(at)]);
  return split ? [{ ...split, together: true }] : [];
}

/**
 * The two-word splits of a German noun compound of the request ("Passwortsicherheit" → "Passwort" +
 * "Sicherheit", "Festplattenverschlüsselung" → "Festplatten" + "Verschlüsselung"), each part a content word of
 * at least four letters, the linking "s" after -heit, -ung, … dropped. German makes a compound of any two nouns,
 * and a request's compound is often more specific than the words its sources use ("Dateiberechtigungen" is in 1
 * of the German manual's chunks; "Berechtigungen" and "Datei" in dozens). Which split, if any, stands for the
 * compound is decided by the profile's counts (`subjectWeights`, after Koehn and Knight's frequency-based
 * splitting: the split whose parts' geometric mean count beats the whole word's count).
 */
function germanCompoundSplits(word: string, term: string, angle: ReadonlySet<string>, lang: string): CompoundSplit[] {
  if (!/^\p{Lu}/u.test(word)) return [];
  const split = twoWordSplits(word, term, angle, lang, PART_MIN, (at) => {
    if (/[-\s]/.test(word[at - 1]) || /[-\s]/.test(word[at])) return undefined;
    const written = word.slice(0, at);
    return [LINKING_S.test(written) ? written.slice(0, -1) : written, word.charAt(at).toUpperCase() + word.slice(at + 1)];
  });
  return split ? [split] : [];
}

/**
 * Every cut of `word` into two content words (neither an angle word, nor the whole word's term), at least
 * `partMin` letters each side of the cut; `parts` writes the two words of a cut (undefined: no cut there).
 */
function twoWordSplits(word: string, term: string, angle: ReadonlySet<string>, lang: string, partMin: number, parts: (at: number) => [string, string] | undefined): CompoundSplit | undefined {
  const content = (w: string) => {
    const t = tokenize(w, lang);
    return t.length === 1 && t[0].length >= 3 && !isAngle(w, t[0], angle, lang) ? t[0] : undefined;
  };
  const candidates: CompoundSplit["candidates"] = [];
  for (let at = partMin; at <= word.length - partMin; at++) {
    const cut = parts(at);
    if (!cut) continue;
    const [modifierWord, headWord] = cut;
    const [modifier, head] = [content(modifierWord), content(headWord)];
    if (!modifier || !head || modifier === term || head === term) continue;
    if (!candidates.some((c) => c.modifier.term === modifier && c.head.term === head)) candidates.push({ modifier: { term: modifier, word: modifierWord }, head: { term: head, word: headWord } });
  }
  return candidates.length ? { term, candidates } : undefined;
}
