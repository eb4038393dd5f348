import { countWords } from "../../../../shared/text/segment";
import { dependsOnPrevious } from "../evidence/units";
import { isSubjectHeading } from "../brief/outline";
import { languagePack, tidyHeading } from "../language/phrases";
import { isWellFormedQuestion } from "../search/faq";
import { tokenize } from "../../../../shared/text/tokenize";
import type { ArticleBrief, ArticleParagraph, ArticleSection, Evidence } from "../types";
import { headingKey, sourceHeadings } from "./section-names";

/** A source's question heads a section of at most this many words ("What happens when a new release is made?"). */
const QUESTION_HEADING_MAX_WORDS = 14;
/** A source heading takes paragraphs out of "Other points" when they hold at least this many sentences. */
const MIN_GROUP_SENTENCES = 2;

/** The key of a section split out of a planned one: the plan's key, "~" and its number ("s3~1"). */
const splitKey = (planned: string, n: number) => `${planned}~${n}`;

/** The outline's key of a written section: a section split under its sources' headings keeps its plan's key before "~". */
export const plannedKey = (key: string) => key.split("~")[0];

export interface FinishedSections {
  sections: ArticleSection[];
  /** Sections given the heading of an earlier one, and joined to it. */
  joined: string[];
  /** Sections split out of "Other points" under their sources' own headings (their keys: the section's, "~" and a number). */
  split: string[];
}

/**
 * How the finished body's sections stand (`editArticle`, once every planned section was checked for thinness
 * under its own key): a heading is given once, then what no phrase could name ("Other points") goes under its
 * sources' own headings where they can head a section.
 */
export function finishSections(sections: readonly ArticleSection[], brief: ArticleBrief, evidence: readonly Evidence[]): FinishedSections {
  const once = withHeadingsOnce(sections, brief.language);
  const grouped = once.sections.flatMap((s) => bySourceHeadings(s, brief, evidence, once.sections));
  return { sections: grouped, joined: once.joined, split: grouped.filter((s) => plannedKey(s.key) !== s.key).map((s) => s.key) };
}

/**
 * An "Other points" section split by the sources its paragraphs quote: paragraphs from passages under one source
 * heading, holding two sentences or more, become a section under that heading, in the order they stood; what is
 * left stays "Other points" after them. The source's heading may be a question a reader asks ("What happens when
 * a new release is made?"): a help centre or a FAQ heads its answers so, and as an article's heading it says what
 * the paragraphs under it answer. Read in the held-out probe's Debian FAQ article, whose 800 words stood under one
 * "Other points", each question's answer scattered among the others'.
 */
export function bySourceHeadings(section: ArticleSection, brief: ArticleBrief, evidence: readonly Evidence[], all: readonly ArticleSection[]): ArticleSection[] {
  const pack = languagePack(brief.language);
  if (section.role !== "body" || section.heading !== pack.otherPointsHeading) return [section];
  const sourceHeading = sourceHeadings(evidence, brief.language);
  const headingOf = (p: ArticleParagraph) => {
    const first = p.sentences.find((s) => s.cites.length);
    return first ? tidyHeading(sourceHeading(first)) : "";
  };
  const taken = new Set(all.filter((s) => s !== section).map((s) => headingKey(s.heading, brief.language)));
  // Grouped by the heading's terms, as headings are given once (`headingKey`): the first form found heads the group.
  const groups = new Map<string, { heading: string; paragraphs: ArticleParagraph[] }>();
  for (const paragraph of section.paragraphs) {
    const heading = headingOf(paragraph);
    const key = headingKey(heading, brief.language);
    if (!key || taken.has(key) || !canHead(heading, brief)) continue;
    const group = groups.get(key) ?? { heading, paragraphs: [] };
    group.paragraphs.push(paragraph);
    groups.set(key, group);
  }
  const heads = [...groups].filter(([, g]) => g.paragraphs.reduce((n, p) => n + p.sentences.length, 0) >= MIN_GROUP_SENTENCES);
  if (!heads.length) return [section];
  const moved = new Set(heads.flatMap(([, g]) => g.paragraphs));
  const rest = section.paragraphs.filter((p) => !moved.has(p));
  const split = heads.map(([, { heading, paragraphs }], i): ArticleSection => ({ key: splitKey(section.key, i + 1), role: "body", heading, paragraphs }));
  return rest.length ? [...split, { ...section, paragraphs: rest }] : split;
}

/** A source heading that can head an article's section: a subject heading (`isSubjectHeading`), or one short, well-formed question. */
function canHead(heading: string, brief: ArticleBrief): boolean {
  const topicTerms = new Set(tokenize(`${brief.topic} ${brief.keyword}`, brief.language));
  if (isSubjectHeading(heading, brief, brief.language, topicTerms)) return true;
  // A question that follows on from the one before ("And are there yet other ways of booting …?") heads nothing alone.
  return heading.endsWith("?") && countWords(heading, brief.language) <= QUESTION_HEADING_MAX_WORDS && isWellFormedQuestion(heading, brief) && !dependsOnPrevious(heading, brief.language);
}

/**
 * The body with each heading given once: sections under one heading stand together where the first of them
 * stood, and `joined` names the sections folded into an earlier one. A Debian FAQ article read "Other points"
 * four times, each over sentences no phrase could name; a reader takes a heading repeated as a fault, and what
 * names none of the sentences names all of them.
 */
export function withHeadingsOnce(sections: readonly ArticleSection[], lang: string): { sections: ArticleSection[]; joined: string[] } {
  const first = new Map<string, ArticleSection>();
  const out: ArticleSection[] = [];
  const joined: string[] = [];
  for (const section of sections) {
    const key = section.role === "body" ? headingKey(section.heading, lang) : "";
    const earlier = key ? first.get(key) : undefined;
    if (earlier) {
      earlier.paragraphs.push(...section.paragraphs);
      joined.push(section.key);
      continue;
    }
    const copy = { ...section, paragraphs: [...section.paragraphs] };
    if (key) first.set(key, copy);
    out.push(copy);
  }
  return { sections: out, joined };
}
