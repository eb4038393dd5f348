import { isInLanguage } from "../../../../shared/text/language";
import { baseLanguage, isStopword } from "../../../../shared/text/stopwords";
import { tokenize } from "../../../../shared/text/tokenize";
import { wordsOf } from "../../../../shared/text/segment";
import { unitIndex, type EvidenceUnit } from "../evidence/units";
import { languageProfile } from "../language";
import { templateSubject } from "../language/phrases";
import { relevanceModel } from "../relevance";
import { embedPhrase, isClause, LEADING_ARTICLES } from "./topic-phrasing";
import type { ArticleBody, ArticleBrief, Evidence, FaqEntry } from "../types";

export const FAQ_MAX = 5;
/** "is", "are" and their German, French and Spanish forms: what a definition says. */
const COPULA = /\b(is|are|ist|sind|est|sont|es|son)\b/i;
const FAQ_ANSWER_MAX_WORDS = 70;
const QUESTION_MAX_WORDS = 20;
/** Numbered ordinals ("1st", "2e", "3.º", "2ème"): a thing named by its place in a list. */
const ORDINAL = /(^|[\s(])\d+(?:st|nd|rd|th|e|er|ère|ème|º|ª|\.º|\.ª)(?=[\s,?？)])/u;

/**
 * The FAQ (docs/article-pipeline.md#faq): real questions, each answered by a passage of the evidence that is
 * about the topic and that the body does not already quote, so an FAQ entry adds something rather than
 * repeating a sentence of the article. Questions come from, in order:
 *
 * 1. the model (with a model): it is shown the passages kept for the FAQ (`faqPassages`) and asks, of each it
 *    can, the question that passage answers alone; the pair stands when the question is well formed and at least
 *    half of its own terms are the answer's. Questions it asks with no passage are answered by the best unit that
 *    contains at least half of their own terms;
 * 1b. the shapes of on-topic evidence sentences in every supported language (`LanguageProfile.faqShapes`):
 *    a definition asks what its subject is, a procedure ("To restore a backup, run …") how to do it;
 * 2. English evidence sentences of a few safe shapes (`questionFromUnit`): the question is made from the
 *    sentence that answers it, so the answer holds what it asks about;
 * 3. passage headings of the evidence that are themselves questions, answered by their own passage;
 * 4. a few grammatical templates per language, only for a noun-phrase keyword ("What is APT pinning?"; in French,
 *    German and Spanish only when the keyword brings its article), answered by a definition: a sentence that opens
 *    with the keyword and says what it is.
 *
 * Every question is checked (`isWellFormedQuestion`): a question mark, a sensible length, no doubled words,
 * no heading pasted in ("…: an overview?"), in the article's language. An article gets 0 to 5 entries:
 * fewer good questions beat malformed ones.
 */
export function groundFaq(
  questions: readonly string[],
  brief: ArticleBrief,
  evidence: readonly Evidence[],
  { body, max = FAQ_MAX, alternatives = 1, asked = [] }: { body?: ArticleBody; max?: number; alternatives?: number; asked?: readonly AskedOfPassage[] } = {},
): FaqEntry[] {
  const lang = brief.language;
  const relevance = relevanceModel(evidence, brief);
  const quotedInBody = body ? quotedSentences(body) : new Set<string>();
  const units = relevance.aboutUnits.filter((u) => u.words <= FAQ_ANSWER_MAX_WORDS && !u.sentences.some((x) => quotedInBody.has(normalize(x))));
  const index = unitIndex(units, lang);
  const byKey = new Map(units.map((u) => [u.key, u]));
  const topicTerms = new Set(tokenize(`${brief.keyword} ${brief.topic}`, lang));
  const used = new Set<string>();
  const faq: FaqEntry[] = [];

  /** `alternative`: another answer to a question already listed (kept while the body is not final: `faqNotInBody`). */
  const add = (question: string, unit: EvidenceUnit, alternative = false) => {
    if (faq.length >= max || used.has(unit.key) || !isWellFormedQuestion(question, brief) || !answersAlone(unit, lang)) return;
    if (!alternative && faq.some((f) => normalize(f.question) === normalize(question))) return;
    used.add(unit.key);
    faq.push({ question, answer: unit.text, cites: [unit.evidenceId] });
  };
  // A unit that opens with the keyword ("APT pinning lets …") is what a "what is" question wants: it ranks double.
  const opensWithKeyword = (u: EvidenceUnit) => u.text.toLowerCase().startsWith(brief.keyword.toLowerCase());
  // At least half of a question's own terms (the topic's aside) are its answer's.
  const ownTermsIn = (question: string, u: EvidenceUnit) => {
    const own = tokenize(question, lang).filter((t) => !topicTerms.has(t));
    return own.filter((t) => u.terms.has(t)).length >= Math.ceil(own.length / 2);
  };
  const answersOf = (question: string, accept: (u: EvidenceUnit) => boolean): EvidenceUnit[] => {
    return index
      .search(`${question} ${brief.topic}`, 30, lang)
      .map((h) => ({ unit: byKey.get(h.id)!, score: h.score * (opensWithKeyword(byKey.get(h.id)!) ? 2 : 1) }))
      .sort((a, b) => b.score - a.score)
      .map((x) => x.unit)
      .filter((u) => !used.has(u.key) && accept(u) && ownTermsIn(question, u))
      .slice(0, alternatives);
  };
  // A template question asks what the keyword is or does: its answer opens with the keyword (within five words)
  // and says what it is, not a sentence that merely mentions it.
  const keywordTerms = tokenize(brief.keyword, lang);
  const namesKeyword = (u: EvidenceUnit) => {
    const opening = new Set(tokenize(wordsOf(u.sentences[0], lang).slice(0, 5 + keywordTerms.length).join(" "), lang));
    return keywordTerms.every((t) => opening.has(t)) && COPULA.test(u.sentences[0]);
  };
  /** `aboutKeyword`: a template question asks about the keyword itself; its answer must name it. */
  const answerAll = (list: readonly string[], aboutKeyword = false) => {
    for (const question of list) {
      if (faq.length >= max) break;
      answersOf(question, aboutKeyword ? namesKeyword : () => true).forEach((unit, n) => add(question, unit, n > 0));
    }
  };

  // The model's questions of the passages it was shown, each answered by its passage.
  for (const { question, unit: key } of asked) {
    const unit = byKey.get(key);
    if (unit && ownTermsIn(question, unit)) add(question, unit);
  }
  answerAll(questions);
  const ranked = units.map((u, i) => ({ u, i, score: relevance.strength(u) })).sort((a, b) => b.score - a.score || a.i - b.i).map((x) => x.u);
  // The questions evidence sentences answer by their shape, in the article's language (definitions, procedures).
  for (const u of ranked) for (const question of shapedQuestions(u.sentences[0], lang)) add(question, u);
  if (baseLanguage(lang) === "en") {
    const names = properNouns(units, lang);
    for (const u of ranked) {
      const question = questionFromUnit(u, names, brief.brand?.name);
      if (question) add(question, u);
    }
  }
  for (const u of ranked) {
    const question = headingQuestion(u);
    if (question) add(question, u);
  }
  if (!isClause(brief.keyword)) answerAll(templateQuestions(brief), true);
  return faq;
}

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();

const quotedSentences = (body: ArticleBody) => new Set(body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => normalize(x.text)))));

/**
 * The FAQ of an article: the candidates (best first, chosen before the body was final) whose answers the body
 * does not quote, the first surviving answer of each question, at most `FAQ_MAX`. An entry never repeats a
 * sentence of the article.
 */
export function faqNotInBody(candidates: readonly FaqEntry[], body: ArticleBody): FaqEntry[] {
  const quoted = quotedSentences(body);
  const asked = new Set<string>();
  return candidates
    .filter((f) => ![...quoted].some((q) => q && normalize(f.answer).includes(q)))
    .filter((f) => !asked.has(normalize(f.question)) && asked.add(normalize(f.question)))
    .slice(0, FAQ_MAX);
}

/** How many FAQ answers the draft leaves unquoted, when the relevant evidence is plentiful (`reserveFaqAnswers`). */
export const FAQ_RESERVED = 3;

/** Articles asked this long or longer get FAQ answers kept out of their body (`reserveFaqAnswers`). */
export const FAQ_RESERVE_FROM_WORDS = 800;

/**
 * Sentences kept out of the body for the FAQ, by their text: a unit is held back when any of its sentences is.
 * Until 2026-11-27 the reserve held units by key (passage and position), and a crawled page's overlapping
 * chunks give one sentence under two keys: the body quoted from the other chunk what the FAQ was kept to
 * answer with, and the English package-management article lost its third pair so.
 */
export type FaqReserve = ReadonlySet<string>;

/** A reserve of these sentences. */
export const faqReserve = (sentences: readonly string[]): Set<string> => new Set(sentences.map(normalize));

export const isReservedForFaq = (unit: Pick<EvidenceUnit, "sentences">, reserved: FaqReserve | undefined): boolean =>
  Boolean(reserved?.size) && unit.sentences.some((s) => reserved!.has(normalize(s)));

/**
 * What is kept out of the body for the FAQ: the sentences of the strongest relevant units whose shape asks a
 * well-formed question (a definition, a procedure; in English also the shapes of `questionFromUnit`), at most
 * `FAQ_RESERVED` units, in an article asked for 800 words or more. The FAQ and the body draw on the same
 * evidence, and a body that quotes every relevant unit leaves the FAQ nothing to answer with (it never repeats
 * a body sentence); the body is then at most three sentences shorter, and the FAQ says them.
 */
export function reserveFaqAnswers(brief: ArticleBrief, evidence: readonly Evidence[], requestedWords: number): Set<string> {
  if (requestedWords < FAQ_RESERVE_FROM_WORDS) return new Set();
  const relevance = relevanceModel(evidence, brief);
  const units = relevance.aboutUnits.filter((u) => u.words <= FAQ_ANSWER_MAX_WORDS);
  const english = baseLanguage(brief.language) === "en";
  const names = english ? properNouns(units, brief.language) : new Set<string>();
  const rulesAsk = (u: EvidenceUnit) =>
    answersAlone(u, brief.language) &&
    [...shapedQuestions(u.sentences[0], brief.language), ...(english ? [questionFromUnit(u, names, brief.brand?.name)] : [])].some((q) => q !== undefined && isWellFormedQuestion(q, brief));
  const reserve = faqReserve([]);
  let kept = 0;
  for (const u of [...units].sort((a, b) => relevance.strength(b) - relevance.strength(a))) {
    if (kept >= FAQ_RESERVED) break;
    if (isReservedForFaq(u, reserve) || !rulesAsk(u)) continue;
    for (const sentence of faqReserve(u.sentences)) reserve.add(sentence);
    kept++;
  }
  return reserve;
}

/** A question the model asked of a passage it was shown (`faqPassages`): the passage's unit key. */
export interface AskedOfPassage {
  question: string;
  unit: string;
}

/** How many passages the seo stage's model is shown to ask FAQ questions of. */
export const FAQ_PASSAGES = 8;

/**
 * The passages a model asks FAQ questions of: those kept out of the body for the FAQ (`reserveFaqAnswers`),
 * then the strongest other relevant units short enough to be an answer and read alone (the body may not quote
 * them: `faqNotInBody` keeps those it does not), at most `FAQ_PASSAGES`.
 */
export function faqPassages(brief: ArticleBrief, evidence: readonly Evidence[], reserved: FaqReserve): EvidenceUnit[] {
  const relevance = relevanceModel(evidence, brief);
  const units = relevance.aboutUnits.filter((u) => u.words <= FAQ_ANSWER_MAX_WORDS && answersAlone(u, brief.language));
  const ranked = [...units].sort((a, b) => Number(isReservedForFaq(b, reserved)) - Number(isReservedForFaq(a, reserved)) || relevance.strength(b) - relevance.strength(a));
  const seen = new Set<string>();
  return ranked.filter((u) => !seen.has(normalize(u.text)) && seen.add(normalize(u.text))).slice(0, FAQ_PASSAGES);
}

/** The questions a sentence asks by its shape in its language (`LanguageProfile.faqShapes`): a definition, a procedure. */
export function shapedQuestions(sentence: string, lang: string): string[] {
  return languageProfile(lang).faqShapes.flatMap(({ shape, ask }) => {
    const match = shape.exec(sentence);
    const question = match ? ask(match) : undefined;
    return question ? [question] : [];
  });
}

/**
 * An answer is read alone, under its question: one that points at something ("the solution for this group of
 * people", read in the held-out probe's FAQ) answers nothing there. Stricter than the body's rule, which lets a
 * mid-sentence "this" pass (as a pointer it would cost covered requests their articles; an FAQ pair costs none).
 * Its first sentence only: what a linked continuation points at is the sentence before it, in the answer too. Nor
 * does a remark on an answer ("Note that …": `LanguageProfile.asideOpener`). The reserve holds back only such units:
 * one the FAQ would then refuse cost the article a sentence and the FAQ its pair.
 */
function answersAlone(unit: EvidenceUnit, lang: string): boolean {
  const first = unit.sentences[0];
  return !pointsAtSomething(first, lang) && !languageProfile(lang).asideOpener.test(first) && !namesByPlaceAlone(first, lang);
}

/** What a place word's noun is placed in: "of", « de », "von", «de», "in" and their contractions. */
const PLACED_IN = /^\s+[\p{L}\p{N}-]+\s+(?:of|in|on|de|du|des|d['’]|dans|von|vom|im|in der|der|del|en)(?![\p{L}])/iu;

/**
 * The text names a thing by its place with nothing to place it in: "change the third field to 'unstable'", «
 * remplacez le troisième champ par unstable » (readers turned both down as answers, bench/faq-labels.json), where
 * "the third field of /etc/apt/sources.list" was accepted. A question never does so (`isWellFormedQuestion`).
 */
export function namesByPlaceAlone(text: string, lang: string): boolean {
  const place = languageProfile(lang).placeWords;
  for (const m of text.matchAll(new RegExp(place.source, `${place.flags.replace("g", "")}g`))) if (!PLACED_IN.test(text.slice(m.index! + m[0].length))) return true;
  return false;
}

/** The text names something by pointing at it (a demonstrative of its language): read alone, there is nothing to point at. */
function pointsAtSomething(text: string, lang: string): boolean {
  const { demonstratives, sentences } = languageProfile(lang);
  const words = wordsOf(text, lang).map((w) => w.toLowerCase());
  // A question ending on a pronoun asks about what the sentence before its answer named ("How do you avoid
  // that?", from "To avoid that, Valgrind will …": 2026-11-28, the probe's Valgrind manual).
  const last = words[words.length - 1];
  return words.some((w) => demonstratives.has(w)) || (last !== undefined && (sentences.anaphora.has(last) || sentences.dependentOpeners.has(last)));
}

/** A question a reader would ask: ends with a question mark, 3–20 words, no word doubled, no heading pasted in, in the article's language. */
export function isWellFormedQuestion(question: string, brief: Pick<ArticleBrief, "language" | "topic" | "keyword">): boolean {
  const q = question.trim();
  if (!/[?？]$/.test(q) || !/^[¿\p{Lu}]/u.test(q)) return false;
  if (baseLanguage(brief.language) === "es" && !q.startsWith("¿")) return false;
  const words = wordsOf(q, brief.language);
  if (words.length < 3 || words.length > QUESTION_MAX_WORDS) return false;
  if (words.some((w, i) => i > 0 && w.toLowerCase() === words[i - 1].toLowerCase())) return false;
  // Outside English (where "What does it do?" is whole), a question ending on a function word was cut off
  // ("¿Cómo recuperar la información de configuración de?").
  if (baseLanguage(brief.language) !== "en" && isStopword(words[words.length - 1].toLowerCase(), brief.language)) return false;
  // Two sentences are no question ("I am still confused. What did you say I should install?"), nor is one that
  // carries its source's example along ("Wie kann man zum Beispiel das Paket foo installieren?").
  const profile = languageProfile(brief.language);
  if (/[.!?]\s+\S/.test(q.slice(0, -1)) || profile.exampleMarkers.test(q)) return false;
  // A colon inside a question is a heading pasted into it ("…: an overview?").
  if (/:\s/.test(q.replace(/\s[?？]$/, ""))) return false;
  // A thing named by its place in a list or text ("the 1st argument", "the latter") is nothing outside it.
  if (ORDINAL.test(q) || profile.placeWords.test(q) || profile.sentences.antecedent.test(q)) return false;
  // Nor is a relation with nothing to relate to ("What is the alternative?", "Was ist der Regex-Teil?").
  if (profile.relationalQuestion.test(q)) return false;
  // Nor is a thing named by pointing at it ("How do you deal with this avalanche?").
  if (pointsAtSomething(q, brief.language)) return false;
  return isInLanguage(q, brief.language, [brief.topic, brief.keyword]);
}

/** Words the sources capitalise mid-sentence (names: "Kestrel", "Polar"): a subject opening with one keeps its capital in a question. */
export function properNouns(units: readonly EvidenceUnit[], lang: string): Set<string> {
  const out = new Set<string>();
  // An article capitalised mid-sentence (a quoted title: "… in The Debian Handbook") is never a name.
  for (const u of units) for (const sentence of u.sentences) for (const w of wordsOf(sentence, lang).slice(1)) if (/^\p{Lu}/u.test(w) && !LEADING_ARTICLES.has(w.toLowerCase())) out.add(w);
  return out;
}

const PAST_TO_BASE: Record<string, string> = {
  fell: "fall", dropped: "drop", rose: "rise", grew: "grow", increased: "increase", decreased: "decrease", declined: "decline",
  improved: "improve", doubled: "double", halved: "halve", shrank: "shrink", climbed: "climb",
};
const SUBJECT_MAX_WORDS = 6;
/** Verbs that say what a thing has, holds or needs rather than what it does. */
const STATIVE = /^(has|contains|includes|holds|owns|lacks|uses|needs|requires|seems|looks|gets|comes|belongs|consists)$/;
/** A pronoun, a punctuation mark, a verb or question word (a clause, not a noun phrase: "Silence is what …"), or an adverb ("The page also lists …"). */
const BAD_SUBJECT = /[,;:"“”()]|\b(it|they|this|that|these|those|we|you|our|your|he|she|there|if|when|one|who|which|whose|where|what|how|why|is|are|was|were|be|been|also|still|then|only|just|even)\b/i;

/**
 * A question the unit's first sentence answers, from a few safe English shapes over its subject (the words
 * before the verb, at most six, no pronoun or punctuation): "The Starter plan costs $29 …" → "How much does
 * the Starter plan cost?"; "Average drive time fell to …" → "How much did average drive time fall?";
 * "Kestrel Dispatch is the scheduling board …" → "What is Kestrel Dispatch?"; "Route batching groups the
 * day's jobs …" → "What does route batching do?" under a heading naming route batching (`presents`), and no
 * question elsewhere. The subject is quoted from the sentence, so the answer always holds what the question asks
 * about.
 *
 * Elsewhere the sentence says one thing its subject does, and "What does X <verb>?" asked it: readers turned
 * down every such pair of the article-quality benches ("What does the kernel maintain?" in a systemd article,
 * "What does the APT system chose?", "What does game and font package?", a noun read as a verb), and the one of
 * the held-out probe read after ("What does the Package field give?"; `bench/faq-labels.json`).
 */
export function questionFromUnit(unit: EvidenceUnit, names: ReadonlySet<string>, brandName?: string | null): string | undefined {
  const first = unit.sentences[0];
  const subjectOf = (raw: string) => {
    const words = raw.trim().split(/\s+/);
    if (!raw.trim() || words.length > SUBJECT_MAX_WORDS || BAD_SUBJECT.test(raw) || !isNounPhrase(words)) return undefined;
    return names.has(words[0]) || (brandName && raw.startsWith(brandName.split(/\s+/)[0])) ? raw.trim() : embedPhrase(raw);
  };
  const hasFigure = /\d/.test(first);
  let m = /^(.+?) (costs?|is priced at) (.*)$/.exec(first);
  if (m && hasFigure) {
    const subject = subjectOf(m[1]);
    if (subject) return `How much ${m[2] === "cost" ? "do" : "does"} ${subject} cost?`;
  }
  m = new RegExp(`^(.+?) (${Object.keys(PAST_TO_BASE).join("|")})\\b`).exec(first);
  if (m && hasFigure) {
    const subject = subjectOf(m[1]);
    if (subject) return `How much did ${subject} ${PAST_TO_BASE[m[2]]}?`;
  }
  m = /^(.+?) (is|are) (a|an|the) /.exec(first);
  if (m) {
    const subject = subjectOf(m[1]);
    if (subject && subject.split(/\s+/).length <= 4) return `What ${m[2]} ${subject}?`;
  }
  m = /^(.+?) ([a-z]+[^s\W]s) (the|a|an|each|every|its|their|your|with)\b/.exec(first);
  // A verb of having or needing says what its subject is like, not what it does: "Debian has a
  // start-stop-daemon program …" does not answer "What does Debian do?".
  if (m && !/s$/.test(m[1]) && m[1].split(/\s+/).length <= 3 && !STATIVE.test(m[2])) {
    const subject = subjectOf(m[1]);
    if (subject && presents(unit.heading, m[1])) return `What does ${subject} do?`;
  }
  return undefined;
}

/**
 * Words that can be a subject: none a function word at the end, none but a determiner at the start ("Because
 * of costs arising before main …" asked "How much does because of cost?": the Valgrind manual, 2026-11-28).
 */
function isNounPhrase(words: readonly string[]): boolean {
  const [first, last] = [words[0].toLowerCase(), words[words.length - 1].toLowerCase()];
  return !isStopword(last, "en") && (!isStopword(first, "en") || languageProfile("en").determiners.has(first));
}

/**
 * Whether a passage's own heading (its last part) names every word of a subject: the passage presents it, and
 * what its first sentence says the subject does is what it does. Elsewhere the sentence says one thing it does:
 * "The kernel maintains the system hostname." (under "The hostname", in a systemd article) does not answer "What
 * does the kernel do?".
 */
function presents(heading: string, subject: string): boolean {
  const named = new Set(tokenize(heading.split("›").pop() ?? "", "en"));
  const terms = tokenize(subject, "en");
  return terms.length > 0 && terms.every((t) => named.has(t));
}

/** The passage's own heading, when it is a question its sentence answers (most of its terms are in the answer). */
function headingQuestion(unit: EvidenceUnit): string | undefined {
  const heading = unit.heading.split("›").pop()?.trim() ?? "";
  if (!/[?？]$/.test(heading) || heading.length > 120) return undefined;
  const asked = tokenize(heading).filter((t) => !["much", "mani", "long", "quick"].includes(t));
  return asked.length && asked.filter((t) => unit.terms.has(t)).length >= Math.ceil((asked.length * 2) / 3) ? heading : undefined;
}

/**
 * Grammatical template questions for a noun-phrase keyword. English uses its intent's questions; French,
 * German and Spanish the two shapes that hold whatever the noun ("Qu'est-ce que …", "Was ist …", "¿Qué es …");
 * French needs the keyword to bring its article ("la gestion des paquets"), else no template fits it.
 */
export function templateQuestions(brief: Pick<ArticleBrief, "keyword" | "language" | "intent" | "brand">): string[] {
  const base = baseLanguage(brief.language);
  const keyword = templateSubject(brief.keyword, brief.language);
  const k = embedPhrase(keyword, brief.brand?.name, brief.language);
  switch (base) {
    case "en":
      return ENGLISH_QUESTIONS[brief.intent].map((q) => q.replace("{K}", k));
    // German and Spanish nouns need their article in these questions ("Was ist ein Passwort?"): only a keyword that brings one fits.
    case "de":
      return /^(der|die|das|ein|eine)\b/i.test(keyword) ? [`Was ist ${keyword}?`, `Wie funktioniert ${keyword}?`] : [];
    case "es":
      return /^(el|la|los|las|un|una)\b/i.test(k) ? [`¿Qué es ${k}?`, `¿Cómo funciona ${k}?`] : [];
    case "fr": {
      if (!/^(le|la|les|l'|l’|un|une|des|du)\b/i.test(k)) return [];
      const que = /^[aeiouyéèêàâîôûh]/i.test(k) ? "qu'" : "que ";
      return [`Qu'est-ce ${que}${k} ?`, `Comment fonctionne ${k} ?`];
    }
    default:
      return [];
  }
}

const ENGLISH_QUESTIONS: Record<ArticleBrief["intent"], string[]> = {
  informational: ["What is {K}?", "How does {K} work?", "Why does {K} matter?"],
  commercial: ["How much does {K} cost?", "What should you look for in {K}?", "What is {K}?"],
  transactional: ["How do you get started with {K}?", "How much does {K} cost?", "What is {K}?"],
  navigational: ["What is {K}?", "How do you get help with {K}?"],
};
