import { z } from "zod";
import { dependsOnPrevious } from "../evidence/units";
import { isInLanguage } from "../../../../shared/text/language";
import { faqNotInBody, groundFaq, type AskedOfPassage } from "./faq";
import type { MeteredModel } from "../model/metered-model";
import { languagePack, tidyHeading } from "../language/phrases";
import { relevanceModel } from "../relevance";
import { buildJsonLd, containsKeyword, cutAtClause, META_DESCRIPTION_MAX, metaDescriptionFrom, metaTitleFrom, placeKeyword, slugify, titleCandidates } from "./seo";
import type { ArticleBody, ArticleBrief, Evidence, FaqEntry, SeoResult } from "../types";

/**
 * The seo stage's two halves (docs/article-pipeline.md, seo): planned beside the draft from the outline and the
 * evidence (`planSearchMetadata`), finished against the checked body in the score stage (`finishSearchMetadata`).
 * The rules both use (titles, meta title and description, slug, the keyword's place, JSON-LD) are in `seo.ts`.
 */

/** One FAQ question the model asked of a passage it was shown ("f2"). */
const AskedPair = z.object({
  passage: z.union([z.string(), z.number()]).transform((p) => `f${String(p).replace(/\D/g, "")}`),
  question: z.string().trim().min(5).max(200),
});

// Each field stands alone: a description the model left empty does not cost the article the model's FAQ (the
// rules hold every field to the same tests after, and keep their own version of one that fails).
const SeoAnswer = z.object({
  title: z.string().trim().max(200).catch(""),
  title_variants: z.array(z.string().trim().min(5).max(200)).max(8).catch([]).default([]),
  meta_description: z.string().trim().max(400).catch("").default(""),
  faq_questions: z.array(z.string().trim().min(5).max(200)).max(8).catch([]).default([]),
  // What a real model returns varies: a passage's label as "f2", "[f2]" or 2; a pair it got wrong is dropped alone.
  faq: z
    .array(z.unknown())
    .default([])
    .transform((items) => items.slice(0, 12).flatMap((item) => {
      const pair = AskedPair.safeParse(item);
      return pair.success ? [pair.data] : [];
    })),
});

/**
 * What the seo stage decides before the article is written (it runs beside the draft, from the outline and
 * the evidence): title, variants, meta title, slug, the model's description when it wrote a usable one, and FAQ
 * candidates ranked best first. `finishSearchMetadata` completes it against the checked body.
 */
export interface SeoPlan {
  title: string;
  title_variants: string[];
  meta_title: string;
  slug: string;
  /** The model's description, held to the rules; null offline or when it broke them (the body's sentences are used). */
  meta_description: string | null;
  /** More than the FAQ shows: those whose answer the body ends up quoting are dropped when the article is finished. */
  faq_candidates: FaqEntry[];
  by: "model" | "rules";
}

/** What the seo stage's model sees of the article it is to describe: the planned headings and the opening it will likely have. */
export interface SeoContext {
  headings: string[];
  opening: string;
  /** The passages kept for the FAQ (`faqPassages`): the model asks what each answers alone. */
  faqPassages?: readonly { key: string; text: string }[];
}

/** FAQ candidates kept at planning: enough that the body quoting some of them still leaves a full FAQ. */
const FAQ_CANDIDATES = 15;
/** Answers kept per question at planning: the body may quote the best one. */
const FAQ_ALTERNATIVES = 3;

/**
 * seo, planned: title, meta title (≤ 60), slug, at least three title variants and FAQ candidates (questions
 * answered by evidence), with the keyword in the title. With a model, it proposes title, variants, description
 * and questions (JSON, validated and held to the same rules); answers always come from the evidence.
 */
export async function planSearchMetadata(brief: ArticleBrief, context: SeoContext, evidence: readonly Evidence[], model?: MeteredModel): Promise<SeoPlan> {
  const rulesTitles = titleCandidates(brief);
  let title = rulesTitles[0];
  let variants = rulesTitles.slice(1);
  let description: string | null = null;
  let questions: string[] = [];
  let asked: AskedOfPassage[] = [];
  let by: "model" | "rules" = "rules";
  const passages = (context.faqPassages ?? []).map((p, i) => ({ ...p, label: `f${i + 1}` }));

  if (model) {
    const pack = languagePack(brief.language);
    const answer = await model.json(
      [
        {
          role: "system",
          content:
            `You write search metadata in ${pack.name}. The title and every title variant contain the target keyword exactly. ` +
            "The meta description (at most 160 characters) contains the keyword and summarises the article. " +
            `For the FAQ: of each numbered passage that answers, on its own, a question a reader of the article would ask, write that question in ${pack.name}, ` +
            "one the passage answers fully, naming what it asks about (no \"this\" or \"it\"); skip a passage that answers none. " +
            'Answer with JSON only: {"title": "...", "title_variants": ["...", "...", "..."], "meta_description": "...", "faq": [{"passage": "f1", "question": "..."}]}.',
        },
        {
          role: "user",
          content: [
            `Target keyword: ${brief.keyword}`,
            `Topic: ${brief.topic}`,
            `Search intent: ${brief.intent}`,
            `Headings: ${context.headings.filter(Boolean).join("; ")}`,
            `Opening: ${context.opening}`,
            ...(passages.length ? ["Passages for the FAQ:", ...passages.map((p) => `${p.label}: ${p.text}`)] : []),
          ].join("\n"),
        },
      ],
      SeoAnswer,
      { maxTokens: 700 },
    );
    if (answer) {
      by = "model";
      // A field the model wrote in another language, or with an address in it, keeps the rules' version.
      const usable = (text: string) => isInLanguage(text, brief.language, [brief.topic, brief.keyword]) && !/https?:\/\/|www\./i.test(text);
      // A model's title names the keyword and never stacks subtitles ("X: a guide: what you need to know").
      const stacked = (t: string) => (t.match(/:\s/g) ?? []).length > 1;
      if (answer.title.length >= 5 && containsKeyword(answer.title, brief.keyword) && usable(answer.title) && !stacked(answer.title)) title = tidyHeading(answer.title);
      const modelVariants = answer.title_variants.filter((v) => containsKeyword(v, brief.keyword) && v !== title && usable(v)).map(tidyHeading);
      variants = [...new Set([...modelVariants, ...rulesTitles])].filter((v) => v !== title);
      const modelDescription = cutAtClause(answer.meta_description.trim(), META_DESCRIPTION_MAX);
      if (modelDescription && containsKeyword(modelDescription, brief.keyword) && /[.!?]$/.test(modelDescription) && usable(modelDescription)) description = modelDescription;
      questions = [...answer.faq_questions];
      const byLabel = new Map(passages.map((p) => [p.label, p.key]));
      asked = answer.faq.flatMap((f) => (byLabel.has(f.passage) ? [{ question: f.question, unit: byLabel.get(f.passage)! }] : []));
    }
  }
  const titleVariants = variants.slice(0, 5);
  return {
    title,
    title_variants: titleVariants,
    meta_title: metaTitleFrom(title, titleVariants, brief.keyword),
    slug: slugify(brief.keyword) || slugify(title) || "article",
    meta_description: description,
    faq_candidates: groundFaq(questions, brief, evidence, { max: FAQ_CANDIDATES, alternatives: FAQ_ALTERNATIVES, asked }),
    by,
  };
}

/** What the planned opening will likely say: the evidence's most on-topic standalone sentences (for the seo model's prompt). */
export function likelyOpening(brief: ArticleBrief, evidence: readonly Evidence[], maxWords = 60): string {
  const relevance = relevanceModel(evidence, brief);
  const units = [...relevance.aboutUnits].sort((a, b) => relevance.strength(b) - relevance.strength(a));
  const out: string[] = [];
  let words = 0;
  for (const u of units) {
    if (words >= maxWords) break;
    if (dependsOnPrevious(u.sentences[0], brief.language)) continue;
    out.push(u.text);
    words += u.words;
  }
  return out.join(" ");
}

export interface SeoOutcome {
  seo: SeoResult;
  body: ArticleBody;
  report: { framed_first_paragraph: boolean; keyword_heading_added: boolean; faq: number; by: "model" | "rules" };
}

/**
 * seo, finished against the checked body: the keyword placed in the first paragraph and a heading, the
 * description from the body's own sentences when the model gave none, an FAQ of the candidates whose answers
 * the body does not quote, and JSON-LD with the addresses the body cites.
 */
export function finishSearchMetadata(plan: SeoPlan, body: ArticleBody, brief: ArticleBrief, evidence: readonly Evidence[]): SeoOutcome {
  const placed = placeKeyword(body, brief);
  const faq = faqNotInBody(plan.faq_candidates, placed.body);
  const seo: Omit<SeoResult, "json_ld"> = {
    title: plan.title,
    meta_title: plan.meta_title,
    meta_description: plan.meta_description ?? metaDescriptionFrom(placed.body, brief, evidence),
    slug: plan.slug,
    title_variants: plan.title_variants,
    faq,
  };
  const cited = [...new Set(placed.body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.flatMap((x) => x.cites))))];
  const urls = [...new Set(cited.map((id) => evidence.find((e) => e.id === id)?.url).filter((u): u is string => Boolean(u)))];
  return {
    seo: { ...seo, json_ld: buildJsonLd(brief, seo, urls) },
    body: placed.body,
    report: { framed_first_paragraph: placed.framed, keyword_heading_added: placed.headingChanged, faq: faq.length, by: plan.by },
  };
}

/** Both halves at once, for a body already written (tests and tools that have the article in hand). */
export async function optimizeForSearch(body: ArticleBody, brief: ArticleBrief, evidence: readonly Evidence[], model?: MeteredModel): Promise<SeoOutcome> {
  const context = { headings: body.sections.map((s) => s.heading), opening: body.sections[0]?.paragraphs[0]?.sentences.map((s) => s.text).join(" ") ?? "" };
  return finishSearchMetadata(await planSearchMetadata(brief, context, evidence, model), body, brief, evidence);
}
