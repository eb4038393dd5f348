import { z } from "zod";
import { contract } from "../action";
import { httpUrl, orgId, uuid } from "../validation";
import { pageQuery } from "./pagination";
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

export interface RetrievedChunk {
  chunk_id: string;
  source_id: string;
  url: string | null;
  title: string;
  heading_path: string[];
  text: string;
  context: string;
  score: number;
}

export type VoiceStatus = "none" | "ready" | "failed";

/** A brand profile as its API shows it, with its counts of sources and chunks. */
export interface BrandProfileSummary {
  id: string;
  object: "brand_profile";
  name: string;
  website_url: string | null;
  description: string | null;
  voice_status: VoiceStatus;
  sources: number;
  chunks: number;
  created_at: string;
}

/** The full profile: summary, fact sheet and voice profile. */
export interface BrandProfileResource extends BrandProfileSummary {
  voice_error: string | null;
  voice_profile: Record<string, unknown> | null;
  fact_sheet: { facts: { fact: string; kind: string; chunk_id: string; source_url: string | null }[]; updated_at: string } | null;
  updated_at: string;
}

export interface SourceResource {
  id: string;
  object: "kb_source";
  type: SourceType;
  title: string;
  url: string | null;
  status: string;
  error: string | null;
  pages: number;
  chunks: number;
  ingest_job_id: string;
  created_at: string;
  updated_at: string;
  ingested_at: string | null;
}

export const ProfileParams = ProfilePath.extend({ org_id: orgId });

// The brand-knowledge service's actions other services call: params and reply declared once (shared/action.ts `contract`).
export const BrandKnowledgeActions = {
  getProfile: contract<BrandProfileResource>()("brand-knowledge.getProfile", ProfileParams),
  listSources: contract<{ object: "list"; data: SourceResource[] }>()("brand-knowledge.listSources", ProfileParams),
  retrieve: contract<RetrievedChunk[]>()("brand-knowledge.retrieve", RetrieveParams),
};
