import { z } from "zod";
import { tokenize } from "../../../shared/text/tokenize";
import { dependsOnPrevious, unitIndex, unitsOfPool, type EvidenceUnit } from "./evidence-sentences";
import type { MeteredModel } from "./metered-model";
import { capitalizeFirst, fill, languagePack } from "./phrases";
import { relevanceModel } from "./relevance";
import { renderSentence } from "./render";
import { wordsOf } from "../../../shared/text/segment";
import { embedPhrase, englishTitles, fillWithPhrase, isClause, isEnglish, topicShape } from "./topic-phrasing";
import type { ArticleBody, ArticleBrief, Evidence, FaqEntry, SeoResult } from "./types";

export const META_TITLE_MAX = 60;
export const META_DESCRIPTION_MAX = 160;
const SLUG_MAX = 60;
const FAQ_MIN = 3;
const FAQ_MAX = 5;
const FAQ_ANSWER_MAX_WORDS = 70;

const containsKeyword = (text: string, keyword: string) => text.toLowerCase().includes(keyword.toLowerCase());

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
  const pack = languagePack(brief.language);
  const brand = brief.brand?.name;
  const templated = pack.titles[brief.intent].map((t) => fillWithPhrase(t, { K: brief.keyword }, brand));
  if (!isEnglish(brief.language)) return [...new Set(templated)];
  const shaped = englishTitles(brief);
  if (isClause(brief.keyword)) return shaped;
  const naming = shaped.filter((t) => containsKeyword(t, brief.keyword));
  return [...new Set(naming.length >= 4 ? naming : [...naming, ...templated])];
}

/** The shortest-fitting title that names the keyword, else the first one cut to length. */
export function metaTitleFrom(title: string, variants: readonly string[], keyword: string): string {
  const fitting = [title, ...variants].filter((t) => t.length <= META_TITLE_MAX && containsKeyword(t, keyword));
  return fitting[0] ?? truncateAtWord(title, META_TITLE_MAX);
}

/**
 * Puts the keyword where search engines and readers look: the first paragraph (a framing sentence naming
 * it, which states no fact, when the evidence's first sentence does not) and one heading (the first body
 * heading gains it as a prefix when none has it). Returns a new body.
 */
export function placeKeyword(body: ArticleBody, brief: ArticleBrief): { body: ArticleBody; framed: boolean; headingChanged: boolean } {
  const pack = languagePack(brief.language);
  const copy: ArticleBody = structuredClone(body);
  let framed = false;
  let headingChanged = false;
  const first = copy.sections[0]?.paragraphs[0];
  if (first && !containsKeyword(first.sentences.map((s) => s.text).join(" "), brief.keyword)) {
    const template = brief.audience ? pack.framingForAudience : pack.framing;
    // Mid-sentence the keyword keeps no sentence-initial capital ("looks at how contractors…"), and a superlative takes its article.
    let phrase = embedPhrase(brief.keyword, brief.brand?.name);
    if (isEnglish(brief.language) && topicShape(phrase) === "best" && !/^the\s/i.test(phrase)) phrase = `the ${phrase}`;
    first.sentences.unshift({ text: capitalizeFirst(fill(template, { K: phrase, A: brief.audience ?? "" })), cites: [] });
    framed = true;
  }
  const bodies = copy.sections.filter((s) => s.role === "body");
  if (bodies.length && !copy.sections.some((s) => containsKeyword(s.heading, brief.keyword))) {
    bodies[0].heading = `${capitalizeFirst(brief.keyword)}: ${bodies[0].heading}`;
    headingChanged = true;
  }
  return { body: copy, framed, headingChanged };
}

/**
 * A summary from the evidence: the article's most on-topic cited sentences (relevance to topic and keyword,
 * `relevance.ts`) that stand alone, best first, one of the three best that names the keyword preferred; a second joins when
 * both fit in 160 characters; cut at a word. A noun-phrase keyword the sentences do not name opens it
 * ("Route planning: …"); a clause keyword cannot, and the description goes without it. Without cited
 * sentences (or evidence), the opening sentences.
 */
export function metaDescriptionFrom(body: ArticleBody, brief: ArticleBrief, evidence: readonly Evidence[] = []): string {
  const all = body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
  // A sentence that leans on the one before ("They switch because …") cannot open a summary.
  const cited = all.filter((s) => s.cites.length && !dependsOnPrevious(s.text, brief.language));
  let ranked: string[];
  if (cited.length && evidence.length) {
    const relevance = relevanceModel(evidence, brief);
    const scored = cited.map((s, i) => ({ text: s.text, i, score: relevance.score(s.text) })).sort((a, b) => b.score - a.score || a.i - b.i);
    const named = scored.slice(0, 3).findIndex((x) => containsKeyword(x.text, brief.keyword));
    if (named > 0) scored.unshift(...scored.splice(named, 1));
    ranked = scored.map((x) => x.text);
  } else ranked = (body.sections[0]?.paragraphs.flatMap((p) => p.sentences) ?? []).map((s) => renderSentence(s));
  let description = "";
  for (const text of ranked.slice(0, 3)) {
    const next = description ? `${description} ${text}` : text;
    if (next.length > META_DESCRIPTION_MAX && description) break;
    description = next;
  }
  if (!containsKeyword(description, brief.keyword) && !isClause(brief.keyword) && brief.keyword.length <= 40) description = `${capitalizeFirst(brief.keyword)}: ${description}`;
  return truncateAtWord(description, META_DESCRIPTION_MAX);
}

/**
 * FAQ answers are drawn from the evidence, and only its on-topic units (`relevance.ts`):
 *
 * 1. The given questions (the model's, with a model): for each, the best-ranked unit (BM25 against the
 *    question and topic) that also contains at least half of the question's own terms beyond the keyword.
 * 2. Questions derived from evidence sentences (`questionFromUnit`), most on-topic first: each question is
 *    made from the sentence that answers it, so the answer holds what it asks about.
 * 3. The intent's template questions, only when the keyword is a noun phrase ("What is route planning?";
 *    never "What is How contractors can…?"), answered as in 1.
 * 4. One per body section heading, answered by the section's first cited sentence.
 *
 * Each unit answers one question at most; 3 to 5 entries.
 */
export function groundFaq(questions: readonly string[], brief: ArticleBrief, evidence: readonly Evidence[], body: ArticleBody): FaqEntry[] {
  const lang = brief.language;
  const relevance = relevanceModel(evidence, brief);
  const units = unitsOfPool(evidence, lang).filter((u) => u.words <= FAQ_ANSWER_MAX_WORDS && relevance.onTopic(relevance.unit(u)));
  const index = unitIndex(units, lang);
  const byKey = new Map(units.map((u) => [u.key, u]));
  const keywordTerms = new Set(tokenize(`${brief.keyword} ${brief.topic}`, lang));
  const used = new Set<string>();
  const faq: FaqEntry[] = [];
  // A unit that opens with the keyword ("Route planning decides …") is what a "what is" question wants: it ranks double.
  const opensWithKeyword = (u: EvidenceUnit) => u.text.toLowerCase().startsWith(brief.keyword.toLowerCase());
  const answerOf = (question: string): EvidenceUnit | undefined => {
    const own = tokenize(question, lang).filter((t) => !keywordTerms.has(t));
    return index
      .search(`${question} ${brief.topic}`, 30, lang)
      .map((h) => ({ unit: byKey.get(h.id)!, score: h.score * (opensWithKeyword(byKey.get(h.id)!) ? 2 : 1) }))
      .sort((a, b) => b.score - a.score)
      .map((x) => x.unit)
      .find((u) => !used.has(u.key) && own.filter((t) => u.terms.has(t)).length >= Math.ceil(own.length / 2));
  };
  const add = (question: string, unit: EvidenceUnit) => {
    if (faq.length >= FAQ_MAX || used.has(unit.key) || faq.some((f) => f.question.toLowerCase() === question.toLowerCase())) return;
    used.add(unit.key);
    faq.push({ question, answer: unit.text, cites: [unit.evidenceId] });
  };
  const answerAll = (list: readonly string[]) => {
    for (const question of list) {
      if (faq.length >= FAQ_MAX) break;
      if (faq.some((f) => f.question.toLowerCase() === question.toLowerCase())) continue;
      const unit = answerOf(question);
      if (unit) add(question, unit);
    }
  };
  answerAll(questions);
  if (isEnglish(lang)) {
    const names = properNouns(units, lang);
    const ranked = units.map((u, i) => ({ u, i, score: relevance.unit(u) })).sort((a, b) => b.score - a.score || a.i - b.i);
    for (const { u } of ranked) {
      if (faq.length >= FAQ_MAX) break;
      const question = questionFromUnit(u, names, brief.brand?.name);
      if (question) add(question, u);
    }
  }
  if (faq.length < FAQ_MAX && !isClause(brief.keyword)) answerAll(faqQuestionCandidates(brief));
  // Every article has sections written from evidence: their opening sentences answer "what about <heading>?".
  for (const section of body.sections.filter((s) => s.role === "body")) {
    if (faq.length >= FAQ_MIN) break;
    const sentence = section.paragraphs[0]?.sentences.find((s) => s.cites.length);
    const question = sectionQuestion(section.heading, lang);
    if (!sentence || faq.some((f) => f.question === question || f.answer === sentence.text)) continue;
    faq.push({ question, answer: sentence.text, cites: sentence.cites });
  }
  return faq;
}

/** Words the sources capitalise mid-sentence (names: "Kestrel", "Polar"): a subject opening with one keeps its capital in a question. */
function properNouns(units: readonly EvidenceUnit[], lang: string): Set<string> {
  const out = new Set<string>();
  for (const u of units) for (const sentence of u.sentences) for (const w of wordsOf(sentence, lang).slice(1)) if (/^\p{Lu}/u.test(w)) out.add(w);
  return out;
}

const PAST_TO_BASE: Record<string, string> = {
  fell: "fall", dropped: "drop", rose: "rise", grew: "grow", increased: "increase", decreased: "decrease", declined: "decline",
  improved: "improve", doubled: "double", halved: "halve", shrank: "shrink", climbed: "climb",
};
const SUBJECT_MAX_WORDS = 6;
const BAD_SUBJECT = /[,;:"“”()]|\b(it|they|this|that|these|those|we|you|our|your|he|she|there)\b/i;

/**
 * A question the unit's first sentence answers, from a few safe shapes over its subject (the words before
 * the verb, at most six, no pronoun or punctuation), else the passage's heading when it is itself a question:
 * "The Starter plan costs $29 …" → "How much does the Starter plan cost?"; "Average drive time fell to …" →
 * "How much did average drive time fall?"; "Kestrel Dispatch is the scheduling board …" → "What is Kestrel
 * Dispatch?"; "Route batching groups the day's jobs …" → "What does route batching do?". The subject is
 * quoted from the sentence, so the answer always holds what the question asks about.
 */
export function questionFromUnit(unit: EvidenceUnit, names: ReadonlySet<string>, brandName?: string | null): string | undefined {
  const first = unit.sentences[0];
  const subjectOf = (raw: string) => {
    const words = raw.trim().split(/\s+/);
    if (!raw.trim() || words.length > SUBJECT_MAX_WORDS || BAD_SUBJECT.test(raw)) return undefined;
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
  m = /^(.+?) ([a-z]+[^s\W]s) (the|a|an|each|every|its|their|your|with|jobs|customers|technicians)\b/.exec(first);
  if (m && !/s$/.test(m[1]) && m[1].split(/\s+/).length <= 3) {
    const subject = subjectOf(m[1]);
    if (subject) return `What does ${subject} do?`;
  }
  const heading = unit.heading.split("›").pop()?.trim() ?? "";
  if (heading.endsWith("?") && heading.length <= 120) {
    const asked = tokenize(heading).filter((t) => !["much", "mani", "long", "quick"].includes(t));
    if (asked.length && asked.filter((t) => unit.terms.has(t)).length >= Math.ceil((asked.length * 2) / 3)) return heading;
  }
  return undefined;
}

export function faqQuestionCandidates(brief: ArticleBrief): string[] {
  return languagePack(brief.language).questions[brief.intent].map((q) => fill(q, { K: q.startsWith("{K}") ? brief.keyword : embedPhrase(brief.keyword, brief.brand?.name) }));
}

/** A section heading as a question: itself when it already asks one ("Why X matters" → "Why X matters?"), else the template. */
function sectionQuestion(heading: string, lang: string): string {
  if (/^(why|how|what|when|where|which|who|warum|wie|was|wann|wo|welche|pourquoi|comment|quand|où|quel|quelle|por qué|cómo|qué|cuándo|dónde|cuál)\b/i.test(heading)) {
    return heading.endsWith("?") ? heading : `${heading}?`;
  }
  return fill(languagePack(lang).sectionQuestion, { H: heading });
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

const SeoAnswer = z.object({
  title: z.string().trim().min(5).max(200),
  title_variants: z.array(z.string().trim().min(5).max(200)).max(8).default([]),
  meta_description: z.string().trim().min(20).max(400),
  faq_questions: z.array(z.string().trim().min(5).max(200)).max(8).default([]),
});

export interface SeoOutcome {
  seo: SeoResult;
  body: ArticleBody;
  report: { framed_first_paragraph: boolean; keyword_heading_added: boolean; faq: number; by: "model" | "rules" };
}

/**
 * seo: title, meta title (≤ 60), meta description (≤ 160), slug, at least three title variants, an FAQ of at
 * least three evidence-grounded answers, and JSON-LD; the keyword in the title, the first paragraph and a
 * heading. With a model, it proposes title, variants, description and questions (JSON, validated and held
 * to the same rules); answers always come from the evidence.
 */
export async function optimizeForSearch(body: ArticleBody, brief: ArticleBrief, evidence: readonly Evidence[], model?: MeteredModel): Promise<SeoOutcome> {
  const placed = placeKeyword(body, brief);
  const rulesTitles = titleCandidates(brief);
  let title = rulesTitles[0];
  let variants = rulesTitles.slice(1);
  let description = metaDescriptionFrom(placed.body, brief, evidence);
  let questions: string[] = [];
  let by: "model" | "rules" = "rules";

  if (model) {
    const pack = languagePack(brief.language);
    const answer = await model.json(
      [
        {
          role: "system",
          content:
            `You write search metadata in ${pack.name}. The title and every title variant contain the target keyword exactly. ` +
            "The meta description (at most 160 characters) contains the keyword and summarises the article. FAQ questions are ones the article answers. " +
            'Answer with JSON only: {"title": "...", "title_variants": ["...", "...", "..."], "meta_description": "...", "faq_questions": ["...", "...", "..."]}.',
        },
        {
          role: "user",
          content: [
            `Target keyword: ${brief.keyword}`,
            `Topic: ${brief.topic}`,
            `Search intent: ${brief.intent}`,
            `Headings: ${placed.body.sections.map((s) => s.heading).filter(Boolean).join("; ")}`,
            `Opening: ${placed.body.sections[0]?.paragraphs[0]?.sentences.map((s) => s.text).join(" ") ?? ""}`,
          ].join("\n"),
        },
      ],
      SeoAnswer,
      { maxTokens: 700 },
    );
    if (answer) {
      by = "model";
      if (containsKeyword(answer.title, brief.keyword)) title = answer.title;
      const modelVariants = answer.title_variants.filter((v) => containsKeyword(v, brief.keyword) && v !== title);
      variants = [...new Set([...modelVariants, ...rulesTitles])].filter((v) => v !== title);
      if (containsKeyword(answer.meta_description, brief.keyword)) description = truncateAtWord(answer.meta_description, META_DESCRIPTION_MAX);
      questions = [...answer.faq_questions];
    }
  }

  const faq = groundFaq(questions, brief, evidence, placed.body);
  if (faq.length < FAQ_MIN) throw new Error(`only ${faq.length} FAQ answers could be grounded in the evidence (need ${FAQ_MIN})`);
  const titleVariants = variants.slice(0, 5);
  const seo: Omit<SeoResult, "json_ld"> = {
    title,
    meta_title: metaTitleFrom(title, titleVariants, brief.keyword),
    meta_description: description,
    slug: slugify(brief.keyword) || slugify(title) || "article",
    title_variants: titleVariants,
    faq,
  };
  const cited = [...new Set(placed.body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.flatMap((x) => x.cites))))];
  const urls = [...new Set(cited.map((id) => evidence.find((e) => e.id === id)?.url).filter((u): u is string => Boolean(u)))];
  return {
    seo: { ...seo, json_ld: buildJsonLd(brief, seo, urls) },
    body: placed.body,
    report: { framed_first_paragraph: placed.framed, keyword_heading_added: placed.headingChanged, faq: faq.length, by },
  };
}
