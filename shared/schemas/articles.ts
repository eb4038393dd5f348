import { z } from "zod";
import { isSupportedLanguageTag, SUPPORTED_LANGUAGES } from "../languages";
import { contract } from "../action";
import { orgId, uuid } from "../validation";
import { pageQuery, PageParams, type ListPage } from "./pagination";
import { ArticlePublication } from "./publishing";
import { listPageOf, resourceId, timestamp } from "./resource";
import { IdempotencyKey } from "./idempotency-key";

export const ARTICLE_MODES = ["standard", "deep_research"] as const;
const DERIVATIVE_KINDS = ["x_thread", "linkedin", "newsletter"] as const;
export const ARTICLE_STATUSES = ["draft", "in_review", "approved", "published"] as const;
export type ArticleMode = (typeof ARTICLE_MODES)[number];
export type DerivativeKind = (typeof DERIVATIVE_KINDS)[number];
export type ArticleStatus = (typeof ARTICLE_STATUSES)[number];

/**
 * The review lifecycle (docs/articles.md#lifecycle; the rules in services/articles/lifecycle.ts): forward one step at a time, back to an
 * earlier step whenever the text needs work again. Publishing needs an approval first; a
 * published article goes back to draft to be reworked.
 */
export const ARTICLE_TRANSITIONS: Readonly<Record<ArticleStatus, readonly ArticleStatus[]>> = {
  draft: ["in_review"],
  in_review: ["draft", "approved"],
  approved: ["draft", "in_review", "published"],
  published: ["draft"],
};

/** The words the pipeline aims for: a target_words outside this range is clamped and the job says so. */
export const PIPELINE_MIN_WORDS = 600;
export const PIPELINE_MAX_WORDS = 3000;

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** POST /v1/articles: every bound and default of the contract's table; unknown fields are refused. */
export const CreateArticleBody = z.strictObject({
  topic: z.string().trim().min(4, "must be at least 4 characters").max(500, "must be at most 500 characters"),
  target_keyword: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
  brand_profile_id: uuid.optional(),
  mode: z.enum(ARTICLE_MODES, { message: "must be 'standard' or 'deep_research'" }).default("standard"),
  language: z
    .string()
    .trim()
    .min(2, "must be at least 2 characters")
    .max(12, "must be at most 12 characters")
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, "must be a language tag such as en or en-GB")
    .refine(isSupportedLanguageTag, `must be a language the platform writes: ${SUPPORTED_LANGUAGES.join(", ")}`)
    .default("en"),
  target_words: z.number().int("must be a whole number").min(400, "must be at least 400").max(4000, "must be at most 4000").default(1600),
  tone: text(300).optional(),
  audience: text(300).optional(),
  extra_instructions: text(2000).optional(),
  image: z.boolean().default(false),
  derivatives: z
    .array(z.enum(DERIVATIVE_KINDS, { message: `must be one of ${DERIVATIVE_KINDS.join(", ")}` }))
    .max(3, "must list each kind at most once")
    .refine((kinds) => new Set(kinds).size === kinds.length, "must list each kind at most once")
    .default([]),
});
type CreateArticleInput = z.output<typeof CreateArticleBody>;

/** What the article pipeline receives as job input: the request with its defaults applied. */
export type ArticleJobInput = CreateArticleInput & { target_keyword: string };

/** A citation (rule: every claim carries its source) and, beyond the spec, the exact passage of the source the claim rests on. */
export const Citation = z.strictObject({ claim: z.string().min(1), url: z.string().min(1), title: z.string(), quote: z.string().min(1) });
export type Citation = z.output<typeof Citation>;

const FaqItem = z.strictObject({ question: z.string().min(1), answer: z.string().min(1) });

/** The quality score and what it is made of, each part 0–100 (docs/article-pipeline.md#the-quality-score). */
export const QualityBreakdown = z.strictObject({
  topical_relevance: z.number().min(0).max(100),
  claim_support: z.number().min(0).max(100),
  language_consistency: z.number().min(0).max(100),
  form: z.number().min(0).max(100),
  citation_coverage: z.number().min(0).max(100),
  readability: z.number().min(0).max(100),
  structure: z.number().min(0).max(100),
  keyword_coverage: z.number().min(0).max(100),
  duplication: z.number().min(0).max(100),
  length_vs_target: z.number().min(0).max(100),
  voice_match: z.number().min(0).max(100),
});

export const Derivatives = z.strictObject({
  x_thread: z.array(z.string().max(280)).optional(),
  linkedin: z.string().max(3000).optional(),
  newsletter: z.strictObject({ subject: z.string().min(1), body: z.string().min(1) }).optional(),
});

/** A generated cover image: the bytes travel base64-encoded to the articles service, which stores and serves them. */
export const GeneratedImage = z.strictObject({
  alt: z.string().min(1),
  media_type: z.enum(["image/svg+xml", "image/png", "image/jpeg", "image/webp"]),
  data_base64: z.string().min(1),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

/** What the pipeline hands to `articles.saveGenerated` when an article job's stages are done. */
export const GeneratedArticle = z.strictObject({
  job_id: uuid,
  org_id: orgId,
  brand_profile_id: uuid.nullable(),
  mode: z.enum(ARTICLE_MODES),
  language: z.string(),
  topic: z.string(),
  target_keyword: z.string(),
  title: z.string().min(1),
  content_markdown: z.string().min(1),
  meta_title: z.string().max(60),
  meta_description: z.string().max(160),
  slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
  title_variants: z.array(z.string().min(1)).min(3),
  faq: z.array(FaqItem).max(5),
  json_ld: z.record(z.string(), z.unknown()),
  citations: z.array(Citation),
  word_count: z.number().int().min(0),
  read_minutes: z.number().int().min(1),
  flesch_score: z.number(),
  quality_score: z.number().min(0).max(100),
  quality_breakdown: QualityBreakdown,
  image: GeneratedImage.nullable(),
  derivatives: Derivatives.nullable(),
});
export type GeneratedArticle = z.output<typeof GeneratedArticle>;

/** What `articles.create` receives: the validated body, the organization and the optional Idempotency-Key. */
export const CreateArticleParams = CreateArticleBody.extend({ org_id: orgId, idempotency_key: IdempotencyKey.optional() });

/** The job acknowledgement (rule: a paid request is answered 202 with its job): the answer to POST /v1/articles, first time and on replay. */
export const JobAcknowledgement = z.strictObject({
  id: resourceId,
  object: z.literal("job"),
  type: z.literal("article"),
  status: z.string(),
  credits_charged: z.number().int().min(0),
  replayed: z.boolean(),
  links: z.strictObject({ self: z.string() }),
});
export type JobAcknowledgement = z.output<typeof JobAcknowledgement>;

/** What `articles.saveGenerated` returns: the article job's `result` (the Job resource's `result`). `citations` is their number. */
export interface GeneratedArticleResult {
  article_id: string;
  title: string;
  word_count: number;
  quality_score: number;
  citations: number;
}

/** GET /v1/articles: newest first, `limit` default 20 and capped at 50, cursor `starting_after`. */
export const ListArticlesQuery = z.strictObject(pageQuery({ defaultLimit: 20, maxLimit: 50 }));
/** The action also takes `status` (the dashboard's filter; the API's list does not offer it). */
export const ListArticlesParams = PageParams.extend({
  org_id: orgId,
  status: z.enum(ARTICLE_STATUSES, { message: `must be one of ${ARTICLE_STATUSES.join(", ")}` }).optional(),
});

const ARTICLE_FORMATS = ["markdown", "html"] as const;
export type ArticleFormat = (typeof ARTICLE_FORMATS)[number];

/** GET /v1/articles/{id}: `format` omits the other rendering; omitted returns both. */
export const GetArticleQuery = z.strictObject({
  format: z.enum(ARTICLE_FORMATS, { message: "must be 'markdown' or 'html'" }).optional(),
});
export const GetArticleParams = GetArticleQuery.extend({ org_id: orgId, id: uuid });

const UPDATABLE_FIELDS = ["title", "content_markdown", "meta_title", "meta_description", "status"] as const;

const updateFields = {
  title: z.string().trim().min(1, "must not be empty").max(300, "must be at most 300 characters").optional(),
  content_markdown: z.string().min(1, "must not be empty").max(200000, "must be at most 200000 characters").optional(),
  meta_title: text(200).optional(),
  meta_description: text(500).optional(),
  status: z.enum(ARTICLE_STATUSES, { message: `must be one of ${ARTICLE_STATUSES.join(", ")}` }).optional(),
};

const atLeastOneField = (body: Record<string, unknown>) => UPDATABLE_FIELDS.some((field) => body[field] !== undefined);
const AT_LEAST_ONE = { message: `must contain at least one of ${UPDATABLE_FIELDS.join(", ")}` };

/** PATCH /v1/articles/{id}: a partial update of at least one field, each within its bound. */
export const UpdateArticleBody = z.strictObject(updateFields).refine(atLeastOneField, AT_LEAST_ONE);
export const UpdateArticleParams = z.strictObject({ ...updateFields, org_id: orgId, id: uuid }).refine(atLeastOneField, AT_LEAST_ONE);
export type ArticleUpdate = Omit<z.output<typeof UpdateArticleParams>, "org_id" | "id">;

/** `articles.renderMarkdown` (the dashboard's editor preview): markdown rendered as an article's HTML is, and measured as a PATCH measures it. */
export const RenderMarkdownParams = z.strictObject({ content_markdown: updateFields.content_markdown.unwrap(), language: z.string().min(1).max(12) });
export interface RenderedMarkdown {
  content_html: string;
  word_count: number;
  read_minutes: number;
  flesch_score: number;
}

export const GetMediaParams = z.strictObject({ id: z.string() });
/** `articles.getMedia`'s reply: the headers articles decides and the bytes. */
export interface MediaResponse {
  headers: Record<string, string>;
  /** Base64, so the bytes cross the JSON transport unchanged. */
  body_base64: string;
}

/** `articles.finishAccepted`: whether an acknowledged request's job exists now. */
export const FinishAcceptedParams = z.strictObject({ org_id: orgId, id: uuid });

/** What an article is, stored (services/articles/store.ts) and served (ArticleResource) alike. */
const articleFields = {
  /** The article job that produced it: one article per job. */
  job_id: resourceId,
  status: z.enum(ARTICLE_STATUSES),
  mode: z.enum(ARTICLE_MODES),
  language: z.string(),
  topic: z.string(),
  target_keyword: z.string(),
  brand_profile_id: resourceId.nullable(),
  title: z.string(),
  slug: z.string(),
  meta_title: z.string(),
  meta_description: z.string(),
  title_variants: z.array(z.string()),
  faq: z.array(FaqItem),
  json_ld: z.record(z.string(), z.unknown()),
  citations: z.array(Citation),
  word_count: z.number().int().min(0),
  read_minutes: z.number().int().min(0),
  flesch_score: z.number(),
  quality_score: z.number().min(0).max(100),
  quality_breakdown: QualityBreakdown,
  derivatives: Derivatives.nullable(),
};
export type ArticleFields = z.output<z.ZodObject<typeof articleFields>>;

/** The cover as the article shows it: where the platform serves it (PUBLIC_BASE_URL/media/{id}) and how to show it. */
export const ArticleImage = z.strictObject({ url: z.string(), alt: z.string(), media_type: z.string(), width: z.number().int().positive(), height: z.number().int().positive() });

/** The Article resource (docs/articles.md#article); `format` leaves out the other rendering. */
export const ArticleResource = z.strictObject({
  id: resourceId,
  object: z.literal("article"),
  ...articleFields,
  content_markdown: z.string().optional(),
  content_html: z.string().optional(),
  image: ArticleImage.nullable(),
  publications: z.array(ArticlePublication),
  created_at: timestamp,
  updated_at: timestamp,
});
export type ArticleResource = z.output<typeof ArticleResource>;

/** An item of GET /v1/articles: what a list view shows, without the text, its renderings and the SEO extras. */
export const ArticleSummary = ArticleResource.pick({
  id: true,
  object: true,
  status: true,
  title: true,
  slug: true,
  topic: true,
  target_keyword: true,
  mode: true,
  language: true,
  word_count: true,
  quality_score: true,
  brand_profile_id: true,
  job_id: true,
  created_at: true,
  updated_at: true,
});
export type ArticleSummary = z.output<typeof ArticleSummary>;
export const ArticleList = listPageOf(ArticleSummary);

// The articles service's actions other services call: params and reply declared once (shared/action.ts `contract`).
export const ArticlesActions = {
  saveGenerated: contract<GeneratedArticleResult>()("articles.saveGenerated", GeneratedArticle),
  finishAccepted: contract<{ finished: boolean }>()("articles.finishAccepted", FinishAcceptedParams),
  getMedia: contract<MediaResponse>()("articles.getMedia", GetMediaParams),
  get: contract<ArticleResource>()("articles.get", GetArticleParams),
  list: contract<ListPage<ArticleSummary>>()("articles.list", ListArticlesParams),
  create: contract<JobAcknowledgement>()("articles.create", CreateArticleParams),
  update: contract<ArticleResource>()("articles.update", UpdateArticleParams),
  renderMarkdown: contract<RenderedMarkdown>()("articles.renderMarkdown", RenderMarkdownParams),
};
