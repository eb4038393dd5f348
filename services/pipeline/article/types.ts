/**
 * The article pipeline's data, as it travels between stages in the job's state (plain JSON: each stage's
 * output is merged into the job document, and a stage that is re-run after a crash reads the same input).
 */
import type { ArticleMode } from "../../../shared/schemas/articles";
import type { RequestSubject } from "./relevance/weights";
import type { PassageGrades, StripGrades } from "./relevance/model-grades";

export type SearchIntent = "informational" | "commercial" | "transactional" | "navigational";
export const SEARCH_INTENTS: readonly SearchIntent[] = ["informational", "commercial", "transactional", "navigational"];

/** The brand's voice as the writers and the editor use it (from the profile's voice_profile). */
export interface VoiceGuide {
  tone: string[];
  person: string;
  /** Flesch reading ease of the brand's own writing, when measured. */
  readingEase: number | null;
  sentenceMean: number | null;
  vocabulary: string[];
  preferPhrases: string[];
  avoidPhrases: string[];
}

export interface BrandBrief {
  id: string;
  name: string;
  website_url: string | null;
  description: string | null;
  /** Sources that are writing samples: they teach the voice and are never cited as evidence. */
  writing_sample_ids: string[];
}

export interface KeyFact {
  fact: string;
  chunk_id: string;
  source_url: string | null;
}

/** recon's decision: what the article is for and how it is framed. */
export interface ArticleBrief {
  topic: string;
  keyword: string;
  language: string;
  mode: ArticleMode;
  audience: string | null;
  tone: string | null;
  extra_instructions: string | null;
  intent: SearchIntent;
  angle: string;
  decided_by: "model" | "rules";
  brand: BrandBrief | null;
  voice: VoiceGuide | null;
  key_facts: KeyFact[];
  /** The request's subject and angle, weighed within the brand profile (`relevance/weights.ts`); absent for jobs recon ran before it existed. */
  subject?: RequestSubject;
  /** With a model: its grade of each passage of the research pool (`relevance/model-grades.ts`). */
  passage_grades?: PassageGrades;
  /** With a model: its grade of each strip of the passages it did not grade irrelevant (`relevance/model-grades.ts`). */
  strip_grades?: StripGrades;
}

export type SectionRole = "intro" | "body" | "conclusion";

export interface PlannedSection {
  key: string;
  role: SectionRole;
  /** Empty for the introduction, which has no heading. */
  heading: string;
  /** What the section covers, for the writer. */
  brief: string;
  /** What research and the writers rank evidence against. */
  query: string;
  /** Words the section aims for; the budgets of an outline add up to its target. */
  budget: number;
}

export interface Outline {
  requested_words: number;
  target_words: number;
  sections: PlannedSection[];
  planned_by: "model" | "rules";
}

/** A passage the article may cite: a verbatim excerpt of a source, with where and when it was read. */
export interface Evidence {
  /** Short and stable within the job: "e12". */
  id: string;
  /** An address a reader can open (the page, the address a pasted text came from), or `urn:uuid:<source id>` for a pasted text without one: cited by title, never linked. */
  url: string;
  title: string;
  /** The heading path of the passage in its source ("Pricing › Enterprise plan"), when it has one. */
  heading?: string;
  quote: string;
  fetched_at: string;
  origin: "brand" | "web";
  chunk_id?: string;
  /** The passage's place in its document (a chunk's ordinal, a page passage's index): a section quotes one document's passages in its order. */
  position?: number;
}

/** A sentence of the article and the evidence it rests on. */
export interface ArticleSentence {
  text: string;
  /** Evidence ids; empty for a framing sentence that states no fact. */
  cites: string[];
}

export interface ArticleParagraph {
  sentences: ArticleSentence[];
}

export interface ArticleSection {
  key: string;
  role: SectionRole;
  heading: string;
  paragraphs: ArticleParagraph[];
}

export interface ArticleBody {
  writer: "model" | "extractive";
  sections: ArticleSection[];
}

/** The sentences of sections, in reading order. */
export function sentencesIn(sections: readonly ArticleSection[]): ArticleSentence[] {
  return sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
}

export interface FaqEntry {
  question: string;
  answer: string;
  cites: string[];
}

export interface SeoResult {
  title: string;
  meta_title: string;
  meta_description: string;
  slug: string;
  title_variants: string[];
  faq: FaqEntry[];
  json_ld: Record<string, unknown>;
}
