import { z } from "zod";
import { PIPELINE_MAX_WORDS, PIPELINE_MIN_WORDS } from "../../../../shared/schemas/articles";
import type { RetrievedChunk } from "../../../../shared/schemas/brand";
import { countWords } from "../../../../shared/text/segment";
import type { MeteredModel } from "../model/metered-model";
import { cleanHeading } from "../../../../shared/text/extract";
import { capitalizeFirst, fill, keywordFitsTemplates, languagePack, templateSubject, tidyHeading } from "../language/phrases";
import { languageProfile } from "../language";
import { containment, termSet } from "../evidence/similarity";
import { isInLanguage } from "../../../../shared/text/language";
import { looksLikeCode } from "../evidence/units";
import { relevanceModel } from "../relevance";
import type { ArticleBrief, Evidence, KeyFact, Outline, PlannedSection } from "../types";

export interface ClampedTarget {
  used: number;
  /** Present when the request was outside the pipeline's range. */
  clamped?: { requested: number; used: number };
}

/** The pipeline writes 600 to 3000 words (rule: target_words is clamped to the pipeline's range); a request outside is clamped and the plan says so. */
export function clampTargetWords(requested: number): ClampedTarget {
  const used = Math.min(PIPELINE_MAX_WORDS, Math.max(PIPELINE_MIN_WORDS, Math.round(requested)));
  return used === requested ? { used } : { used, clamped: { requested, used } };
}

/** About one body section per 320 words: 3 for 600 words, 5 for 1600, 8 from about 2400. */
export function bodySectionCount(targetWords: number): number {
  return Math.min(8, Math.max(3, Math.round(targetWords / 320)));
}

export interface Budgets {
  intro: number;
  body: number[];
  conclusion: number;
}

/** Word budgets that add up to the target exactly: ~10% introduction, ~8% conclusion, the rest shared by the body. */
export function allocateBudgets(targetWords: number, bodyCount: number): Budgets {
  const intro = Math.min(200, Math.max(60, Math.round(targetWords * 0.1)));
  const conclusion = Math.min(160, Math.max(50, Math.round(targetWords * 0.08)));
  const bodyTotal = targetWords - intro - conclusion;
  const each = Math.floor(bodyTotal / bodyCount);
  const body = Array.from({ length: bodyCount }, (_, i) => each + (i < bodyTotal - each * bodyCount ? 1 : 0));
  return { intro, body, conclusion };
}

/** A subject the brand's knowledge base covers near the topic: a top-level heading of its sources. */
export interface KnowledgeTheme {
  heading: string;
  /** Reciprocal ranks of the chunks under it: themes many top chunks share come first. */
  weight: number;
}

const MAX_THEME_WORDS = 8;

/**
 * Headings of the chunks retrieved for the topic, best first: each chunk's most specific heading (the last of
 * its path), grouped. A heading that says nothing beyond the topic ("Route planning") or names the brand is
 * no subject of its own.
 */
export function knowledgeThemes(chunks: readonly RetrievedChunk[], brief: Pick<ArticleBrief, "topic" | "keyword" | "brand">, lang: string): KnowledgeTheme[] {
  const themes = new Map<string, KnowledgeTheme>();
  const topicTerms = termSet(`${brief.topic} ${brief.keyword}`, lang);
  // Only chunks with sentences about the topic, in the article's language, lend their headings to the plan.
  const pool: Evidence[] = chunks.map((c, i) => ({ id: `c${i}`, url: c.url ?? "", title: c.title, heading: c.heading_path.join(" › "), quote: c.text, fetched_at: "", origin: "brand" }));
  const relevance = relevanceModel(pool, { topic: brief.topic, keyword: brief.keyword, language: lang, brand: brief.brand });
  const about = new Set(relevance.aboutUnits.map((u) => u.evidenceId));
  chunks.forEach((chunk, rank) => {
    if (!about.has(`c${rank}`)) return;
    const heading = (chunk.heading_path[chunk.heading_path.length - 1] ?? "").replace(/\s+/g, " ").trim();
    if (!isSubjectHeading(heading, brief, lang, topicTerms)) return;
    const key = heading.toLowerCase();
    const theme = themes.get(key) ?? { heading, weight: 0 };
    theme.weight += 1 / (rank + 1);
    themes.set(key, theme);
  });
  return [...themes.values()].sort((a, b) => b.weight - a.weight);
}

/**
 * A source's heading that can head an article's section: short, no question, no command line, in the
 * article's language, no reading list, not the brand's name, and saying something beyond the topic.
 */
export function isSubjectHeading(heading: string, brief: Pick<ArticleBrief, "topic" | "keyword" | "brand">, lang: string, topicTerms: ReadonlySet<string>): boolean {
  if (!heading || countWords(heading, lang) > MAX_THEME_WORDS || heading.endsWith("?")) return false;
  // A heading that is a command line, or reads as another language than the article's, is no heading for it.
  if (looksLikeCode(heading) || !isInLanguage(heading, lang, [brief.topic, brief.keyword])) return false;
  // A reading list holds pointers, no subject: "More readings for the package management".
  if (languageProfile(lang).furtherReading.test(heading)) return false;
  if (brief.brand && heading.toLowerCase() === brief.brand.name.toLowerCase()) return false;
  return ![...termSet(heading, lang)].every((t) => topicTerms.has(t));
}

const hasKeyword = (heading: string, keyword: string) => heading.toLowerCase().includes(keyword.toLowerCase());

/** The facts whose words the heading shares most, for the section's brief: the knowledge base shapes what each section says. */
function factsFor(heading: string, facts: readonly KeyFact[], lang: string, used: Set<string>): KeyFact[] {
  const terms = termSet(heading, lang);
  return facts
    .filter((f) => !used.has(f.fact) && containment(terms, termSet(f.fact, lang)) > 0)
    .slice(0, 3)
    .map((f) => (used.add(f.fact), f));
}

function section(key: string, role: PlannedSection["role"], heading: string, brief: string, query: string, budget: number): PlannedSection {
  return { key, role, heading, brief, query, budget };
}

/**
 * The outline around a list of body headings: an introduction without heading, the body sections, a
 * conclusion; budgets by `allocateBudgets`; each body heading's brief names the brand facts it should use.
 */
export function outlineFromHeadings(
  brief: ArticleBrief,
  target: ClampedTarget,
  requestedWords: number,
  bodies: { heading: string; brief: string }[],
  plannedBy: Outline["planned_by"],
): Outline {
  const pack = languagePack(brief.language);
  const budgets = allocateBudgets(target.used, bodies.length);
  const usedFacts = new Set<string>();
  const sections: PlannedSection[] = [
    section("intro", "intro", "", `Open the article: what ${brief.topic} is about and why it matters to the reader. Angle: ${brief.angle}.`, `${brief.topic} ${brief.keyword}`, budgets.intro),
  ];
  bodies.forEach((body, i) => {
    const facts = factsFor(body.heading, brief.key_facts, brief.language, usedFacts);
    const factNote = facts.length ? ` Use these documented facts where they fit: ${facts.map((f) => f.fact).join(" | ")}` : "";
    sections.push(section(`s${i + 1}`, "body", body.heading, body.brief + factNote, `${body.heading} ${brief.topic}`, budgets.body[i]));
  });
  sections.push(
    section("conclusion", "conclusion", pack.conclusionHeading, `Close the article: the main points about ${brief.topic} and what the reader can do next.`, `${brief.topic} ${brief.keyword}`, budgets.conclusion),
  );
  return { requested_words: requestedWords, target_words: target.used, sections, planned_by: plannedBy };
}

/** The overview heading of a keyword ("Route planning: an overview"); a clause keyword is its own heading, which templates would mangle. */
export function overviewHeading(keyword: string, lang: string): string {
  return tidyHeading(capitalizeFirst(keywordFitsTemplates(keyword) ? fill(languagePack(lang).overviewHeading, { K: templateSubject(keyword, lang) }) : keyword));
}

/**
 * plan offline: the first body section names the keyword (an overview), then the subjects the brand's
 * knowledge base covers near the topic (its own headings), then headings typical of the search intent (which
 * never name the keyword: `LanguagePack.bodyHeadings`).
 */
export function planOutlineByRules(brief: ArticleBrief, requestedWords: number, themes: readonly KnowledgeTheme[]): Outline {
  const target = clampTargetWords(requestedWords);
  const count = bodySectionCount(target.used);
  const pack = languagePack(brief.language);
  const keyword = brief.keyword;
  // A clause keyword ("How retailers forecast demand") is its own first heading (`overviewHeading`).
  const headings: { heading: string; brief: string }[] = [{ heading: overviewHeading(keyword, brief.language), brief: `Introduce ${keyword}: what it is and the essentials.` }];
  const taken = new Set(headings.map((h) => h.heading.toLowerCase()));
  for (const theme of themes) {
    if (headings.length >= count) break;
    if (taken.has(theme.heading.toLowerCase())) continue;
    taken.add(theme.heading.toLowerCase());
    headings.push({ heading: tidyHeading(theme.heading), brief: `What the brand's sources say about ${theme.heading.toLowerCase()}, as it relates to ${brief.topic}.` });
  }
  for (const template of pack.bodyHeadings[brief.intent]) {
    if (headings.length >= count) break;
    const heading = tidyHeading(template);
    if (taken.has(heading.toLowerCase())) continue;
    taken.add(heading.toLowerCase());
    headings.push({ heading, brief: `${heading}, for ${brief.topic}.` });
  }
  return outlineFromHeadings(brief, target, requestedWords, headings, "rules");
}

const PlanAnswer = z.object({
  sections: z.array(z.object({ heading: z.string().trim().min(2).max(120), brief: z.string().trim().min(5).max(600) })).min(3).max(8),
});

/** plan with a model: it proposes the body headings and briefs (JSON, validated); budgets and the keyword rule stay the pipeline's. */
export async function planOutlineWithModel(
  model: MeteredModel,
  brief: ArticleBrief,
  requestedWords: number,
  themes: readonly KnowledgeTheme[],
  rules: Outline,
): Promise<Outline> {
  const target = clampTargetWords(requestedWords);
  const count = bodySectionCount(target.used);
  const pack = languagePack(brief.language);
  const prompt = [
    `Topic: ${brief.topic}`,
    `Target keyword: ${brief.keyword}`,
    `Search intent: ${brief.intent}`,
    `Angle: ${brief.angle}`,
    brief.audience ? `Audience: ${brief.audience}` : "",
    brief.extra_instructions ? `Extra instructions: ${brief.extra_instructions}` : "",
    themes.length ? `Subjects the brand's knowledge base covers near this topic: ${themes.map((t) => t.heading).join("; ")}` : "",
    brief.key_facts.length ? `Facts the brand documents:\n${brief.key_facts.map((f) => `- ${f.fact}`).join("\n")}` : "",
    `Write ${count} body sections for a ${target.used}-word article (the introduction and conclusion are added separately).`,
  ].filter(Boolean);
  const answer = await model.json(
    [
      {
        role: "system",
        content:
          `You outline long-form articles in ${pack.name}. Headings are short, specific and in ${pack.name}; at least one contains the target keyword. ` +
          "Prefer subjects the brand's knowledge base covers. Each brief says in one or two sentences what the section covers. " +
          'Answer with JSON only: {"sections": [{"heading": "...", "brief": "..."}]}.',
      },
      { role: "user", content: prompt.join("\n") },
    ],
    PlanAnswer,
    { maxTokens: 1200 },
  );
  if (!answer || Math.abs(answer.sections.length - count) > 1) return rules;
  const bodies = answer.sections.map((s) => ({ heading: tidyHeading(cleanHeading(s.heading.replace(/^#+\s*/, ""))), brief: s.brief }));
  if (!bodies.some((b) => hasKeyword(b.heading, brief.keyword))) {
    bodies[0].heading = overviewHeading(brief.keyword, brief.language);
  }
  return outlineFromHeadings(brief, target, requestedWords, bodies, "model");
}
