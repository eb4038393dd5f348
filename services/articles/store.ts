import type { Binary, Collection, Db } from "mongodb";
import type { CollectionSpec } from "../../shared/db/mixin";
import type { IntegrationKind } from "../../shared/schemas/publishing";
import type { SealedSecret } from "./publishing/credentials";
import type { ArticleFields, ArticleJobInput, JobAcknowledgement } from "../../shared/schemas/articles";

/** An article's cover image: the bytes live in `media`, the article keeps what a page needs to show it. */
export interface ArticleImageDoc {
  media_id: string;
  alt: string;
  media_type: string;
  width: number;
  height: number;
}

export interface ArticleDoc extends ArticleFields {
  _id: string;
  org_id: string;
  content_markdown: string;
  content_html: string;
  image: ArticleImageDoc | null;
  created_at: Date;
  updated_at: Date;
}

/** Stored bytes served publicly at `/media/<_id>`; the random UUID is what keeps them private until shared. */
export interface MediaDoc {
  _id: string;
  org_id: string;
  job_id: string;
  media_type: string;
  data: Binary;
  created_at: Date;
}

/**
 * `charging`: recorded, its request still deciding (or its process died): nothing acknowledged yet.
 * `accepted`: acknowledged with 202; the job must exist, and recovery rolls it forward (debit if
 * `charged` is false, then the job). `queued`: charged and the job exists. (docs/failure-semantics.md)
 */
export type ArticleRequestState = "charging" | "accepted" | "queued";

/**
 * One accepted POST /v1/articles, keyed by the job id it will create (also the debit reference).
 * Written before the debit so that a crash between debit and job creation is finished by recovery,
 * and it is the Idempotency-Key's memory (docs/articles.md#idempotency).
 */
export interface ArticleRequestDoc {
  _id: string;
  org_id: string;
  idempotency_key: string | null;
  /** Canonical hash of the validated body: the same key with another body is refused. */
  body_hash: string;
  input: ArticleJobInput;
  stages: string[];
  credits: number;
  state: ArticleRequestState;
  /** The acknowledgement given when the request was accepted; a replay returns it. */
  ack: JobAcknowledgement | null;
  /** For `accepted`: whether the debit is known to be applied (false: its outcome was unknown, recovery re-issues it). */
  charged?: boolean;
  created_at: Date;
  updated_at: Date;
  /** Set once accepted: the TTL index removes the record (and frees its key) at this instant. */
  expires_at?: Date;
}

/** A connected content system of an organization (docs/publishing.md); the secret is sealed. */
export interface IntegrationDoc {
  _id: string;
  /** Created under an Idempotency-Key (its id derives from the key): the hash of that request, secret left out (shared/idempotency.ts). */
  request_hash?: string;
  org_id: string;
  kind: IntegrationKind;
  name: string;
  /** The kind's settings without its secret. */
  settings: Record<string, unknown>;
  credentials: SealedSecret;
  credentials_hint: string;
  created_at: Date;
  updated_at: Date;
}

/**
 * One article in one integration: the entry it made upstream. Claimed (`lease_*`) by the publish in
 * progress so concurrent publishes make one entry; `published_at` is set once a publish completed,
 * and only completed ones show on the article.
 */
export interface PublicationDoc {
  _id: string;
  org_id: string;
  article_id: string;
  integration_id: string;
  kind: IntegrationKind;
  /** The upstream entry, once one exists (recorded as soon as it is created). */
  external_id: string | null;
  external_url: string | null;
  vendor: Record<string, string | number>;
  status: "published" | "draft" | null;
  published_at: Date | null;
  lease_id: string | null;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const ARTICLES = "articles";
export const INTEGRATIONS = "integrations";
export const PUBLICATIONS = "publications";
export const MEDIA = "media";
export const ARTICLE_REQUESTS = "article_requests";

export const ARTICLE_COLLECTIONS: CollectionSpec[] = [
  {
    name: ARTICLES,
    indexes: [
      { key: { job_id: 1 }, name: "one_article_per_job", unique: true },
      { key: { org_id: 1, created_at: -1, _id: -1 }, name: "org_newest_first" },
      // The dashboard's list of one status.
      { key: { org_id: 1, status: 1, created_at: -1, _id: -1 }, name: "org_status_newest_first" },
    ],
  },
  { name: MEDIA, indexes: [{ key: { job_id: 1 }, name: "one_image_per_job", unique: true }] },
  { name: INTEGRATIONS, indexes: [{ key: { org_id: 1, created_at: -1 }, name: "org_integrations" }] },
  {
    name: PUBLICATIONS,
    indexes: [
      { key: { article_id: 1, integration_id: 1 }, name: "one_entry_per_article_and_integration", unique: true },
      { key: { integration_id: 1 }, name: "by_integration" },
    ],
  },
  {
    name: ARTICLE_REQUESTS,
    indexes: [
      {
        key: { org_id: 1, idempotency_key: 1 },
        name: "idempotency_key_per_org",
        unique: true,
        partialFilterExpression: { idempotency_key: { $type: "string" } },
      },
      { key: { state: 1, updated_at: 1 }, name: "state_updated" },
      { key: { expires_at: 1 }, name: "idempotency_window", expireAfterSeconds: 0 },
    ],
  },
];

export interface ArticleCollections {
  articles: Collection<ArticleDoc>;
  media: Collection<MediaDoc>;
  requests: Collection<ArticleRequestDoc>;
  integrations: Collection<IntegrationDoc>;
  publications: Collection<PublicationDoc>;
}

export function articleCollections(db: Db): ArticleCollections {
  return {
    articles: db.collection<ArticleDoc>(ARTICLES),
    media: db.collection<MediaDoc>(MEDIA),
    requests: db.collection<ArticleRequestDoc>(ARTICLE_REQUESTS),
    integrations: db.collection<IntegrationDoc>(INTEGRATIONS),
    publications: db.collection<PublicationDoc>(PUBLICATIONS),
  };
}
