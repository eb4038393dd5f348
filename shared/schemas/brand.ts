import { z } from "zod";
import { contract } from "../action";
import { httpUrl, orgId, uuid } from "../validation";
import { pageQuery, PageParams, type ListPage } from "./pagination";
import { listOf, listPageOf, resourceId, timestamp } from "./resource";
import { IdempotencyKey } from "./idempotency-key";


/** Bounds the spec leaves open: docs/decisions.md#brand-profiles-and-sources. */
export const SOURCE_CONTENT_MAX = 200_000;

export const CreateBrandProfileBody = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  website_url: httpUrl.optional(),
  description: z.string().max(2000, "must be at most 2000 characters").optional(),
  ingest_website: z.boolean().default(true),
});

export const SOURCE_TYPES = ["website", "url", "text", "writing_sample"] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

const SourceFields = z.strictObject({
  type: z.enum(SOURCE_TYPES, { message: `must be one of ${SOURCE_TYPES.join(", ")}` }),
  title: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
  url: httpUrl.optional(),
  content: z.string().max(SOURCE_CONTENT_MAX, `must be at most ${SOURCE_CONTENT_MAX} characters`).optional(),
});

/** `url` for fetched sources, `content` for text ones: each required where it applies and refused elsewhere. */
function sourceRules(body: { type: SourceType; url?: string; content?: string }, ctx: z.RefinementCtx): void {
  const fetched = body.type === "website" || body.type === "url";
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (fetched && body.url === undefined) issue("url", `is required for ${body.type} sources`);
  if (fetched && body.content !== undefined) issue("content", `is not accepted for ${body.type} sources`);
  if (!fetched && (body.content === undefined || body.content.trim() === "")) issue("content", `is required for ${body.type} sources`);
  // A text source may say where its text came from (cited as its address); it is never fetched.
  if (body.type === "writing_sample" && body.url !== undefined) issue("url", `is not accepted for ${body.type} sources`);
}

export const CreateSourceBody = SourceFields.superRefine(sourceRules);
/** The action's params: the same body, the profile from the path, and the organization. */
export const AddSourceParams = SourceFields.extend({ id: uuid, org_id: orgId, idempotency_key: IdempotencyKey.optional() }).superRefine(sourceRules);

export const IngestFinished = z.strictObject({
  job_id: uuid,
  org_id: orgId,
  status: z.enum(["succeeded", "failed", "canceled"]),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()),
  input: z.record(z.string(), z.unknown()),
});

export const ListBrandProfilesQuery = z.strictObject(pageQuery({ defaultLimit: 20, maxLimit: 100 }));
export const ProfilePath = z.strictObject({ id: uuid });
export const SourcePath = z.strictObject({ id: uuid, source_id: uuid });

export const RetrieveParams = z.strictObject({
  org_id: orgId,
  brand_profile_id: uuid,
  query: z.string().min(1).max(2000),
  k: z.number().int().min(1).max(50).default(8),
});

/** Terms one `termStats` call counts at most: a request's subject, its joined forms and its compounds' splits. */
export const TERM_STATS_MAX_TERMS = 256;

/** Document frequencies of index terms over a profile's chunks: what the relevance model weighs a request's subject by. */
export const TermStatsParams = z.strictObject({
  org_id: orgId,
  brand_profile_id: uuid,
  /** Each index term of the caller's language with the word it came from: the index tokenizes each chunk in its own language, so the word is tokenized again in each. */
  terms: z.array(z.strictObject({ term: z.string().min(1).max(200), word: z.string().min(1).max(200) })).max(TERM_STATS_MAX_TERMS),
});

export interface TermStatsReply {
  /** Chunks in the profile's index. */
  chunks: number;
  /** Chunks holding each asked term. */
  df: Record<string, number>;
  /** Occurrences of each asked term over the chunks holding it (with `df`, how bursty the term is). */
  cf: Record<string, number>;
}

export interface RetrievedChunk {
  chunk_id: string;
  source_id: string;
  url: string | null;
  title: string;
  heading_path: string[];
  /** The chunk's place in its document (0, 1, …): passages of one page can be read in the page's order. */
  ordinal: number;
  text: string;
  context: string;
  score: number;
}

export type Person = "first_plural" | "first_singular" | "second" | "third";

/** A brand's voice as brand-knowledge learns and stores it (`voice_profile` of a profile). */
export interface VoiceProfile {
  tone: string[];
  readingLevel: { fleschReadingEase: number; grade: number };
  sentenceLength: { mean: number; p90: number };
  person: Person;
  vocabulary: string[];
  preferPhrases: string[];
  avoidPhrases: string[];
  basedOn: { samples: number; siteDocuments: number };
}

/** A stored voice profile as its readers take it: any field may be missing from one learned by an older version. */
export type StoredVoiceProfile = { [K in keyof VoiceProfile]?: VoiceProfile[K] extends readonly unknown[] | string ? VoiceProfile[K] : Partial<VoiceProfile[K]> };

export const VOICE_STATUSES = ["none", "ready", "failed"] as const;
export type VoiceStatus = (typeof VOICE_STATUSES)[number];

/** A brand profile as its API shows it, with its counts of sources and chunks. */
export const BrandProfileSummary = z.strictObject({
  id: resourceId,
  object: z.literal("brand_profile"),
  name: z.string(),
  website_url: z.string().nullable(),
  description: z.string().nullable(),
  voice_status: z.enum(VOICE_STATUSES),
  sources: z.number().int().min(0),
  chunks: z.number().int().min(0),
  created_at: timestamp,
});
export type BrandProfileSummary = z.output<typeof BrandProfileSummary>;
export const BrandProfileList = listPageOf(BrandProfileSummary);

const Fact = z.looseObject({ fact: z.string(), kind: z.string(), chunk_id: z.string(), source_url: z.string().nullable() });

/** The full profile: summary, fact sheet and voice profile. */
export const BrandProfileResource = BrandProfileSummary.extend({
  voice_error: z.string().nullable(),
  voice_profile: z.record(z.string(), z.unknown()).nullable(),
  fact_sheet: z.strictObject({ facts: z.array(Fact), updated_at: timestamp }).nullable(),
  updated_at: timestamp,
});
export type BrandProfileResource = z.output<typeof BrandProfileResource>;

/** POST /v1/brand-profiles: the profile, and the ingest job of its website when one was started. */
export const CreatedBrandProfile = BrandProfileSummary.pick({ id: true, object: true, name: true, website_url: true, voice_status: true }).extend({
  ingest_job_id: resourceId.optional(),
});

export const SourceResource = z.strictObject({
  id: resourceId,
  object: z.literal("kb_source"),
  type: z.enum(SOURCE_TYPES),
  title: z.string(),
  url: z.string().nullable(),
  status: z.string(),
  error: z.string().nullable(),
  pages: z.number().int().min(0),
  chunks: z.number().int().min(0),
  ingest_job_id: resourceId,
  created_at: timestamp,
  updated_at: timestamp,
  ingested_at: timestamp.nullable(),
});
export type SourceResource = z.output<typeof SourceResource>;
export const SourceList = listOf(SourceResource);
/** GET …/sources/{source_id}: the source with its text (pasted sources; null for fetched ones). */
export const SourceDetail = SourceResource.extend({ content: z.string().nullable() });
/** POST …/sources: accepted, its ingest job queued. */
export const AcceptedSource = z.strictObject({ id: resourceId, object: z.literal("kb_source"), status: z.literal("pending"), ingest_job_id: resourceId });

export const ProfileParams = ProfilePath.extend({ org_id: orgId });
export const CreateProfileParams = CreateBrandProfileBody.extend({ org_id: orgId, idempotency_key: IdempotencyKey.optional() });
export const ListProfilesParams = PageParams.extend({ org_id: orgId });

/** `brand-knowledge.createProfile`'s reply (POST /v1/brand-profiles, 201). */
export type CreatedBrandProfile = z.output<typeof CreatedBrandProfile>;

/** `brand-knowledge.addSource`'s reply (POST /v1/brand-profiles/{id}/sources, 202). */
export type AddedSource = z.output<typeof AcceptedSource>;

// The brand-knowledge service's actions other services call: params and reply declared once (shared/action.ts `contract`).
export const BrandKnowledgeActions = {
  getProfile: contract<BrandProfileResource>()("brand-knowledge.getProfile", ProfileParams),
  listSources: contract<{ object: "list"; data: SourceResource[] }>()("brand-knowledge.listSources", ProfileParams),
  retrieve: contract<RetrievedChunk[]>()("brand-knowledge.retrieve", RetrieveParams),
  termStats: contract<TermStatsReply>()("brand-knowledge.termStats", TermStatsParams),
  createProfile: contract<CreatedBrandProfile>()("brand-knowledge.createProfile", CreateProfileParams),
  listProfiles: contract<ListPage<BrandProfileSummary>>()("brand-knowledge.listProfiles", ListProfilesParams),
  addSource: contract<AddedSource>()("brand-knowledge.addSource", AddSourceParams),
};
