import { z } from "zod";
import { describeModelFailure } from "../../../shared/llm/openai-chat";
import type { GenerateImageFn } from "../../../shared/llm/openai-images";
import type { CompleteFn } from "../../../shared/llm/types";
import { CreateArticleBody, GeneratedArticle, type ArticleJobInput } from "../../../shared/schemas/articles";
import type { RetrievedChunk } from "../../../shared/schemas/brand";
import type { ArticleStageKey } from "../../../shared/job-types";
import type { StageCallParams, StageOutcome } from "../../../shared/schemas/jobs";
import type { ExtractedDocument } from "../../../shared/text/document";
import { createCoverImage, type CoverImage } from "./media/cover-image";
import { buildDerivatives, type ArticleDerivatives } from "./media/derivatives";
import { assertEnoughEvidence, assertLongEnough, draftArticle, fitOutlineToEvidence, writeSectionAgain } from "./writers/draft";
import { faqPassages, reserveFaqAnswers } from "./search/faq";
import { editArticle } from "./editing/edit";
import { ExtractiveSectionWriter } from "./writers/extractive-writer";
import { MeteredModel, ModelFailure } from "./model/metered-model";
import { ModelSectionWriter } from "./writers/model-writer";
import { knowledgeThemes, planOutlineByRules, planOutlineWithModel } from "./brief/outline";
import { decideBriefByRules, decideBriefWithModel, type BrandProfileView } from "./brief/recon";
import { renderArticle } from "./quality/render";
import { gatherEvidence, RESEARCH_DEPTH, researchQueries, sectionQueries, type ResearchReport } from "./evidence/research";
import { scoreArticle, type ArticleScore } from "./quality/score";
import type { SectionWriter } from "./writers/section-writer";
import { countGrades, gradePoolWithModel, weighRequest, type TermStats } from "./relevance";
import { finishSearchMetadata, likelyOpening, planSearchMetadata, type SeoPlan } from "./search/metadata";
import type { ArticleBody, ArticleBrief, Evidence, Outline, SeoResult } from "./types";
import type { SearchProvider } from "./evidence/web-search";

/** What the article stages need from the outside world, injected (the service builds it from config and the broker). */
export interface ArticleStageDeps {
  /** The chat model; undefined runs every stage offline (rules, extractive writer). */
  complete?: CompleteFn;
  /** How many times the model client retries, for error messages. */
  modelRetries: number;
  search?: SearchProvider;
  fetchDocument(url: string): Promise<ExtractedDocument>;
  retrieve(brandProfileId: string, query: string, k: number): Promise<RetrievedChunk[]>;
  getProfile(brandProfileId: string): Promise<BrandProfileView>;
  /** How a citation names a pasted source without a public address (`sourceReference`: an identifier, never a link). */
  sourceAddress(brandProfileId: string, sourceId: string): string;
  /** How many of the profile's indexed chunks hold each term (the relevance model's weights). */
  termStats(brandProfileId: string, terms: { term: string; word: string }[]): Promise<TermStats>;
  /** The profile's sources with their types (writing samples are told apart by it). */
  listSources(brandProfileId: string): Promise<{ id: string; type: string }[]>;
  generateImage?: GenerateImageFn;
  recordTokens(tokensIn: number, tokensOut: number): Promise<void>;
  /** Best effort: never throws. */
  reportProgress(meta: Record<string, unknown>): Promise<unknown>;
  now(): Date;
}

/** The job's input: the request with its defaults applied and the keyword filled (fields the articles service adds are ignored). */
const ArticleJobInputSchema = z.object({ ...CreateArticleBody.shape, target_keyword: z.string().trim().min(1) });

export function parseArticleInput(input: Record<string, unknown>): ArticleJobInput {
  return ArticleJobInputSchema.parse(input);
}

/** What the stages leave in the job's state, by key. */
export interface ArticleState {
  brief: ArticleBrief;
  outline: Outline;
  evidence: Evidence[];
  research: ResearchReport;
  article: ArticleBody;
  edit: { model_verified: boolean };
  /** What the seo stage decided beside the draft; `seo` is it finished against the checked body (score stage). */
  seo_plan: SeoPlan;
  seo: SeoResult;
  rendered: { content_markdown: string; citations: GeneratedArticle["citations"] };
  score: ArticleScore;
  image: CoverImage;
  derivatives: ArticleDerivatives;
  /** Units research kept out of the body for the FAQ's answers (`search/faq.ts`). */
  faq_reserved: string[];
}

/**
 * The job's state as the article stages left it: the one place its untyped record is read as `ArticleState`
 * (each key is written only by the stage that owns it, from a value of that type).
 */
function stateOf(state: Record<string, unknown>): Partial<ArticleState> {
  return state as Partial<ArticleState>;
}

function need<K extends keyof ArticleState>(state: Record<string, unknown>, key: K): ArticleState[K] {
  const value = stateOf(state)[key];
  if (value === undefined || value === null) throw new Error(`the job state has no ${key}: stages ran out of order`);
  return value;
}

type StageRunner = (deps: ArticleStageDeps, call: StageCallParams, input: ArticleJobInput, model: MeteredModel | undefined) => Promise<StageOutcome>;

function writerFor(model: MeteredModel | undefined): SectionWriter {
  return model ? new ModelSectionWriter(model) : new ExtractiveSectionWriter();
}

/** The brand's knowledge without its writing samples (voice material, not evidence). */
function knowledgeOf(deps: ArticleStageDeps, brief: ArticleBrief): ((query: string, k: number) => Promise<RetrievedChunk[]>) | undefined {
  const brand = brief.brand;
  if (!brand) return undefined;
  const samples = new Set(brand.writing_sample_ids ?? []);
  return async (query, k) => (await deps.retrieve(brand.id, query, k + samples.size)).filter((c) => !samples.has(c.source_id)).slice(0, k);
}

function researchDepsFor(deps: ArticleStageDeps, brief: ArticleBrief, progress?: (meta: Record<string, unknown>) => void) {
  return {
    retrieve: knowledgeOf(deps, brief),
    sourceAddress: (sourceId: string) => deps.sourceAddress(brief.brand?.id ?? "", sourceId),
    search: deps.search,
    fetchDocument: deps.fetchDocument,
    now: deps.now,
    progress,
  };
}

/** One runner per stage the article job type declares (shared/job-types.ts): the compiler holds the two lists equal. */
const STAGES: Record<ArticleStageKey, StageRunner> = {
  /** recon: intent, angle, the brand's facts and voice. */
  async recon(deps, _call, input, model) {
    const profile = input.brand_profile_id ? await deps.getProfile(input.brand_profile_id) : null;
    const samples = input.brand_profile_id ? (await deps.listSources(input.brand_profile_id)).filter((s) => s.type === "writing_sample").map((s) => s.id) : [];
    let brief = decideBriefByRules(input, profile, samples);
    if (model) brief = await decideBriefWithModel(model, input, brief);
    brief = { ...brief, subject: brief.brand ? await weighRequest(brief, (terms) => deps.termStats(brief.brand!.id, terms)) : undefined };
    return {
      state: { brief },
      meta: {
        ...(brief.subject ? { subject: brief.subject.terms.map((t) => ({ term: t.surface, weight: Math.round(t.weight * 100) / 100, ...(t.ubiquitous ? { ubiquitous: true } : {}) })), request_angle: brief.subject.angle } : {}),
        intent: brief.intent,
        angle: brief.angle,
        decided_by: brief.decided_by,
        brand: brief.brand?.name ?? null,
        key_facts: brief.key_facts.length,
        voice: brief.voice ? brief.voice.tone : null,
        ...model?.meta(),
      },
    };
  },

  /** plan: headed sections with word budgets, shaped by what the knowledge base covers near the topic. */
  async plan(deps, call, input, model) {
    const brief = need(call.state, "brief");
    const knowledge = knowledgeOf(deps, brief);
    const chunks = knowledge ? await knowledge(`${brief.topic} ${brief.keyword}`, 16) : [];
    const themes = knowledgeThemes(chunks, brief, brief.language);
    let outline = planOutlineByRules(brief, input.target_words, themes);
    if (model) outline = await planOutlineWithModel(model, brief, input.target_words, themes, outline);
    const clamped = outline.requested_words !== outline.target_words ? { clamped: { requested: outline.requested_words, used: outline.target_words } } : {};
    return {
      state: { outline },
      meta: {
        sections: outline.sections.length,
        body_sections: outline.sections.filter((s) => s.role === "body").length,
        target_words: outline.target_words,
        ...clamped,
        outline: outline.sections.map((s) => ({ key: s.key, heading: s.heading, budget: s.budget })),
        knowledge_themes: themes.slice(0, 8).map((t) => t.heading),
        planned_by: outline.planned_by,
        ...model?.meta(),
      },
    };
  },

  /** research: the evidence pool from the knowledge base and, when configured, the web. */
  async research(deps, call, _input, model) {
    const brief = need(call.state, "brief");
    const outline = need(call.state, "outline");
    const depth = RESEARCH_DEPTH[brief.mode];
    const queries = researchQueries(outline, brief, depth);
    const { evidence, report } = await gatherEvidence(researchDepsFor(deps, brief, (meta) => void deps.reportProgress(meta)), brief, queries, depth);
    // With a model, corrective retrieval's evaluator grades every passage, then the strips of those it kept.
    const grades = model ? await gradePoolWithModel(model, brief, evidence) : undefined;
    const graded = grades ? { passage_grades: countGrades(grades.passage_grades), strip_grades: countGrades(grades.strip_grades) } : {};
    const judged = grades ? { ...brief, ...grades } : brief;
    // The FAQ's answers are kept out of the body when the evidence is plentiful (search/faq.ts): decided here,
    // before the draft and the search metadata are written side by side.
    const reserved = reserveFaqAnswers(judged, evidence, outline.requested_words);
    return {
      state: { evidence, research: report, faq_reserved: [...reserved], ...(grades ? { brief: judged } : {}) },
      meta: { ...report, search: deps.search?.name ?? "none", depth: brief.mode, ...graded, faq_reserved: reserved.size, ...model?.meta() },
    };
  },

  /** draft: every section from the evidence (side by side with a model); thin evidence fails the job here. */
  async draft(deps, call, _input, model) {
    const brief = need(call.state, "brief");
    const outline = need(call.state, "outline");
    const evidence = need(call.state, "evidence");
    const check = assertEnoughEvidence(brief, outline, evidence, stateOf(call.state).research);
    // Thin evidence makes a shorter article, never a padded one: the plan is cut to what the evidence backs.
    const fitted = fitOutlineToEvidence(outline, check);
    const shortened = fitted.target_words < outline.target_words ? { shortened: { planned: outline.target_words, to: fitted.target_words } } : {};
    const reserved = new Set(stateOf(call.state).faq_reserved ?? []);
    const { body, report } = await draftArticle(writerFor(model), brief, fitted, evidence, (meta) => void deps.reportProgress(meta), reserved);
    return {
      state: { article: body, outline: fitted },
      meta: { ...report, usable_sentences: check.usable, needed_sentences: check.needed, pool_coverage: check.pool_coverage, ...shortened, ...model?.meta() },
    };
  },

  /** edit: style and voice, repetition, and every citation checked against its evidence. */
  async edit(deps, call, _input, model) {
    const brief = need(call.state, "brief");
    const outline = need(call.state, "outline");
    const writer = writerFor(model);
    const deep = RESEARCH_DEPTH.deep_research;
    const result = await editArticle(need(call.state, "article"), brief, outline, need(call.state, "evidence"), {
      model,
      researchSection: async (section, pool) => {
        const queries = sectionQueries(section, brief, deep).map((query) => ({ section: section.key, query }));
        return (await gatherEvidence(researchDepsFor(deps, brief), brief, queries, deep, pool)).evidence;
      },
      // The units kept for the FAQ stay out of a rewritten section too.
      rewriteSection: (section, others, pool) =>
        writeSectionAgain(writer, { brief, outline, section, earlier: others, evidence: pool, reserved: new Set(stateOf(call.state).faq_reserved ?? []) }),
    });
    if (!result.body.sections.length) throw new Error("no claim of the draft is supported by its evidence; nothing publishable is left");
    // What is left must be an article: the refusal floor on length (draft.ts), with the credits back.
    assertLongEnough(result.body, brief, outline.requested_words, stateOf(call.state).research);
    return { state: { article: result.body, evidence: result.evidence, edit: { model_verified: Boolean(model) } }, meta: { ...result.report, ...model?.meta() } };
  },

  /** seo, beside the draft: title, meta title, slug, variants and FAQ candidates from the outline and the evidence. */
  async seo(_deps, call, _input, model) {
    const brief = need(call.state, "brief");
    const evidence = need(call.state, "evidence");
    const headings = need(call.state, "outline").sections.map((s) => s.heading);
    // With a model, it asks the FAQ's questions of the passages kept for it.
    const passages = model ? faqPassages(brief, evidence, new Set(stateOf(call.state).faq_reserved ?? [])).map((u) => ({ key: u.key, text: u.text })) : [];
    const plan = await planSearchMetadata(brief, { headings, opening: likelyOpening(brief, evidence), faqPassages: passages }, evidence, model);
    return {
      state: { seo_plan: plan },
      meta: { title: plan.title, meta_title: plan.meta_title, slug: plan.slug, title_variants: plan.title_variants.length, faq_candidates: plan.faq_candidates.length, by: plan.by, ...model?.meta() },
    };
  },

  /**
   * score: the article finished (the keyword placed, the description, FAQ and JSON-LD completed against the
   * checked body: search/seo.ts), rendered, and scored with its breakdown.
   */
  async score(_deps, call) {
    const brief = need(call.state, "brief");
    const evidence = need(call.state, "evidence");
    const finished = finishSearchMetadata(need(call.state, "seo_plan"), need(call.state, "article"), brief, evidence);
    const { body, seo } = finished;
    const rendered = renderArticle(body, seo.faq, evidence, brief.language);
    const score = scoreArticle({ markdown: rendered.markdown, body, outline: need(call.state, "outline"), seo, brief, evidence });
    return {
      state: { article: body, seo, rendered: { content_markdown: rendered.markdown, citations: rendered.citations }, score },
      meta: {
        word_count: score.word_count,
        body_words: score.body_words,
        // The gap a reader sees: words asked minus words delivered (after editing), never hidden by a shortened plan.
        requested_words: need(call.state, "outline").requested_words,
        shortfall_words: Math.max(0, need(call.state, "outline").requested_words - score.body_words),
        read_minutes: score.read_minutes,
        flesch_score: score.flesch_score,
        quality_score: score.quality_score,
        quality_breakdown: score.quality_breakdown,
        quality_caps: score.quality_caps,
        form_problems: score.form_problems,
        off_topic_sentences: score.off_topic_sentences,
        citations: rendered.citations.length,
        sources: rendered.sources.length,
        faq: seo.faq.length,
        framed_first_paragraph: finished.report.framed_first_paragraph,
        keyword_heading_added: finished.report.keyword_heading_added,
      },
    };
  },

  /** image: a cover from the images model, or the SVG title card. */
  async image(deps, call) {
    const seo = need(call.state, "seo_plan");
    let result;
    try {
      result = await createCoverImage(seo.title, need(call.state, "brief"), deps.generateImage);
    } catch (err) {
      throw new ModelFailure(`Image generation failed: ${describeModelFailure(err, deps.modelRetries)}`);
    }
    if (result.tokensIn || result.tokensOut) await deps.recordTokens(result.tokensIn, result.tokensOut);
    const { image } = result;
    return {
      state: { image },
      meta: { by: result.by, media_type: image.media_type, width: image.width, height: image.height, bytes: Buffer.byteLength(image.data_base64, "base64") },
    };
  },

  /** derivatives: the requested social and newsletter versions, faithful to the article. */
  async derivatives(_deps, call, input, model) {
    const brief = need(call.state, "brief");
    const { derivatives, by } = await buildDerivatives(
      { kinds: input.derivatives, body: need(call.state, "article"), seo: need(call.state, "seo"), evidence: need(call.state, "evidence"), lang: brief.language },
      model,
    );
    return {
      state: { derivatives },
      meta: {
        kinds: input.derivatives,
        by,
        ...(derivatives.x_thread ? { x_posts: derivatives.x_thread.length } : {}),
        ...(derivatives.linkedin ? { linkedin_chars: derivatives.linkedin.length } : {}),
        ...model?.meta(),
      },
    };
  },
};

export const ARTICLE_STAGE_KEYS = Object.keys(STAGES);

/** One stage of an article job, dispatched on its key; each stage gets its own metered model so its meta shows its usage. */
export async function runArticleStage(deps: ArticleStageDeps, call: StageCallParams): Promise<StageOutcome> {
  const run = (STAGES as Record<string, StageRunner | undefined>)[call.stage];
  if (!run) throw new Error(`unknown article stage "${call.stage}"`);
  const model = deps.complete ? new MeteredModel(deps.complete, deps.recordTokens, deps.modelRetries, call.job_id) : undefined;
  let outcome: StageOutcome;
  try {
    outcome = await run(deps, call, parseArticleInput(call.input), model);
  } catch (err) {
    // Tokens spent are recorded even when the stage fails afterwards; the stage's own error is the one reported.
    await model?.settle().catch(() => undefined);
    throw err;
  }
  await model?.settle();
  return outcome;
}

/** The finished article from the job's input and state: what `articles.saveGenerated` receives, validated. */
export function buildGeneratedArticle(params: { job_id: string; org_id: string; input: Record<string, unknown>; state: Record<string, unknown> }): GeneratedArticle {
  const input = parseArticleInput(params.input);
  const state = params.state;
  const seo = need(state, "seo");
  const score = need(state, "score");
  const rendered = need(state, "rendered");
  return GeneratedArticle.parse({
    job_id: params.job_id,
    org_id: params.org_id,
    brand_profile_id: input.brand_profile_id ?? null,
    mode: input.mode,
    language: input.language,
    topic: input.topic,
    target_keyword: input.target_keyword,
    title: seo.title,
    content_markdown: rendered.content_markdown,
    meta_title: seo.meta_title,
    meta_description: seo.meta_description,
    slug: seo.slug,
    title_variants: seo.title_variants,
    faq: seo.faq.map((f) => ({ question: f.question, answer: f.answer })),
    json_ld: seo.json_ld,
    citations: rendered.citations,
    word_count: score.word_count,
    read_minutes: score.read_minutes,
    flesch_score: score.flesch_score,
    quality_score: score.quality_score,
    quality_breakdown: score.quality_breakdown,
    image: stateOf(state).image ?? null,
    derivatives: stateOf(state).derivatives ?? null,
  });
}
