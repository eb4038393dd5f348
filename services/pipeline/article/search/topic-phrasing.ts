import { baseLanguage } from "../../../../shared/text/stopwords";
import { capitalizeFirst, fill, languagePack } from "../language/phrases";
import type { ArticleBrief } from "../types";

/**
 * How the pipeline puts the topic (or keyword) into its own words: titles, variants, the framing sentence.
 * A topic is a phrase, often a clause ("How contractors can cut drive time") or a question: it is never
 * pasted into "What is {K}?", and mid-sentence its first letter goes to lower case unless it opens with a
 * name or an acronym. Title shapes are English; other languages keep their templates (with the same casing rule).
 */
export type TopicShape = "how-can" | "how-to" | "how" | "why" | "question" | "best" | "versus" | "noun";

const QUESTION_OPENERS = /^(what|when|where|which|who|whom|whose|is|are|can|could|should|do|does|did|will|would)\b/i;

/**
 * "How <who> <modal> <verb> …" ("How contractors can cut drive time"): the one pattern both the shape test and
 * the rephrasing read, so a topic called "how-can" can always be taken apart. A question with the modal first
 * ("How can I contribute to …?") is a question, not this shape.
 */
const HOW_WHO_CAN = /^how\s+(?!(?:can|could|should|do|does|did|will|would|might|is|are)\b)(.+?)\s+(can|could|should|do|does|will|might)\s+(\S+)(.*)$/i;

export function topicShape(topic: string): TopicShape {
  const t = topic.trim();
  if (/^how\s+to\b/i.test(t)) return "how-to";
  if (HOW_WHO_CAN.test(t.replace(/[?!]+$/, ""))) return "how-can";
  if (/^how\b/i.test(t)) return "how";
  if (/^why\b/i.test(t)) return "why";
  if (QUESTION_OPENERS.test(t) || t.endsWith("?")) return "question";
  if (/^(the\s+)?(best|top)\b/i.test(t)) return "best";
  if (/\s(vs\.?|versus)\s/i.test(t)) return "versus";
  return "noun";
}

/** An English question with its verb before its subject: "How can I …", "What does …", "Where do I …". */
const INVERTED_QUESTION = /^(how|what|where|when|why|which|who)\s+(can|could|should|do|does|did|will|would|is|are|was|were|has|have|must|may|might|shall)\b/i;

/**
 * A keyword written as a direct question: it ends with a question mark (or opens with Spanish «¿»), or, in English,
 * puts its verb before its subject. Such a keyword is a question, and is framed as one (`framingQuestion`).
 */
export function isDirectQuestion(keyword: string, lang: string): boolean {
  const t = keyword.trim();
  return /[?？]$/.test(t) || t.startsWith("¿") || (isEnglish(lang) && INVERTED_QUESTION.test(t));
}

/** A direct question as it was asked, without its question marks («¿», "?"): what `framingQuestion` quotes. */
export const questionAsAsked = (keyword: string) => keyword.trim().replace(/^¿\s*/, "").replace(/[\s?？!.]+$/, "");

/** A phrase that reads as a clause or question, not a noun phrase: templates like "What is {K}?" do not fit it. */
export const isClause = (phrase: string) => topicShape(phrase) !== "noun" && topicShape(phrase) !== "best" && topicShape(phrase) !== "versus";

/**
 * The phrase as it reads mid-sentence: its first letter in lower case, unless the first word is an acronym
 * ("CRM"), has capitals inside ("HubSpot", "iPhone"), is followed by another capitalised word (a name:
 * "Google Ads"), or is the brand's name. German writes every noun with a capital wherever it stands
 * ("Thema dieses Artikels: Zimmerpflanzen pflegen"): there only a leading article goes to lower case.
 */
export const LEADING_ARTICLES: ReadonlySet<string> = new Set(["the", "a", "an", "le", "la", "les", "un", "une", "der", "die", "das", "ein", "eine", "el", "los", "las", "una"]);

export function embedPhrase(phrase: string, brandName?: string | null, lang = "en"): string {
  const text = phrase.trim().replace(/[.?!]+$/, "");
  const [first = "", second = ""] = text.split(/\s+/);
  if (!first || first[0] !== first[0].toUpperCase() || first[0] === first[0].toLowerCase()) return text;
  // A leading article is never a name's: "The APT system" is asked as "What does the APT system do?".
  const brand = Boolean(brandName && text.toLowerCase().startsWith(brandName.toLowerCase().split(/\s+/)[0]));
  if (second && !brand && LEADING_ARTICLES.has(first.toLowerCase())) return first.toLowerCase() + text.slice(first.length);
  if (baseLanguage(lang) === "de") return text;
  // A capitalised word after it makes a name of the two ("Google Ads"), unless the first is a verb in -ing, as
  // requests open ("Understanding Debian's package management tools" was framed "… looks at Understanding …").
  const gerund = /^\p{Lu}\p{Ll}{2,}ing$/u.test(first) && baseLanguage(lang) === "en";
  const keep =
    (first.length > 1 && first === first.toUpperCase()) ||
    /\p{Lu}/u.test(first.slice(1)) ||
    (/^\p{Lu}/u.test(second) && !/^(I|A)$/.test(second) && !gerund) ||
    brand;
  return keep ? text : first[0].toLowerCase() + text.slice(1);
}

/** "cut" → "cutting", "reduce" → "reducing", "plan" → "planning", "boost" → "boosting". */
export function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (v.endsWith("ie")) return `${v.slice(0, -2)}ying`;
  if (v.endsWith("e") && !/(ee|ye|oe)$/.test(v)) return `${v.slice(0, -1)}ing`;
  if (v.length <= 4 && /[^aeiou][aeiou][^aeiouwxy]$/.test(v)) return `${v}${v[v.length - 1]}ing`;
  return `${v}ing`;
}

/**
 * A phrase built on a verb rather than a noun: it opens with a verb in -ing and goes on ("Getting started with
 * systemd", "Managing user accounts and passwords"), or ends with an infinitive ("Common composting mistakes to
 * avoid"). Templates that wrap a noun read wrong around it: "Understanding getting started with systemd: the
 * essentials", "Common composting mistakes to avoid explained" (read in the article-quality bench's variants).
 * An -ing noun ("Building regulations") is taken for one too: it then loses two templates, never its grammar.
 */
export function isVerbPhrase(phrase: string): boolean {
  const words = phrase.trim().split(/\s+/);
  return (words.length > 1 && /^\p{L}\p{Ll}{2,}ing$/u.test(words[0])) || /\sto\s+\p{Ll}+$/u.test(phrase.trim());
}

/** A title template that holds a verb phrase: the phrase opens it before a colon, or follows "… to" ("A practical guide to {K}"). */
export const holdsVerbPhrase = (template: string) => /^\{K\}\s?:/.test(template) || /\bto \{K\}$/.test(template);

/** Title case is not used: sentence case, first letter up, the rest as written. */
const sentence = (text: string) => capitalizeFirst(text.trim());

/**
 * Title and variants for the topic (English shapes): the topic itself when it reads as a title (a clause,
 * a question, or a noun phrase longer than 50 characters, kept in its own case, no suffix), else the noun
 * phrase with the intent's suffix; variants rephrase it grammatically per shape.
 */
export function englishTitles(brief: Pick<ArticleBrief, "topic" | "keyword" | "intent" | "brand">): string[] {
  const topic = brief.topic.trim().replace(/\.$/, "");
  const brand = brief.brand?.name;
  const bare = topic.replace(/[?!]+$/, "");
  const inner = embedPhrase(bare, brand);
  const shape = topicShape(topic);
  const out: string[] = [];
  switch (shape) {
    case "how-can": {
      const m = HOW_WHO_CAN.exec(bare)!;
      const [, who, modal, verb, rest] = m;
      out.push(sentence(topic));
      out.push(`${sentence(gerund(verb) + rest)}: a guide for ${embedPhrase(who, brand)}`);
      out.push(`How ${modal.toLowerCase()} ${embedPhrase(who, brand)} ${verb}${rest}?`);
      out.push(`Practical ways ${embedPhrase(who, brand)} ${modal.toLowerCase()} ${verb}${rest}`);
      break;
    }
    case "how-to": {
      const m = /^how\s+to\s+(\S+)(.*)$/i.exec(bare)!;
      out.push(sentence(topic));
      out.push(`${sentence(gerund(m[1]) + m[2])}: a practical guide`);
      out.push(`${sentence(bare)}: step by step`);
      out.push(`Practical ways to ${m[1]}${m[2]}`);
      break;
    }
    case "why": {
      out.push(sentence(topic));
      out.push(`${sentence(bare)}: the essentials`);
      const m = /^why\s+(.+?)\s+(matters|counts)$/i.exec(bare);
      if (m) out.push(`The case for ${embedPhrase(m[1], brand)}`, `${sentence(m[1])}: why it matters`);
      else out.push(`${sentence(bare)}: what the evidence says`, `${sentence(bare)}, explained`);
      break;
    }
    case "how":
    case "question": {
      const asked = /[?]$/.test(topic) || shape === "how" ? `${sentence(bare)}?` : sentence(topic);
      out.push(sentence(topic));
      out.push(`${asked} A practical guide`, `${asked} What you need to know`, `${asked} Key facts`);
      break;
    }
    case "best": {
      out.push(topic.length > 50 ? sentence(topic) : `${sentence(bare)}: what to look for`);
      out.push(`How to choose the ${inner.replace(/^the\s+/i, "")}`, `Choosing the ${inner.replace(/^the\s+/i, "")}: a buyer's guide`, `${sentence(bare)}, compared`);
      break;
    }
    case "versus": {
      const [a, b] = bare.split(/\s+(?:vs\.?|versus)\s+/i);
      out.push(topic.length > 50 ? sentence(topic) : `${sentence(bare)}: key differences`);
      out.push(`${sentence(a)} or ${embedPhrase(b, brand)}: which should you choose?`, `Comparing ${embedPhrase(a, brand)} and ${embedPhrase(b, brand)}`, `${sentence(bare)}: how they compare`);
      break;
    }
    default: {
      const pack = languagePack("en");
      // The phrase the titles are built on names the keyword: the topic when it contains it, else the keyword.
      const phrase = bare.toLowerCase().includes(brief.keyword.toLowerCase()) ? bare : brief.keyword;
      if (phrase === bare && bare.length > 50) out.push(sentence(bare));
      const templates = pack.titles[brief.intent].filter((t) => !isVerbPhrase(phrase) || holdsVerbPhrase(t));
      for (const template of templates) out.push(sentence(fill(template, { K: template.startsWith("{K}") ? phrase : embedPhrase(phrase, brand) })));
    }
  }
  return [...new Set(out)];
}

/** Fills a template, the keyword lower-cased where it stands mid-sentence. */
export function fillWithPhrase(template: string, values: Record<string, string>, brandName?: string | null, lang = "en"): string {
  const embedded = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, template.startsWith(`{${k}}`) ? v : embedPhrase(v, brandName, lang)]));
  return capitalizeFirst(fill(template, embedded));
}

export function isEnglish(lang: string): boolean {
  return baseLanguage(lang) === "en";
}
