import { dependsOnPrevious } from "../evidence/units";
import { capitalizeFirst, fill, keywordFitsTemplates, languagePack, templateSubject, tidyHeading } from "../language/phrases";
import { analyseRequest, relevanceModel, withCompounds } from "../relevance";
import { wordsOf } from "../../../../shared/text/segment";
import { termSet } from "../evidence/similarity";
import { embedPhrase, englishTitles, fillWithPhrase, holdsVerbPhrase, isClause, isDirectQuestion, isEnglish, isVerbPhrase, questionAsAsked, topicShape } from "./topic-phrasing";
import { type ArticleBody, type ArticleBrief, type Evidence, SEARCH_INTENTS, sentencesIn, type SeoResult } from "../types";

export const META_TITLE_MAX = 60;
export const META_DESCRIPTION_MAX = 160;
const SLUG_MAX = 60;

/** Lower case, hyphens and underscores read as spaces: "apt-pinning" names "APT pinning". */
const keywordForm = (text: string) => text.toLowerCase().replace(/[\s_\u2010\u2011-]+/g, " ");
export const containsKeyword = (text: string, keyword: string) => keywordForm(text).includes(keywordForm(keyword).trim());

/**
 * The opening paragraph already names the keyword: written as the customer wrote it (hyphens aside), or
 * every term of its subject present ("Backup and recovery operations …" for "backup and recovery"). Its
 * angle words need not be (the relevance model's `analyseRequest`): « Un vélo bien entretenu roule plus
 * longtemps … » names "entretien vélo", and a framing sentence (« Sujet de cet article : entretien vélo. ») would
 * only announce what the paragraph already says.
 */
export function namesKeyword(text: string, keyword: string, lang: string): boolean {
  if (containsKeyword(text, keyword)) return true;
  const wanted = analyseRequest(keyword, "", lang).subject.map((t) => t.term);
  if (!wanted.length) return false;
  const terms = withCompounds(termSet(text, lang), wanted, lang);
  return wanted.every((t) => terms.has(t));
}

/** At most `max` characters, cut at a word boundary with an ellipsis when something was cut. */
export function truncateAtWord(text: string, max: number): string {
  const clean = text.replace(/[ \t]+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).replace(/[\s,;:.–—-]+$/, "")}…`;
}

/** Lower-case ASCII words joined by hyphens: accents folded (é → e, ß → ss), at most 60 characters at a word boundary. */
export function slugify(text: string): string {
  const ascii = text
    .replace(/ß/g, "ss")
    .replace(/æ/gi, "ae")
    .replace(/ø/gi, "o")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const words = ascii.split(/[^a-z0-9]+/).filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > SLUG_MAX) break;
    slug = next;
  }
  return slug || words[0]?.slice(0, SLUG_MAX) || "";
}

/**
 * Title candidates, the first the title. English: by the topic's shape (`englishTitles`): the topic itself
 * when it reads as a title, grammatical rephrasings as variants. Other languages: the intent's templates,
 * the keyword lower-cased mid-sentence. Variants name the keyword, unless the keyword is itself a clause
 * (then no template could hold it grammatically, and the variants rephrase it).
 */
export function titleCandidates(brief: ArticleBrief): string[] {
  const own = requestAsTitle(brief);
  const titles = distinctTitles([...(own ? [own] : []), ...templatedTitles(brief).filter(readsAsOneTitle)]);
  if (titles.length >= MIN_TITLES) return titles;
  // Too few that read as one title (a request with a subtitle leaves the templates little room: "Customizing
  // a Debian installation: tips for beginners" under the commercial ones gave two): the templates on the
  // request's head before its colon, then the other intents' templates.
  const head = headOf(brief.topic);
  const intents = [brief.intent, ...SEARCH_INTENTS.filter((i) => i !== brief.intent)];
  const more = [
    ...(head && head !== brief.topic.trim() ? intents.flatMap((intent) => templatedTitles({ ...brief, intent, topic: head, keyword: head })) : []),
    ...intents.slice(1).flatMap((intent) => templatedTitles({ ...brief, intent })),
  ].filter(readsAsOneTitle);
  return distinctTitles([...titles, ...more]);
}

/** The title and the three variants the API promises (`title_variants`, at least three). */
const MIN_TITLES = 4;

/** The titles in order, each once: a later one that differs from an earlier one only in case is dropped. */
function distinctTitles(titles: readonly string[]): string[] {
  const byCase = new Map<string, string>();
  for (const t of titles) if (!byCase.has(t.toLowerCase())) byCase.set(t.toLowerCase(), t);
  return [...byCase.values()];
}

/** What a title or phrase says before its subtitle ("Customizing a Debian installation" of "…: tips for beginners"). */
const SUBTITLE = /\s*[:—–]\s+/;
const headOf = (text: string) => text.split(SUBTITLE)[0].trim();

/**
 * A title that reads as one: at most one subtitle ("Composting: a practical guide: what you need to know" stacks
 * two) and no word of five letters or more twice ("A practical guide to composting: a practical guide"; "step by step" stays).
 */
export function readsAsOneTitle(title: string): boolean {
  if ((title.match(/\s?[:—–]\s/g) ?? []).length > 1) return false;
  const words = title.toLowerCase().match(/[\p{L}\p{N}]{5,}/gu) ?? [];
  return new Set(words).size === words.length;
}

/** Words over which a request is a headline of its own rather than a subject awaiting a suffix. */
const TITLE_LIKE_WORDS = 3;

/**
 * The request as the title, when it already reads as one: it has a subtitle (a colon), an angle ("best
 * practices for …", "… for beginners", "mistakes to avoid", "how to …", "… vs …": `relevance/request.ts`), or
 * three words or more. A title keeps the request's subject and angle; a suffix is added only to a bare subject
 * of one or two words ("Route planning" → "Route planning: what you need to know"), and never stacked on a subtitle.
 * ("Sichere Passwörter und Authentifizierung" came back "Passwort: Was Sie wissen sollten" when four words
 * were not enough: the request's subject was lost for the keyword's.)
 */
export function requestAsTitle(brief: Pick<ArticleBrief, "topic" | "keyword" | "language">): string | null {
  const topic = brief.topic.trim().replace(/\.$/, "");
  const angle = analyseRequest(brief.topic, "", brief.language).angle;
  const hasSubtitle = /\S\s*[:—–]\s+\S/.test(topic);
  if (!hasSubtitle && !angle.length && wordsOf(topic, brief.language).length < TITLE_LIKE_WORDS) return null;
  return tidyHeading(capitalizeFirst(topic));
}

function templatedTitles(brief: ArticleBrief): string[] {
  const pack = languagePack(brief.language);
  const brand = brief.brand?.name;
  // A clause keyword only fits templates that open with it and a colon ("Wie Händler planen: Was Sie wissen sollten").
  const fits = keywordFitsTemplates(brief.keyword);
  const templated = pack.titles[brief.intent]
    .filter((t) => fits || /^\{K\}\s?:/.test(t))
    .filter((t) => !isEnglish(brief.language) || !isVerbPhrase(brief.keyword) || holdsVerbPhrase(t))
    .map((t) => tidyHeading(fillWithPhrase(t, { K: templateSubject(brief.keyword, brief.language) }, brand, brief.language)));
  if (!isEnglish(brief.language)) return [...new Set(fits ? templated : [capitalizeFirst(brief.keyword.trim()), ...templated])];
  const shaped = englishTitles(brief);
  if (isClause(brief.keyword)) return shaped;
  const naming = shaped.filter((t) => containsKeyword(t, brief.keyword));
  return [...new Set(naming.length >= 4 ? naming : [...naming, ...templated])];
}

/**
 * `meta_title` (≤ 60): the first of title and variants that fits and names the keyword; else the title's head
 * before a colon or dash when that fits; else the keyword itself; else the title cut at a word. Never an ellipsis.
 */
export function metaTitleFrom(title: string, variants: readonly string[], keyword: string): string {
  const fitting = [title, ...variants].find((t) => t.length <= META_TITLE_MAX && containsKeyword(t, keyword));
  if (fitting) return fitting;
  const head = headOf(title.split(/\s+-\s+/)[0]);
  if (head.length <= META_TITLE_MAX && containsKeyword(head, keyword)) return head;
  if (keyword.length <= META_TITLE_MAX) return capitalizeFirst(keyword.trim());
  return cutAtWord(title, META_TITLE_MAX);
}

/** At most `max` characters, cut at the last word boundary, without an ellipsis. */
function cutAtWord(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max + 1);
  const space = cut.lastIndexOf(" ");
  return (space > 0 ? cut.slice(0, space) : clean.slice(0, max)).replace(/[\s,;:–—-]+$/, "");
}

/**
 * A sentence shortened to `max` characters at its last clause boundary (a comma, semicolon or dash) that
 * leaves at least half of it, closed with a full stop; null when it has no such boundary.
 */
export function cutAtClause(sentence: string, max: number): string | null {
  if (sentence.length <= max) return sentence;
  const window = sentence.slice(0, max);
  const boundary = Math.max(window.lastIndexOf(", "), window.lastIndexOf("; "), window.lastIndexOf(" – "), window.lastIndexOf(" — "));
  if (boundary < max / 2) return null;
  return `${window.slice(0, boundary).trim()}.`;
}

/**
 * Puts the keyword where search engines and readers look: the first paragraph (a framing sentence naming
 * it, which states no fact, when the evidence's first sentence does not) and one heading (the first body
 * heading gains it as a prefix when none has it, unless it has a subtitle already). Returns a new body.
 */
export function placeKeyword(body: ArticleBody, brief: ArticleBrief): { body: ArticleBody; framed: boolean; headingChanged: boolean } {
  const pack = languagePack(brief.language);
  const copy: ArticleBody = structuredClone(body);
  let framed = false;
  let headingChanged = false;
  const first = copy.sections[0]?.paragraphs[0];
  if (first && !namesKeyword(first.sentences.map((s) => s.text).join(" "), brief.keyword, brief.language)) {
    const question = isDirectQuestion(brief.keyword, brief.language);
    const template = question ? pack.framingQuestion : brief.audience ? pack.framingForAudience : pack.framing;
    // Mid-sentence the keyword keeps no sentence-initial capital ("looks at how contractors…"), and a superlative takes its article.
    // A keyword with a subtitle is framed by its head: "This article looks at customizing a Debian installation."
    // (with the subtitle, "… looks at customizing a Debian installation: tips for beginners." read as two phrases run together).
    // A question is named as it was asked, after a colon (the template has its own question marks).
    let phrase = question ? questionAsAsked(brief.keyword) : embedPhrase(headOf(templateSubject(brief.keyword, brief.language)), brief.brand?.name, brief.language);
    if (!question && isEnglish(brief.language) && topicShape(phrase) === "best" && !/^the\s/i.test(phrase)) phrase = `the ${phrase}`;
    first.sentences.unshift({ text: capitalizeFirst(fill(template, { K: phrase, A: brief.audience ?? "" })), cites: [] });
    framed = true;
  }
  const bodies = copy.sections.filter((s) => s.role === "body");
  // A heading that has a subtitle already ("Composting: an overview", kept from the keyword's angle by
  // `nameSectionsByContent`) takes no second one.
  // A clause keyword ("Where to get help with Debian") reads as a title, not as a heading's prefix: the title names it.
  if (bodies.length && keywordFitsTemplates(brief.keyword) && !copy.sections.some((s) => containsKeyword(s.heading, brief.keyword)) && !/:\s/.test(bodies[0].heading)) {
    bodies[0].heading = `${capitalizeFirst(brief.keyword)}: ${bodies[0].heading}`;
    headingChanged = true;
  }
  return { body: copy, framed, headingChanged };
}

/**
 * `meta_description` (≤ 160), made of whole sentences: the article's most on-topic cited sentences that stand
 * alone (no "They …"), best first, one of the best three that names the keyword preferred; a second joins
 * when both fit. A noun-phrase keyword the sentences do not name opens it ("Route planning: …"). When no
 * sentence fits whole, the best one is shortened at a clause boundary. Never cut mid-clause, never "…".
 */
export function metaDescriptionFrom(body: ArticleBody, brief: ArticleBrief, evidence: readonly Evidence[] = []): string {
  const all = sentencesIn(body.sections);
  // A sentence that leans on the one before ("They switch because …") cannot open a summary.
  const cited = all.filter((s) => s.cites.length && !dependsOnPrevious(s.text, brief.language));
  let ranked: string[];
  if (cited.length && evidence.length) {
    const relevance = relevanceModel(evidence, brief);
    const scored = cited.map((s, i) => ({ text: s.text, i, score: relevance.sentenceStrength(s.text, s.cites) })).sort((a, b) => b.score - a.score || a.i - b.i);
    const named = scored.slice(0, 3).findIndex((x) => containsKeyword(x.text, brief.keyword));
    if (named > 0) scored.unshift(...scored.splice(named, 1));
    ranked = scored.map((x) => x.text);
  } else ranked = (body.sections[0]?.paragraphs.flatMap((p) => p.sentences) ?? []).map((s) => s.text);
  // A description that names the keyword's words in its own order needs no "Keyword: " before it ("Composting at
  // home: Home composting turns kitchen scraps …" said it twice).
  const prefix = (text: string) =>
    !namesKeyword(text, brief.keyword, brief.language) && !isClause(brief.keyword) && brief.keyword.length <= 40 ? `${capitalizeFirst(brief.keyword)}: ${text}` : text;
  let description = "";
  for (const text of ranked.slice(0, 5)) {
    const next = description ? `${description} ${text}` : text;
    if (next.length <= META_DESCRIPTION_MAX) description = next;
    if (description && next.length > META_DESCRIPTION_MAX) break;
  }
  if (!description) description = ranked.map((t) => cutAtClause(t, META_DESCRIPTION_MAX)).find((t): t is string => Boolean(t)) ?? "";
  const prefixed = prefix(description);
  return prefixed.length <= META_DESCRIPTION_MAX ? prefixed : description;
}

/** schema.org Article and FAQPage in one JSON-LD graph. */
export function buildJsonLd(brief: ArticleBrief, seo: Omit<SeoResult, "json_ld">, citedUrls: readonly string[]): Record<string, unknown> {
  const organization = brief.brand
    ? { "@type": "Organization", name: brief.brand.name, ...(brief.brand.website_url ? { url: brief.brand.website_url } : {}) }
    : undefined;
  const article: Record<string, unknown> = {
    "@type": "Article",
    headline: truncateAtWord(seo.title, 110),
    name: seo.title,
    description: seo.meta_description,
    inLanguage: brief.language,
    keywords: brief.keyword,
    about: brief.topic,
    ...(organization ? { author: organization, publisher: organization } : {}),
    ...(citedUrls.length ? { citation: citedUrls.filter((u) => /^https?:\/\//i.test(u)) } : {}),
  };
  const faqPage = {
    "@type": "FAQPage",
    mainEntity: seo.faq.map((f) => ({ "@type": "Question", name: f.question, acceptedAnswer: { "@type": "Answer", text: f.answer } })),
  };
  return { "@context": "https://schema.org", "@graph": [article, faqPage] };
}
