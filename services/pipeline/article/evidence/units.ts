import { Bm25Index } from "../../../../shared/text/bm25";
import { countWords, endsOnOpenAbbreviation, splitSentences, wordsOf } from "../../../../shared/text/segment";
import { baseLanguage } from "../../../../shared/text/stopwords";
import { termSet } from "./similarity";
import type { Evidence } from "../types";
import { languageProfile } from "../language";
import type { SentenceRules } from "../language/profile";
import { parseHeadingLine } from "../../../../shared/text/heading-line";

/** How sentences of a language are read (`LanguageProfile.sentences`): its profile's rules (the API refuses any other language). */
const rulesOf = (lang: string): SentenceRules => languageProfile(lang).sentences;

/**
 * A citable unit of evidence: one sentence, or a sentence with the ones after it that lean on it
 * ("It works offline…" needs the sentence naming "it"), so no unit is read without its antecedent.
 */
export interface EvidenceUnit {
  /** `<evidence id>#<first sentence index>`. */
  key: string;
  evidenceId: string;
  /**
   * The heading the unit stands under in its source: the passage's heading path, and the subsection's heading
   * when the passage's text holds it (a chunk holding several small subsections, each introduced by its heading
   * line: `### Will there be different versions of packages?`). Ranking reads it with the text.
   */
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
const TERMINAL = /[.!…]["”’»)]*$/;

/** A sentence that can stand as a claim: a complete statement (not a question, heading or fragment) of a sensible length, prose rather than code or boilerplate. */
export function isUsableSentence(sentence: string, lang: string): boolean {
  const words = countWords(sentence, lang);
  if (words < MIN_WORDS || words > MAX_WORDS) return false;
  if (!TERMINAL.test(sentence)) return false;
  // Table rows flattened by extraction ("Starter | $29 | 5") are data, not prose.
  if (sentence.includes(" | ")) return false;
  if (looksLikeCode(sentence) || isBoilerplate(sentence, lang) || isFragment(sentence) || rulesOf(lang).numberedSection.test(sentence) || rulesOf(lang).announcesList.test(sentence)) return false;
  if (hasUnpairedMarks(sentence) || speaksInFirstPerson(sentence, lang) || isHeadingLike(sentence, lang) || isLabelledItem(sentence, lang)) return false;
  // Cut before what it announced: "… von dpkg, z.B." ended its paragraph, and its example was a code block.
  if (endsOnOpenAbbreviation(sentence)) return false;
  return /^[\p{Lu}\p{N}"“„«¿¡(]/u.test(sentence);
}

/**
 * Quotation marks or brackets that do not pair up: the sentence was cut out of a command, a
 * quotation or a parenthesis (« dpkg --set-selection <dpkg-selections.list". », or a unit that opens a
 * parenthesis whose ")" stayed in the source), so it is not what the source says.
 * « and », ( and ), [ and ] must match in number; curly double quotes (“…”, „…“) and straight ones must come in pairs.
 */
export function hasUnpairedMarks(sentence: string): boolean {
  const count = (re: RegExp) => (sentence.match(re) ?? []).length;
  return (
    count(/«/g) !== count(/»/g) ||
    count(/\(/g) !== count(/\)/g) ||
    count(/\[/g) !== count(/\]/g) ||
    count(/[“”„]/g) % 2 === 1 ||
    count(/"/g) % 2 === 1
  );
}

/** The source's author speaking as "I": a brand's article must not quote a manual's author's habits as its own voice (`SentenceRules.firstPerson`). */
export function speaksInFirstPerson(sentence: string, lang: string): boolean {
  return rulesOf(lang).firstPerson.test(sentence);
}

/**
 * A heading or list item standing as a sentence: an infinitive instruction with no finite verb
 * (« Faire la sauvegarde de l'ensemble du système (…). », "Saber como respaldar y recuperar datos.",
 * "Regelmäßig Sicherungen erstellen.") or a gerund label ("Knowing what to backup and recover."). It states
 * nothing; in the source it titled what followed. Only short lines (≤ 20 words) are judged: a long sentence
 * opening with an infinitive carries a verb the `finite` lists do not hold often enough to be worth the risk.
 */
const HEADING_LIKE_MAX_WORDS = 20;

/**
 * A list item of the "label: description" kind, with no verb on either side of the colon: "Cron job as a user
 * process: files in "/var/spool/cron/crontabs" directory and restart cron(8).", "Idiotensicheres Vorgehen:
 * Sicherung durch einen einfachen Befehl.", "Paketmanagement-Werkzeuge: apt, apt-get / apt-cache und aptitude."
 * In its list it answered the list's lead ("what to back up"); quoted alone it states nothing. Whether the
 * description is a sentence of its own is the language's to tell (`SentenceRules.descriptionIsSentence`).
 */
const LABEL_MAX_WORDS = 6;
export function isLabelledItem(sentence: string, lang: string): boolean {
  const m = /^([^:]{2,80}):\s+(.+)$/u.exec(sentence.trim());
  if (!m) return false;
  const rules = rulesOf(lang);
  const [label, description] = [m[1], m[2]];
  if (wordsOf(label, lang).length > LABEL_MAX_WORDS || rules.finite.test(label) || rules.finite.test(description)) return false;
  if (rules.instructionLabel?.test(label)) return false;
  return !rules.descriptionIsSentence(description);
}

export function isHeadingLike(sentence: string, lang: string): boolean {
  const rules = rulesOf(lang);
  const words = wordsOf(sentence, lang);
  if (!words.length || words.length > HEADING_LIKE_MAX_WORDS) return false;
  // What the parentheses hold is an aside: "Faire la sauvegarde (… ce qui est …)." is still a label; a sentence
  // wholly in parentheses is judged by what it holds.
  const trimmed = sentence.trim();
  const main = /^\(.*\)[.!]?$/.test(trimmed) ? trimmed.slice(1) : trimmed.replace(/\([^)]*\)/g, " ");
  if (rules.infinitiveLastLine) return rules.infinitiveLastLine(words, main);
  const opener = rules.infinitiveOpener;
  if (!opener || !opener.test(words[0]) || rules.notInfinitives.has(words[0].toLowerCase())) return false;
  return !rules.finite.test(main) && !rules.finiteAt?.(wordsOf(main, lang));
}

/**
 * Not a statement: an exclamation (a call to action, "Merci de nous aider … !"), or a quoted title or path
 * with little around it ("« FAQ de Debian GNU/Linux, chapitre 6 ». ", "« /usr/share/doc/… » du paquet …").
 */
function isFragment(sentence: string): boolean {
  // An exclamation, or a list trailing off ("human, hardware, software, …").
  if (/(!|…|\.\.\.)["”’»)\s]*$/.test(sentence)) return true;
  // A list of bug reports and nothing else ("Fehler #411123, Fehler #514930 und Fehler #570377.").
  if (BUG_REPORT.test(sentence) && wordsOf(sentence.replace(/(\p{L}+\s*)?#\d+/gu, " ")).length <= 1) return true;
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

export function isBoilerplate(sentence: string, lang: string): boolean {
  return rulesOf(lang).boilerplate.test(sentence) || rulesOf("en").boilerplate.test(sentence) || sendsElsewhere(sentence, lang);
}

/** A bug report by its number ("#411280"): a document elsewhere, like a manual page. */
const BUG_REPORT = /(?<![\w#])#\d{3,}\b/;

export function sendsElsewhere(sentence: string, lang: string): boolean {
  const rules = rulesOf(lang);
  return rules.sendsTo.test(sentence) && (MAN_PAGE.test(sentence) || BUG_REPORT.test(sentence) || /\/usr\/share\/doc\b/.test(sentence) || rules.documentation.test(sentence));
}

/**
 * How a sentence leans on the one before: "pronoun" (it names what came before: "It works offline…", "This
 * situation…"), "link" (it adds to it: "Equally, …", « Si vous le faites, … », "antes de hacerlo"; or it answers
 * a question: "The answer is …"), or not at all.
 * A link says something new of its own: it joins its antecedent only when it shares a content term with it.
 */
export function dependencyOf(sentence: string, lang: string): "pronoun" | "link" | null {
  if (!dependsOnPrevious(sentence, lang)) return null;
  const base = baseLanguage(lang);
  return opensAsLink(openingOf(sentence), base) || doesIt(sentence, base) || opensAfterSteps(sentence, base) ? "link" : "pronoun";
}

/** The sentence lower-cased from its first word on (opening quotes, brackets and ¿ ¡ left out). */
const openingOf = (sentence: string) => sentence.trim().replace(/^[¿¡"“„«(\s]+/u, "").toLowerCase();
/** The opening ties the sentence to what came before without naming it: a connective ("However, …") or an answer ("Yes, …"). */
const opensAsLink = (opening: string, base: string) => rulesOf(base).connectiveOpeners.test(opening) || rulesOf(base).answerOpeners.test(opening);
const doesIt = (sentence: string, base: string) => rulesOf(base).doingIt?.test(sentence) ?? false;

/**
 * "Now …" opening a sentence ("Now you are in the shell.", « Maintenant, « la » fonctionnera … »): it says what
 * the steps before it did. Inside a sentence "now" is as often news ("Month-end close now takes two days"), and
 * ties the sentence to the one before only after a step (`splitIntoUnits`).
 */
function opensAfterSteps(sentence: string, base: string): boolean {
  const first = wordsOf(sentence, base)[0];
  return first !== undefined && rulesOf(base).afterSteps.test(first);
}

/** A sentence that only makes sense after the one before it: it opens with a pointer word or a connective, or uses a pronoun anywhere. */
export function dependsOnPrevious(sentence: string, lang: string): boolean {
  const base = baseLanguage(lang);
  const rules = rulesOf(base);
  // A sentence in parentheses is an aside to the one before; "do this" points back as a pronoun does.
  if (/^\(.*\)[.!]?$/.test(sentence.trim()) || /\b(do|does|did|doing|done) (this|that)\b/i.test(sentence) || doesIt(sentence, base)) return true;
  if (opensAfterSteps(sentence, base)) return true;
  const words = wordsOf(sentence, lang).map((w) => w.toLowerCase());
  if (!words.length) return false;
  if (rules.dependentOpeners.has(words[0])) return true;
  const lower = openingOf(sentence);
  if (opensAsLink(lower, base)) return true;
  const comma = lower.indexOf(", ");
  if (comma > 0 && rules.clausePointers.test(lower.slice(comma + 2))) return true;
  if (rules.antecedent.test(sentence) || rules.leansBack?.(sentence)) return true;
  // A pronoun as the first word was handled above (`dependentOpeners`); elsewhere in the sentence it points back too,
  // unless the language says otherwise or the word points forward ("such as").
  if (rules.anaphoraOpensOnly) return false;
  const scanned = rules.forwardPhrases ? wordsOf(sentence.replace(rules.forwardPhrases, " "), lang).map((w) => w.toLowerCase()) : words;
  return scanned.some((w) => rules.anaphora.has(w));
}

/**
 * How a sentence leans on the one before it in its quote (`previous`; undefined when it opens the quote): as
 * `dependencyOf` says, or, when it says "now", as the result of a step: after a step, or at the opening of a
 * quote, where the step may have been cut off ("Editieren Sie "/etc/passwd" … . Die root-Shell des Systems ist
 * jetzt ohne Passwort zugänglich.").
 */
export function leansOn(sentence: string, previous: string | undefined, lang: string): "pronoun" | "link" | null {
  const afterStep = (previous === undefined || isStep(previous, lang)) && rulesOf(lang).afterSteps.test(sentence);
  return afterStep ? "pronoun" : dependencyOf(sentence, lang);
}

/** A step the reader is told to take, in languages whose imperative has a form of its own (`SentenceRules.imperative`). */
export function isStep(sentence: string, lang: string): boolean {
  return rulesOf(lang).imperative?.(sentence.trim()) ?? false;
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

/** A manual page reference, "apt_preferences(5)", "ip(8)" (`MAN_PAGES`: every one, for `replace`). */
const MAN_PAGE = /[\w.+-]+\(\d\w?\)/;
const MAN_PAGES = new RegExp(MAN_PAGE.source, "g");
/** A parenthetical, one level of nested parentheses allowed ("(ip(8), …)"). */
const PARENTHETICAL = /\s*\((?:[^()]|\([^()]*\))*\)/g;

/**
 * The sentence without its parentheticals that only point into the source document (a section or chapter
 * number, "see …", or nothing but manual pages): the claim stays, the pointer goes. The result is still a
 * run of the source's own words; only the aside is left out.
 */
export function stripCrossReferences(sentence: string, lang: string): string {
  const rule = rulesOf(lang).crossReference;
  const stripped = sentence.replace(PARENTHETICAL, (paren) => {
    const inner = paren.trim().slice(1, -1);
    const pointsAway = (rule.test(inner) && /\d|“|"|«|„|\(\d/.test(inner)) || /^\s*(see|voir|siehe|véase|vea|consulte)\b/i.test(inner);
    const onlyManPages = inner.replace(MAN_PAGES, "").replace(/[\s,;…]|\.{3}|\b(and|et|und|y|etc)\b\.?/g, "") === "" && MAN_PAGE.test(inner);
    return pointsAway || onlyManPages ? "" : paren;
  });
  return stripped === sentence ? sentence : stripped.replace(/\s+([.,;:!?])/g, "$1").replace(/\s{2,}/g, " ").trim();
}

/**
 * A passage's text cut at its heading lines: each run of text with the heading path it stands under (the passage's
 * own, then the subsection's a heading line opens). A heading is no sentence: a FAQ's question heading ("The stable
 * distributions really contains outdated packages. … Why is it so?") was quoted as a claim, its question dropped.
 */
function underHeadings(evidence: Evidence): { heading: string; text: string }[] {
  const base = evidence.heading ? evidence.heading.split(" › ") : [];
  const runs: { heading: string; text: string }[] = [{ heading: evidence.heading ?? "", text: "" }];
  for (const line of evidence.quote.split("\n")) {
    const marked = parseHeadingLine(line);
    if (!marked) {
      const run = runs[runs.length - 1];
      run.text = run.text ? `${run.text}\n${line}` : line;
      continue;
    }
    const path = [...base.slice(0, marked.level - 1), marked.heading];
    runs.push({ heading: path.join(" › "), text: "" });
  }
  return runs.filter((r) => r.text.trim());
}

function splitIntoUnits(evidence: Evidence, lang: string): EvidenceUnit[] {
  const sentences = underHeadings(evidence).flatMap((run) =>
    splitSentences(run.text, lang).map((s, i) => ({ text: stripCrossReferences(s.text, lang), heading: run.heading, opensRun: i === 0 })),
  );
  const units: EvidenceUnit[] = [];
  let current: { position: number; heading: string; sentences: string[] } | null = null;
  const close = () => {
    if (current && current.sentences.every((s) => isUsableSentence(s, lang))) {
      const text = current.sentences.join(" ");
      units.push({
        key: `${evidence.id}#${current.position}`,
        evidenceId: evidence.id,
        heading: current.heading,
        position: current.position,
        sentences: current.sentences,
        text,
        words: countWords(text, lang),
        terms: termSet(`${current.heading} ${text}`, lang),
      });
    }
    current = null;
  };
  sentences.forEach(({ text: sentence, heading, opensRun }, i) => {
    // A heading line opens a subsection: nothing before it is what a sentence after it leans on.
    if (opensRun) close();
    const dependency = leansOn(sentence, i > 0 && !opensRun ? sentences[i - 1].text : undefined, lang);
    // A dependent sentence joins the unit before it, unless it opens the quote (its antecedent was cut off).
    // A linked one ("Equally, …", « si vous le faites ») must also share a content term with it: otherwise it
    // adds something about another subject, and goes ("Proporciona la oportunidad de eliminar la basura …" +
    // "… antes de hacerlo" were two statements on two things).
    const joins = dependency === "pronoun" || (dependency === "link" && current !== null && sharesContentTerm(current.sentences, sentence, lang));
    if (current && dependency && joins && current.sentences.length < 3) {
      // A follower no claim can be made of (it announces a code block: "… fügen Sie folgendes hinzu:") goes
      // alone: what it leans on still stands, and so does the unit ("Das Programm quilt bietet eine grundlegende
      // Methode, …", the German maintainers' guide's only sentence introducing quilt, had gone with it).
      if (isUsableSentence(sentence, lang)) current.sentences.push(sentence);
      else close();
      return;
    }
    close();
    if (dependency) return;
    current = { position: i, heading, sentences: [sentence] };
  });
  close();
  return units;
}

function sharesContentTerm(before: readonly string[], sentence: string, lang: string): boolean {
  const prior = termSet(before.join(" "), lang);
  return [...termSet(sentence, lang)].some((t) => prior.has(t));
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
