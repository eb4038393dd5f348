import type { CollectionSpec } from "../../shared/db/mixin";
import type { SourceType, VoiceStatus } from "../../shared/schemas/brand";

export type SourceStatus = "pending" | "processing" | "ready" | "failed";

export interface FactDoc {
  fact: string;
  kind: string;
  chunk_id: string;
  source_url: string | null;
}

export interface BrandProfileDoc {
  _id: string;
  /** Created under an Idempotency-Key (its id derives from the key): the hash of that request (shared/idempotency.ts). */
  request_hash?: string;
  org_id: string;
  name: string;
  website_url: string | null;
  description: string | null;
  voice_status: VoiceStatus;
  voice_error: string | null;
  voice_profile: Record<string, unknown> | null;
  fact_sheet: { facts: FactDoc[]; updated_at: Date } | null;
  /** Bumped whenever the profile's indexed chunks change: retrieval caches key on it. */
  index_version: number;
  created_at: Date;
  updated_at: Date;
}

export interface SourceDoc {
  _id: string;
  org_id: string;
  profile_id: string;
  type: SourceType;
  title: string;
  url: string | null;
  content: string | null;
  status: SourceStatus;
  error: string | null;
  pages: number;
  chunks: number;
  ingest_job_id: string;
  /** `false` while the ingest job could not be queued yet (the pipeline was unreachable): the sweeper queues it. */
  ingest_queued?: boolean;
  /** The hash of the keyed request that created or last re-ingested it (shared/idempotency.ts). */
  request_hash?: string;
  /** The chunk generation retrieval reads (`<job id>:<fence>`), and which fence of which job set it. */
  active_generation: string | null;
  active_job: string | null;
  active_fence: number;
  created_at: Date;
  updated_at: Date;
  ingested_at: Date | null;
}

export interface ChunkDoc {
  _id: string;
  chunk_id: string;
  org_id: string;
  profile_id: string;
  source_id: string;
  generation: string;
  source_type: SourceType;
  document_url: string | null;
  document_title: string;
  heading_path: string[];
  ordinal: number;
  text: string;
  context: string;
  token_count: number;
  vector: number[];
  /** BM25 term frequencies of context + text, so the index is rebuilt without re-tokenizing. */
  terms: string[];
  counts: number[];
  length: number;
  lang: string | null;
}

/** Intermediate output of an ingest stage, tagged with the fence of the run that wrote it. */
export interface StagingDoc {
  _id: string;
  job_id: string;
  fence: number;
  kind: "page" | "document" | "chunk";
  seq: number;
  data: Record<string, unknown>;
}

export const PROFILES = "brand_profiles";
export const SOURCES = "sources";
export const CHUNKS = "chunks";
export const STAGING = "ingest_staging";

export const BRAND_KNOWLEDGE_COLLECTIONS: CollectionSpec[] = [
  { name: PROFILES, indexes: [{ key: { org_id: 1, created_at: -1 }, name: "org_created" }] },
  {
    name: SOURCES,
    indexes: [
      { key: { profile_id: 1, created_at: -1 }, name: "profile_created" },
      { key: { ingest_job_id: 1 }, name: "ingest_job" },
      { key: { status: 1, updated_at: 1 }, name: "status_updated" },
    ],
  },
  {
    name: CHUNKS,
    indexes: [
      { key: { profile_id: 1, source_id: 1, generation: 1 }, name: "profile_source_generation" },
      { key: { source_id: 1, generation: 1 }, name: "source_generation" },
    ],
  },
  { name: STAGING, indexes: [{ key: { job_id: 1, kind: 1, fence: 1, seq: 1 }, name: "job_kind_fence_seq" }] },
];
