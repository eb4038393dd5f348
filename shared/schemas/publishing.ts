import { z } from "zod";
import { contract } from "../action";
import { httpUrl, orgId, uuid } from "../validation";
import type { ListPage } from "./pagination";
import { listPageOf, resourceId, timestamp } from "./resource";
import { IdempotencyKey } from "./idempotency-key";

/**
 * Publishing contracts (docs/publishing.md): integrations (the dashboard's part, `/admin`) and
 * `POST /v1/articles/{id}/publish`. One strict schema per kind; the secret of each kind is named in
 * INTEGRATION_SECRETS and is stored encrypted, never returned.
 */

export const INTEGRATION_KINDS = ["wordpress", "ghost", "contentful", "sanity", "strapi"] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/** The credential field of each kind: encrypted at rest, shown only as a masked hint. */
export const INTEGRATION_SECRETS = {
  wordpress: "application_password",
  ghost: "admin_api_key",
  contentful: "management_token",
  sanity: "api_token",
  strapi: "api_token",
} as const satisfies Record<IntegrationKind, string>;

const name = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const secret = (what: string) => z.string().trim().min(8, `must be ${what} (at least 8 characters)`).max(4096, "must be at most 4096 characters");
/** An id as the vendor spells it (space, content type, dataset, project, field, collection). */
const identifier = (pattern: RegExp, what: string) => z.string().trim().min(1, "must not be empty").max(128, "must be at most 128 characters").regex(pattern, what);
const fieldId = identifier(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a field id (letters, digits and _)");
/** A site's base address: an http(s) URL without query or fragment; a trailing slash is dropped. */
const siteUrl = httpUrl
  .refine((v) => !new URL(v).search && !new URL(v).hash, "must have no query or fragment")
  .refine((v) => !new URL(v).username && !new URL(v).password, "must not carry credentials")
  .transform((v) => v.replace(/\/+$/, ""));

export const WordPressSettings = z.strictObject({
  kind: z.literal("wordpress"),
  name,
  site_url: siteUrl,
  username: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  /** A WordPress application password (Users → Profile → Application Passwords); spaces are allowed as WordPress shows them. */
  application_password: secret("a WordPress application password"),
});

export const GhostSettings = z.strictObject({
  kind: z.literal("ghost"),
  name,
  /** The Admin API URL of the site (Settings → Integrations), e.g. https://example.ghost.io */
  site_url: siteUrl,
  /** `{id}:{secret}`: a 24-hex-digit key id and a hex secret, as Ghost shows it. */
  admin_api_key: z
    .string()
    .trim()
    .regex(/^[0-9a-f]{24}:[0-9a-f]{32,128}$/i, "must be a Ghost Admin API key: {id}:{secret} in hex"),
});

export const ContentfulSettings = z.strictObject({
  kind: z.literal("contentful"),
  name,
  space_id: identifier(/^[A-Za-z0-9_-]+$/, "must be a Contentful space id"),
  environment_id: identifier(/^[A-Za-z0-9_.-]+$/, "must be a Contentful environment id").default("master"),
  content_type_id: identifier(/^[A-Za-z0-9_.-]+$/, "must be a Contentful content type id"),
  locale: z.string().trim().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "must be a locale code such as en-US").default("en-US"),
  /** A Content Management API personal access token (CFPAT-…). */
  management_token: secret("a Contentful management token"),
  /** Which field of the content type receives what; a field set to null is not written. */
  fields: z
    .strictObject({
      title: fieldId.default("title"),
      slug: fieldId.nullable().default("slug"),
      body: fieldId.default("body"),
      excerpt: fieldId.nullable().default("excerpt"),
      meta_title: fieldId.nullable().default(null),
      meta_description: fieldId.nullable().default(null),
      cover_image: fieldId.nullable().default("coverImage"),
      tags: fieldId.nullable().default(null),
    })
    .prefault({}),
  /** `rich_text`: a Rich Text field (converted from markdown); `markdown`: a Long text field. */
  body_format: z.enum(["rich_text", "markdown"], { message: "must be 'rich_text' or 'markdown'" }).default("rich_text"),
});

export const SanitySettings = z.strictObject({
  kind: z.literal("sanity"),
  name,
  project_id: identifier(/^[a-z0-9-]+$/, "must be a Sanity project id (lower-case letters, digits and -)"),
  dataset: identifier(/^[a-z0-9_-]+$/, "must be a Sanity dataset name"),
  document_type: identifier(/^[A-Za-z_][A-Za-z0-9_.-]*$/, "must be a Sanity document type").default("post"),
  api_version: z.string().regex(/^v\d{4}-\d{2}-\d{2}$/, "must be a dated API version such as v2021-06-07").default("v2021-06-07"),
  /** A robot token with write access (Editor). */
  api_token: secret("a Sanity API token"),
  /** Where editors open documents (a Studio); the external URL of a publication when set. */
  studio_url: siteUrl.optional(),
});

export const StrapiSettings = z.strictObject({
  kind: z.literal("strapi"),
  name,
  site_url: siteUrl,
  /** The collection's plural API id, as in `/api/{collection}`. */
  collection: identifier(/^[a-z0-9][a-z0-9-]*$/, "must be a collection's plural API id (lower-case letters, digits and -)"),
  strapi_version: z.union([z.literal(4), z.literal(5)], { message: "must be 4 or 5" }).default(5),
  /** A full-access or custom API token (Settings → API Tokens). */
  api_token: secret("a Strapi API token"),
  fields: z
    .strictObject({
      title: fieldId.default("title"),
      slug: fieldId.nullable().default("slug"),
      body: fieldId.default("content"),
      excerpt: fieldId.nullable().default("description"),
      cover_image: fieldId.nullable().default("cover"),
    })
    .prefault({}),
  /** `markdown` for a Rich text (Markdown) field, `html` for a text field holding HTML. */
  body_format: z.enum(["markdown", "html"], { message: "must be 'markdown' or 'html'" }).default("markdown"),
});

export const CreateIntegrationBody = z.discriminatedUnion("kind", [WordPressSettings, GhostSettings, ContentfulSettings, SanitySettings, StrapiSettings], {
  error: (issue) => (issue.code === "invalid_union" ? `kind: must be one of ${INTEGRATION_KINDS.join(", ")}` : undefined),
});
export type IntegrationInput = z.output<typeof CreateIntegrationBody>;
export type IntegrationInputOf<K extends IntegrationKind> = Extract<IntegrationInput, { kind: K }>;

const orgScope = { org_id: orgId, idempotency_key: IdempotencyKey.optional() };
export const CreateIntegrationParams = z.discriminatedUnion("kind", [
  WordPressSettings.extend(orgScope),
  GhostSettings.extend(orgScope),
  ContentfulSettings.extend(orgScope),
  SanitySettings.extend(orgScope),
  StrapiSettings.extend(orgScope),
]);
export const ListIntegrationsParams = z.strictObject({ org_id: orgId });
export const IntegrationPath = z.strictObject({ id: uuid });

export const IntegrationResource = z.strictObject({
  id: resourceId,
  object: z.literal("integration"),
  org_id: resourceId,
  kind: z.enum(INTEGRATION_KINDS),
  name: z.string(),
  /** The kind's settings without the secret. */
  settings: z.record(z.string(), z.unknown()),
  /** The secret, masked: its last four characters only (`••••abcd`). */
  credentials_hint: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type IntegrationResource = z.output<typeof IntegrationResource>;
export const IntegrationList = listPageOf(IntegrationResource);

export const IntegrationTestResult = z.strictObject({
  object: z.literal("integration_test"),
  ok: z.boolean(),
  /** The upstream HTTP status, or null when no answer came (timeout, unreachable, refused by the URL guard). */
  status: z.number().int().nullable(),
  message: z.string(),
});
export type IntegrationTestResult = z.output<typeof IntegrationTestResult>;

export const PublishArticleBody = z.strictObject({
  integration_id: uuid,
  as_draft: z.boolean({ message: "must be true or false" }).default(false),
});
export const PublishArticleParams = PublishArticleBody.extend({ org_id: orgId, id: uuid });

export const PublishResult = z.strictObject({
  object: z.literal("publish"),
  status: z.literal("published"),
  external_id: z.string(),
  external_url: z.string(),
  integration_id: resourceId,
  kind: z.enum(INTEGRATION_KINDS),
  as_draft: z.boolean(),
  published_at: timestamp,
});
export type PublishResult = z.output<typeof PublishResult>;

/** One entry of an article's `publications`: where it went and in which state. */
export const ArticlePublication = z.strictObject({
  integration_id: resourceId,
  kind: z.enum(INTEGRATION_KINDS),
  external_id: z.string(),
  external_url: z.string(),
  /** `published` or `draft` upstream. */
  status: z.enum(["published", "draft"]),
  published_at: timestamp,
});
export type ArticlePublication = z.output<typeof ArticlePublication>;

/** `articles.deleteIntegration`'s reply. */
export const DeletedIntegration = z.strictObject({ id: resourceId, object: z.literal("integration"), deleted: z.literal(true) });
export type DeletedIntegration = z.output<typeof DeletedIntegration>;

// The articles service's integration actions (the dashboard and `/admin`): params and reply declared once (shared/action.ts `contract`).
export const IntegrationActions = {
  createIntegration: contract<IntegrationResource>()("articles.createIntegration", CreateIntegrationParams),
  listIntegrations: contract<ListPage<IntegrationResource>>()("articles.listIntegrations", ListIntegrationsParams),
  deleteIntegration: contract<DeletedIntegration>()("articles.deleteIntegration", IntegrationPath),
  testIntegration: contract<IntegrationTestResult>()("articles.testIntegration", IntegrationPath),
  publish: contract<PublishResult>()("articles.publish", PublishArticleParams),
};
