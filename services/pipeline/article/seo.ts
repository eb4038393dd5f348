import { z } from "zod";
import { tokenize } from "../../../shared/text/tokenize";
import { unitIndex, unitsOfPool, type EvidenceUnit } from "./evidence-sentences";
import type { MeteredModel } from "./metered-model";
import { capitalizeFirst, fill, languagePack } from "./phrases";
import { renderSentence } from "./render";
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

export function titleCandidates(brief: ArticleBrief): string[] {
  const pack = languagePack(brief.language);
  return [...new Set(pack.titles[brief.intent].map((t) => capitalizeFirst(fill(t, { K: brief.keyword }))))];
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
    first.sentences.unshift({ text: capitalizeFirst(fill(template, { K: brief.keyword, A: brief.audience ?? "" })), cites: [] });
    framed = true;
  }
  const bodies = copy.sections.filter((s) => s.role === "body");
  if (bodies.length && !copy.sections.some((s) => containsKeyword(s.heading, brief.keyword))) {
    bodies[0].heading = `${capitalizeFirst(brief.keyword)}: ${bodies[0].heading}`;
    headingChanged = true;
  }
  return { body: copy, framed, headingChanged };
}

/** The first sentences of the article, up to 160 characters, naming the keyword. */
export function metaDescriptionFrom(body: ArticleBody, brief: ArticleBrief): string {
  const sentences = body.sections[0]?.paragraphs.flatMap((p) => p.sentences) ?? [];
  let description = "";
  for (const sentence of sentences) {
    const next = description ? `${description} ${renderSentence(sentence)}` : renderSentence(sentence);
    if (next.length > META_DESCRIPTION_MAX && description) break;
    description = next;
  }
  if (!containsKeyword(description, brief.keyword)) description = `${capitalizeFirst(brief.keyword)}: ${description}`;
  return truncateAtWord(description, META_DESCRIPTION_MAX);
}

/**
 * FAQ answers are drawn from the evidence: for each question, the best-ranked evidence unit (BM25 against
 * the question and topic) that also contains at least half of the question's own terms beyond the keyword
 * ("cost" for "How much does X cost?"); each unit answers one question at most. Questions come from the model when one
 * is configured, then from templates per search intent, then one per section heading.
 */
export function groundFaq(questions: readonly string[], brief: ArticleBrief, evidence: readonly Evidence[], body: ArticleBody): FaqEntry[] {
  const lang = brief.language;
  const units = unitsOfPool(evidence, lang).filter((u) => u.words <= FAQ_ANSWER_MAX_WORDS);
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
  for (const question of questions) {
    if (faq.length >= FAQ_MAX) break;
    if (faq.some((f) => f.question.toLowerCase() === question.toLowerCase())) continue;
    const unit = answerOf(question);
    if (!unit) continue;
    used.add(unit.key);
    faq.push({ question, answer: unit.text, cites: [unit.evidenceId] });
  }
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

export function faqQuestionCandidates(brief: ArticleBrief): string[] {
  return languagePack(brief.language).questions[brief.intent].map((q) => fill(q, { K: brief.keyword }));
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
  let description = metaDescriptionFrom(placed.body, brief);
  let questions = faqQuestionCandidates(brief);
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
      questions = [...answer.faq_questions, ...questions];
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
