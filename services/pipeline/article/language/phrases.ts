import { languageProfile } from "./index";
import type { SearchIntent } from "../types";

/**
 * The words the pipeline itself adds to an article (headings, FAQ questions, labels): each
 * language's are in its profile (`en.ts`, `fr.ts`, `de.ts`, `es.ts`), this is their shape.
 *
 * Templates: {K} the keyword, {T} the topic, {H} a heading, {A} the audience, {B} the brand.
 */
export interface LanguagePack {
  name: string;
  conclusionHeading: string;
  /** What heads an extractive section whose sentences share no source heading and no phrase (`section-names.ts`). */
  otherPointsHeading: string;
  /** The word that joins two phrases in a heading ("Pneus et chaîne"). */
  and: string;
  faqHeading: string;
  sourcesHeading: string;
  /** How a knowledge-base source without a public address is named in the source list. */
  knowledgeBaseLabel: string;
  /** The first body heading: it carries the keyword (SEO) and opens the subject. */
  overviewHeading: string;
  /**
   * The participle a request adds to its subject to ask for an explanation ("The debian/control file explained",
   * «El archivo debian/control explicado»): a title says it, a template says the subject without it (`templateSubject`).
   */
  explained: RegExp;
  /**
   * Body headings by intent, none naming the keyword: a keyword set into a heading needs the article and the
   * agreement the template cannot give it ("Why compost bin matters", "Why composting mistakes matters",
   * "Warum Passwort wichtig ist"). The overview heading names it.
   */
  bodyHeadings: Record<SearchIntent, string[]>;
  titles: Record<SearchIntent, string[]>;
  /** The sentence that names the subject in the first paragraph when the evidence does not. No facts in it. */
  framing: string;
  framingForAudience: string;
  /**
   * The same sentence for a keyword written as a direct question ("How can I contribute to the Debian project?"),
   * which no framing can embed as it is written ("This article looks at how can I contribute …" is no English):
   * it names the question as a question. {K} is the question without its question marks.
   */
  framingQuestion: string;
  questions: Record<SearchIntent, string[]>;
  sectionQuestion: string;
  coverAltModel: string;
  coverAltCard: string;
  keyPoints: string;
  threadOpener: string;
  readMore: string;
}

/** The pipeline's own words in a supported language (throws for any other: the API refuses them). */
export function languagePack(lang: string): LanguagePack {
  return languageProfile(lang).phrases;
}

/** Fills a template: {K} keyword, {T} topic/title, {H} heading, {A} audience, {B} brand. */
export function fill(template: string, values: Partial<Record<"K" | "T" | "H" | "A" | "B", string>>): string {
  return template.replace(/\{([KTHAB])\}/g, (_, key: "K" | "T" | "H" | "A" | "B") => values[key] ?? "");
}

/**
 * The keyword as templates set it in a sentence or a heading: without a trailing participle asking for an
 * explanation. "This article looks at the debian/control file explained." and «El archivo debian/control explicado:
 * una visión general» say it twice (read in the held-out probe).
 */
export function templateSubject(keyword: string, lang: string): string {
  const subject = keyword.trim().replace(languagePack(lang).explained, "").trim();
  return subject || keyword.trim();
}

/** A string with its first letter in upper case (templates that start with the keyword). */
export function capitalizeFirst(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** Question words that open a clause in the four languages: such a keyword is no noun phrase for a template. */
const CLAUSE_OPENERS = /^(how|why|what|when|where|which|who|can|should|is|are|do|does|wie|warum|was|wann|wo|welche[rsn]?|wer|kann|sollte|comment|pourquoi|quand|où|quel(le)?s?|qu'|qui|est-ce|c[oó]mo|por qu[eé]|qu[eé]|cu[aá]ndo|d[oó]nde|cu[aá]l(es)?|qui[eé]n)\b/i;

/**
 * Whether a keyword reads as a noun phrase that a template can hold ("{K}: an overview", "What is {K}?"):
 * not a clause or question in any of the four languages, not over six words. Otherwise templates would say
 * "How How retailers…" or "Why How … matters".
 */
export function keywordFitsTemplates(keyword: string): boolean {
  const k = keyword.trim();
  return !CLAUSE_OPENERS.test(k) && !/[?¿]/.test(k) && k.split(/\s+/).length <= 6;
}

/** A word written twice in a row ("How How …"), with its repeats. */
const DOUBLED_WORD = /\b(\p{L}+)(\s+\1\b)+/iu;
const DOUBLED_WORDS = new RegExp(DOUBLED_WORD.source, "giu");

/** Whether a text writes a word twice in a row ("How How …"): what `tidyHeading` removes. */
export function hasDoubledWord(text: string): boolean {
  return DOUBLED_WORD.test(text);
}

/** A heading without doubled words ("How How …") or trailing punctuation. */
export function tidyHeading(heading: string): string {
  return heading
    .replace(DOUBLED_WORDS, "$1")
    .replace(/\s+/g, " ")
    .replace(/[\s.:;,]+$/, "")
    .trim();
}
