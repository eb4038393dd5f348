import { extractDocument } from "../../shared/text/extract";
import type { ExtractedDocument } from "../../shared/text/document";
import { UNDETERMINED } from "../../shared/text/language";
import { countWords, sentencesOf } from "../../shared/text/segment";
import { identifyLanguage } from "./language";
import { normalizeText, parseArticleMarkdown, urlsInText, type ArticleSection } from "./markdown";

export interface ApiArticle {
  id: string;
  language: string;
  topic: string;
  target_keyword: string;
  title: string;
  meta_title?: string;
  meta_description?: string;
  content_markdown?: string;
  citations: { claim: string; url: string; title: string; quote?: string }[];
  title_variants: string[];
  faq: { question: string; answer: string }[];
  json_ld: unknown;
  word_count: number;
  quality_score?: number;
  quality_breakdown?: Record<string, number>;
  derivatives?: { x_thread?: string[]; linkedin?: string; newsletter?: { subject: string; body: string } } | null;
  image?: { url: string; alt?: string } | null;
}

// ---------------------------------------------------------------------------------------------- on topic

export interface OnTopic {
  vocabulary: string[];
  sentences: number;
  onTopic: number;
  share: number;
  /** The share by the vocabulary alone, every reader's label left out. */
  vocabularyShare: number;
  /** Sentences a reader labelled (`reader-verdicts.json`), and of them those the vocabulary judged otherwise. */
  labelled: number;
  overruled: number;
  /** Off-topic sentences, longest first. */
  worst: { heading: string; text: string }[];
  /** Every off-topic sentence, in the article's order. */
  off: { heading: string; text: string }[];
}

/** Words that make a sentence continue the one before it ("This…", "It…", "Dies…", "Cela…", "Esto…"). */
const CONTINUES = /^\(.*\)[.!]?$|\b(do|does|did|doing|done) (this|that)\b|\b(celle|celui|ceux|celles)\b|^[("“„«¿¡]*(this|that|these|those|it|its|they|their|them|such|both|there|then|thus|dies|diese[rsnm]?|dabei|damit|dadurch|er|sie|es|ihr|ihre|sein|seine|ce|cet|cette|ces|cela|ceci|il|elle|ils|elles|son|sa|ses|leur|leurs|esto|esta|este|estos|estas|ello|él|ella|ellos|ellas|su|sus)\b|\b(it|they|them|those|these|such|he|she|him|his|her)\b/i;

/**
 * A request's hand-written vocabulary as one matcher: each word or phrase whole, an item ending in `*` as the
 * start of a word ("sauvegard*"). Plain lower-case matching on Unicode letters: nothing of the pipeline's.
 */
export function vocabularyMatcher(vocabulary: readonly string[]): (text: string) => boolean {
  if (!vocabulary.length) return () => false;
  const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const alternatives = vocabulary.map((v) => (v.endsWith("*") ? `${escape(fold(v.slice(0, -1)))}[\\p{L}\\p{N}_-]*` : escape(fold(v))));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})(?![\\p{L}\\p{N}])`, "u");
  return (text) => re.test(fold(text));
}

/**
 * Lower case without diacritics, on both sides: a German plural with an umlaut is the word the vocabulary names
 * ("Passwörter" for "passwort*"), as an unaccented spelling is ("configuracion" for "configuración").
 */
const fold = (text: string) => text.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");

/** A reader's verdict on a sentence of this request's article: on topic, off topic, or not labelled. */
export type ReaderVerdict = (text: string) => boolean | undefined;

/**
 * The on-topic judge, independent of the writer by construction: an article sentence is on topic when a reader
 * labelled it so (`reader-verdicts.json`), or, unlabelled, when it says a word or phrase of the request's
 * hand-written vocabulary (`cases.ts`), or continues, in the same paragraph, a sentence that is on topic
 * ("This situation…", "Dies …"), or is the sentence such a continuation leans on. Headings, page titles, the
 * pipeline's tokenizer and its word lists play no part. The vocabulary is a reader's shorthand and misses what a
 * reader accepts ("Data should be at least on different disks …" in a backup article): where a reader labelled
 * the sentence, the label decides; the share by the vocabulary alone is reported beside it.
 */
export function onTopicShare(body: { text: string; heading: string; first?: boolean }[], vocabulary: readonly string[], reader: ReaderVerdict = () => undefined): OnTopic {
  const byVocabulary = judge(body, vocabulary, () => undefined);
  const verdicts = judge(body, vocabulary, reader);
  const labels = body.map((s) => reader(s.text));
  const off = body.flatMap((s, i) => (verdicts[i] ? [] : [{ heading: s.heading, text: s.text }]));
  const longest = [...off].sort((a, b) => b.text.length - a.text.length);
  const share = (v: boolean[]) => (body.length ? v.filter(Boolean).length / body.length : 0);
  return {
    vocabulary: [...vocabulary],
    sentences: body.length,
    onTopic: body.length - off.length,
    share: share(verdicts),
    vocabularyShare: share(byVocabulary),
    labelled: labels.filter((l) => l !== undefined).length,
    overruled: labels.filter((l, i) => l !== undefined && l !== byVocabulary[i]).length,
    worst: longest.slice(0, 3),
    off,
  };
}

function judge(body: { text: string; first?: boolean }[], vocabulary: readonly string[], reader: ReaderVerdict): boolean[] {
  const says = vocabularyMatcher(vocabulary);
  const verdicts: boolean[] = [];
  let previousOnTopic = false;
  for (const s of body) {
    const onTopic: boolean = reader(s.text) ?? (says(s.text) || (s.first === false && previousOnTopic && CONTINUES.test(s.text)));
    previousOnTopic = onTopic;
    verdicts.push(onTopic);
  }
  for (let i = body.length - 2; i >= 0; i--) {
    const next = body[i + 1];
    if (!verdicts[i] && reader(body[i].text) === undefined && verdicts[i + 1] && next.first === false && CONTINUES.test(next.text)) verdicts[i] = true;
  }
  return verdicts;
}

// ---------------------------------------------------------------------------------------------- sources

export interface SourcePage {
  url: string;
  status: number;
  doc?: ExtractedDocument;
  sentences: string[];
  /** Normalized readable text, for finding quotes. */
  normalized: string;
  headings: string[];
}

/**
 * The bench's own words of a text for the support check: lower case, split at anything but letters and digits,
 * words of four characters or more (which leaves out most function words in all four languages), unstemmed.
 * Deliberately not the pipeline's tokenizer: a judge must not share the code it judges.
 */
export function benchWords(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4);
}

/** Fetches and extracts each cited page once; a page that cannot be fetched or read has status ≠ 200. */
export class SourcePages {
  private readonly pages = new Map<string, Promise<SourcePage>>();
  private readonly termCache = new Map<string, string[][]>();

  get(url: string, lang: string): Promise<SourcePage> {
    const key = url.split("#")[0];
    let page = this.pages.get(key);
    if (!page) {
      page = this.load(key, lang);
      this.pages.set(key, page);
    }
    return page;
  }

  /** Index terms of each sentence of the page, tokenized in `lang`. */
  sentenceTerms(page: SourcePage, lang: string): string[][] {
    const key = `${lang} ${page.url}`;
    let terms = this.termCache.get(key);
    if (!terms) {
      terms = page.sentences.map((s) => benchWords(s));
      this.termCache.set(key, terms);
    }
    return terms;
  }

  private async load(url: string, lang: string): Promise<SourcePage> {
    const empty = (status: number): SourcePage => ({ url, status, sentences: [], normalized: "", headings: [] });
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    } catch {
      return empty(0);
    }
    if (res.status !== 200) return empty(res.status);
    const body = await res.text();
    const doc = extractDocument({ url, contentType: res.headers.get("content-type") ?? "text/html", body });
    const headings = [...new Set(doc.sections.flatMap((s) => s.headingPath))];
    return { url, status: 200, doc, sentences: sentencesOf(doc.text, doc.lang ?? lang), normalized: normalizeText(doc.text), headings };
  }
}

export const SUPPORT_SHARE = 0.8;
export const SUPPORT_WINDOW = 3;

/** The best share of the claim's content words found within `SUPPORT_WINDOW` consecutive sentences of the page. */
export function bestWindowShare(claimTerms: string[], pageTerms: string[][]): number {
  const wanted = [...new Set(claimTerms)];
  if (!wanted.length) return 0;
  let best = 0;
  for (let i = 0; i < pageTerms.length; i++) {
    const window = new Set<string>();
    for (let k = i; k < Math.min(pageTerms.length, i + SUPPORT_WINDOW); k++) for (const t of pageTerms[k]) window.add(t);
    const found = wanted.filter((t) => window.has(t)).length / wanted.length;
    if (found > best) best = found;
    if (best === 1) break;
  }
  return best;
}

export interface Support {
  citations: number;
  supported: number;
  share: number;
  /** Cited addresses that are no page of the profile's site (or no page at all). */
  fabricated: { url: string; reason: string }[];
  unsupported: { claim: string; url: string; best: number }[];
  quotes: { present: number; foundOnPage: number; missing: { quote: string; url: string }[] };
}

/** Whether an address is a page of the site (origin and existing page). */
export type PageCheck = (url: string) => { ok: true } | { ok: false; reason: string };

export async function supportShare(article: ApiArticle, pages: SourcePages, isSitePage: PageCheck): Promise<Support> {
  const lang = article.language;
  const out: Support = { citations: 0, supported: 0, share: 0, fabricated: [], unsupported: [], quotes: { present: 0, foundOnPage: 0, missing: [] } };
  const seen = new Set<string>();
  for (const c of article.citations) {
    const key = `${c.claim}\u0000${c.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.citations++;
    const check = isSitePage(c.url);
    if (!check.ok) {
      out.fabricated.push({ url: c.url, reason: check.reason });
      out.unsupported.push({ claim: c.claim, url: c.url, best: 0 });
      continue;
    }
    const page = await pages.get(c.url, lang);
    if (page.status !== 200) {
      out.fabricated.push({ url: c.url, reason: `page answers ${page.status}` });
      out.unsupported.push({ claim: c.claim, url: c.url, best: 0 });
      continue;
    }
    const best = bestWindowShare(benchWords(c.claim), pages.sentenceTerms(page, lang));
    if (best >= SUPPORT_SHARE) out.supported++;
    else out.unsupported.push({ claim: c.claim, url: c.url, best: Number(best.toFixed(2)) });
    if (typeof c.quote === "string" && c.quote.trim()) {
      out.quotes.present++;
      if (page.normalized.includes(normalizeText(c.quote))) out.quotes.foundOnPage++;
      else out.quotes.missing.push({ quote: c.quote, url: c.url });
    }
  }
  out.share = out.citations ? out.supported / out.citations : 0;
  return out;
}

// ---------------------------------------------------------------------------------------------- addresses

/** Every string of a JSON value. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

/** Addresses anywhere in the article (markdown, citations, JSON-LD, derivatives, image) that are not allowed. */
export function fabricatedAddresses(article: ApiArticle, allowed: (url: string) => boolean): { field: string; url: string }[] {
  const found: { field: string; url: string }[] = [];
  const add = (field: string, urls: string[]) => {
    for (const url of urls) if (!allowed(url)) found.push({ field, url });
  };
  add("content_markdown", urlsInText(article.content_markdown ?? ""));
  add("citations", article.citations.map((c) => c.url));
  add("json_ld", stringsOf(article.json_ld).flatMap((s) => (/^\w+:\/\//.test(s) ? [s] : urlsInText(s))));
  add("derivatives", stringsOf(article.derivatives ?? {}).flatMap(urlsInText));
  add("faq", stringsOf(article.faq).flatMap(urlsInText));
  if (article.image?.url) add("image", [article.image.url]);
  const seen = new Set<string>();
  return found.filter((f) => !seen.has(`${f.field} ${f.url}`) && seen.add(`${f.field} ${f.url}`));
}

// ---------------------------------------------------------------------------------------------- language

export interface FieldLanguage {
  items: number;
  inLanguage: number;
  undetermined: number;
  /** inLanguage + undetermined over items; 1 for a field with no items. */
  share: number;
  /** Items identified as another language (first 3). */
  wrong: { lang: string; text: string }[];
}

export function languageByField(fields: Record<string, string[]>, lang: string, literals: string[]): Record<string, FieldLanguage> {
  const out: Record<string, FieldLanguage> = {};
  for (const [field, items] of Object.entries(fields)) {
    if (!items.length) continue;
    const r: FieldLanguage = { items: items.length, inLanguage: 0, undetermined: 0, share: 1, wrong: [] };
    for (const item of items) {
      const v = identifyLanguage(item, literals, lang);
      if (v.lang === UNDETERMINED) r.undetermined++;
      else if (v.lang === lang) r.inLanguage++;
      else if (r.wrong.length < 3) r.wrong.push({ lang: v.lang, text: item.slice(0, 200) });
    }
    r.share = (r.inLanguage + r.undetermined) / r.items;
    out[field] = r;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- form

export interface FormProblem {
  kind: string;
  text: string;
}

const NUMBERED = /^\d+(\.\d+)*\.?\s/;
const DOUBLED = /(?<![\p{L}\p{N}])([\p{L}\p{N}]+)\s+\1(?![\p{L}\p{N}])/iu;
const SENTENCE_END = /[.!?…。]["'»”’)\]]*$/u;
/** Code, command lines, logs and configuration in a prose sentence. */
const CODE_LIKE: [string, RegExp][] = [
  ["shell prompt", /(^|\s)[$#]\s+[a-z][\w.-]*(\s|$)/],
  ["key: value run", /(\b[A-Za-z][\w-]*:\s+\S+[^:]*){2,}\b[A-Za-z][\w-]*:\s+\S+/],
  ["log timestamp", /\b\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?|\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}|\[\s*\d+\.\d{3,}\]/],
  ["code line", /[{};]\s*$|^\s*(sudo|apt-get|apt|aptitude|dpkg|cat|echo|ls|cd|grep|export)\s+-{0,2}[\w/.-]+\s.*[|>&]/],
];

const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** Function words grammar does double ("für die die andere Seite", "he said that that was enough", "nous nous"). */
// German doubles "sie" as "Sie sie" ("you … it": « können Sie sie … zurücksetzen »), as it does its articles.
const LEGITIMATELY_DOUBLED = new Set(["that", "had", "die", "der", "das", "den", "dem", "des", "sie", "nous", "vous"]);

/** A doubled word, unless it is one grammar doubles. */
function doubledWord(text: string): boolean {
  const m = DOUBLED.exec(text);
  return Boolean(m) && !LEGITIMATELY_DOUBLED.has(m![1].toLowerCase());
}

export function formProblems(article: ApiArticle, sections: ArticleSection[], sourceHeadings: string[]): FormProblem[] {
  const problems: FormProblem[] = [];
  const lang = article.language;
  const body = sections.filter((s) => s.kind === "body" || s.kind === "intro");
  const headings = sections.filter((s) => s.kind === "body").flatMap((s) => [s.heading, ...s.subheadings]);
  const seen = new Set<string>();
  for (const h of headings) {
    if (NUMBERED.test(h)) problems.push({ kind: "heading numbered", text: h });
    if (doubledWord(h)) problems.push({ kind: "heading doubled word", text: h });
    if (seen.has(h.trim().toLowerCase())) problems.push({ kind: "heading repeated", text: h });
    seen.add(h.trim().toLowerCase());
  }
  for (const t of [article.title, ...article.title_variants]) {
    if (doubledWord(t)) problems.push({ kind: "title doubled word", text: t });
    if (NUMBERED.test(t)) problems.push({ kind: "title numbered", text: t });
  }
  const bodySentences = body.flatMap((s) => s.sentences.map((x) => x.text));
  for (const s of bodySentences) {
    if (doubledWord(s)) problems.push({ kind: "sentence doubled word", text: s });
    for (const [kind, re] of CODE_LIKE) if (re.test(s)) problems.push({ kind: `prose: ${kind}`, text: s });
  }
  const bodySet = new Set(bodySentences.map(normalizeText));
  // The keyword itself may be a source heading: "What is backup and recovery?" asks about the keyword, pastes no heading.
  const literal = new Set([article.target_keyword, article.topic].map(normalizeText));
  const headingTexts = [...headings, ...sourceHeadings.map((h) => h.replace(NUMBERED, ""))].filter((h) => wordCount(h) >= 2).map(normalizeText).filter((h) => !literal.has(h));
  for (const { question, answer } of article.faq) {
    const q = question.trim();
    if (!q.endsWith("?") || (lang === "es" && !q.startsWith("¿"))) problems.push({ kind: "faq question form", text: q });
    if (DOUBLED.test(q)) problems.push({ kind: "faq doubled word", text: q });
    // An article capitalised inside a question is a sentence's opening pasted in ("What does The APT system do?").
    if (/\s(The|A|An|Le|La|Les|Un|Une|Der|Die|Das|Ein|Eine|El|Los|Las|Una)\s/.test(q.slice(1))) problems.push({ kind: "faq question casing", text: q });
    const nq = normalizeText(q);
    // A heading pasted in is a heading's title run into a question ("What is tweaking candidate version: an overview?"):
    // four words or more, or a question with a colon. A two- or three-word noun phrase that is also a heading
    // somewhere ("What are backup and recovery operations?", "What does the kernel do?") is how questions are asked.
    // A heading that is itself a question ("Who uploaded the package?", a FAQ page's) asked as it stands is no
    // heading run into one.
    const pasted = headingTexts.find((h) => nq.includes(h) && (wordCount(h) >= 4 || q.includes(":")) && !(/[?？]$/.test(h) && h === nq));
    if (pasted) problems.push({ kind: "faq heading in question", text: `${q} ⟵ "${pasted}"` });
    const copied = sentencesOf(answer, lang).map(normalizeText).find((s) => wordCount(s) >= 5 && bodySet.has(s));
    if (normalizeText(answer) && (bodySet.has(normalizeText(answer)) || copied)) problems.push({ kind: "faq answer copies body", text: answer.slice(0, 200) });
    for (const [kind, re] of CODE_LIKE) if (re.test(answer)) problems.push({ kind: `faq answer: ${kind}`, text: answer.slice(0, 200) });
  }
  const mt = article.meta_title ?? "";
  const md = article.meta_description ?? "";
  if (mt.length > 60) problems.push({ kind: "meta_title > 60", text: `${mt.length}: ${mt}` });
  if (!mt.trim()) problems.push({ kind: "meta_title empty", text: "" });
  if (md.length > 160) problems.push({ kind: "meta_description > 160", text: `${md.length}: ${md}` });
  if (/(…|\.\.\.)\s*$/.test(md)) problems.push({ kind: "meta_description cut", text: md });
  else if (!SENTENCE_END.test(md.trim())) problems.push({ kind: "meta_description not at a sentence end", text: md });
  return problems;
}

// ---------------------------------------------------------------------------------------------- all

export interface ArticleChecks {
  onTopic: OnTopic;
  support: Support;
  fabricated: { field: string; url: string }[];
  language: Record<string, FieldLanguage>;
  languageMin: number;
  form: FormProblem[];
  words: { word_count: number; body_words: number; target_words: number; ratio: number; body_ratio: number };
  sections: ArticleSection[];
}

export async function checkArticle(
  article: ApiArticle,
  targetWords: number,
  vocabulary: readonly string[],
  deps: { pages: SourcePages; isSitePage: PageCheck; allowedAddress: (url: string) => boolean; reader?: ReaderVerdict },
): Promise<ArticleChecks> {
  const lang = article.language;
  const sections = parseArticleMarkdown(article.content_markdown ?? "", lang, article.faq.map((f) => f.question));
  const bodySentences = sections.filter((s) => s.kind === "body").flatMap((s) => s.sentences);
  const introSentences = sections.filter((s) => s.kind === "intro").flatMap((s) => s.sentences);
  // The reader reads the introduction too: its cited sentences are judged with the body's (the uncited framing
  // sentence states no fact). Until 2026-11-27 only body sections were, and an article whose introduction
  // gathered its on-topic sentences read as less on topic than one whose introduction gathered padding.
  const onTopic = onTopicShare([...introSentences.filter((s) => s.cited), ...bodySentences], vocabulary, deps.reader);
  const support = await supportShare(article, deps.pages, deps.isSitePage);
  const citedPages = await Promise.all([...new Set(article.citations.map((c) => c.url))].filter((u) => deps.isSitePage(u).ok).map((u) => deps.pages.get(u, lang)));
  const d = article.derivatives ?? {};
  const language = languageByField(
    {
      title: [article.title],
      meta_title: article.meta_title ? [article.meta_title] : [],
      meta_description: article.meta_description ? [article.meta_description] : [],
      headings: sections.filter((s) => s.kind === "body").flatMap((s) => [s.heading, ...s.subheadings]),
      intro: introSentences.map((s) => s.text),
      body: bodySentences.map((s) => s.text),
      faq_questions: article.faq.map((f) => f.question),
      faq_answers: article.faq.map((f) => f.answer),
      title_variants: article.title_variants,
      x_thread: d.x_thread ?? [],
      linkedin: d.linkedin ? [d.linkedin] : [],
      newsletter_subject: d.newsletter ? [d.newsletter.subject] : [],
      newsletter_body: d.newsletter ? [d.newsletter.body] : [],
      image_alt: article.image?.alt ? [article.image.alt] : [],
    },
    lang,
    [article.topic, article.target_keyword],
  );
  const bodyWords = countWords([...introSentences, ...bodySentences].map((s) => s.text).join(" "), lang);
  return {
    onTopic,
    support,
    fabricated: fabricatedAddresses(article, deps.allowedAddress),
    language,
    languageMin: Math.min(1, ...Object.values(language).map((f) => f.share)),
    form: formProblems(article, sections, citedPages.flatMap((p) => p.headings)),
    words: {
      word_count: article.word_count,
      body_words: bodyWords,
      target_words: targetWords,
      ratio: Number((article.word_count / targetWords).toFixed(2)),
      body_ratio: Number((bodyWords / targetWords).toFixed(2)),
    },
    sections,
  };
}
