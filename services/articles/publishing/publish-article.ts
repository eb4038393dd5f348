import type { Db } from "mongodb";
import type { Clock } from "../../../shared/clock";
import { ApiError } from "../../../shared/errors";
import { newId } from "../../../shared/ids";
import type { PublishResult } from "../../../shared/schemas/publishing";
import { assertPublishable, statusAfterPublish } from "../lifecycle";
import { requireArticle } from "../read-articles";
import { isDuplicateKeyError } from "../../../shared/db/duplicate-key";
import { articleCollections, type ArticleCollections, type ArticleDoc, type IntegrationDoc, type PublicationDoc } from "../store";
import { clientFor, KIND_LABELS, type PublishingConfig } from "./clients";
import { coverFilename, type CoverImage, type PublishContent } from "./content";
import type { EncryptionKey } from "./credentials";
import { UpstreamError } from "./http";
import { loadIntegration } from "./integrations";

/**
 * POST /v1/articles/{id}/publish (docs/publishing.md). The publication record of (article,
 * integration) is claimed first, so two concurrent publishes take turns and the second updates the
 * entry the first made. A failure answers 502 `publish_failed` with the upstream status and reason
 * and changes nothing that shows: the article and its publications stay as they were (an entry
 * created upstream before a later step failed is remembered, so the retry updates it).
 */

export interface PublishDeps {
  db: Db;
  clock: Clock;
  keys: readonly EncryptionKey[] | undefined;
  publishing: PublishingConfig;
  sleep?: (ms: number) => Promise<void>;
}

export interface PublishParams {
  org_id: string;
  id: string;
  integration_id: string;
  as_draft: boolean;
}

const CLAIM_POLL_MS = 100;
/** A claim outlives the deadline a little, so a crashed publish frees it soon after. */
const LEASE_MARGIN_MS = 5000;

export async function publishArticle(deps: PublishDeps, params: PublishParams): Promise<PublishResult> {
  const startedAt = deps.clock.now().getTime();
  const c = articleCollections(deps.db);
  const article = await requireArticle(deps.db, params.org_id, params.id);
  const { doc: integration, input } = await loadIntegration(deps, params.integration_id, params.org_id);
  assertPublishable(article.status, params.as_draft);

  const label = KIND_LABELS[integration.kind];
  const claim = await claimPublication(deps, c, article, integration, startedAt, label);
  const own = { _id: claim._id, lease_id: claim.lease_id };
  try {
    const entry = await clientFor(input, deps.publishing, startedAt).publish({
      content: await contentOf(c, article),
      previous: claim.external_id ? { external_id: claim.external_id, vendor: claim.vendor } : null,
      asDraft: params.as_draft,
      onCreated: async (created) => {
        await c.publications.updateOne(own, { $set: { external_id: created.external_id, vendor: created.vendor, updated_at: deps.clock.now() } });
      },
    });
    const now = deps.clock.now();
    const status = params.as_draft ? "draft" : "published";
    await c.publications.updateOne(own, {
      $set: { external_id: entry.external_id, external_url: entry.external_url, vendor: entry.vendor, status, published_at: now, lease_id: null, lease_until: null, updated_at: now },
    });
    const next = statusAfterPublish(article.status, params.as_draft);
    if (next !== article.status) await c.articles.updateOne({ _id: article._id }, { $set: { status: next, updated_at: now } });
    return {
      object: "publish",
      status: "published",
      external_id: entry.external_id,
      external_url: entry.external_url,
      integration_id: integration._id,
      kind: integration.kind,
      as_draft: params.as_draft,
      published_at: now.toISOString(),
    };
  } catch (err) {
    await c.publications.updateOne(own, { $set: { lease_id: null, lease_until: null } }).catch(() => undefined);
    if (err instanceof UpstreamError) {
      const what = err.status === null ? "no answer" : `upstream status ${err.status}`;
      throw new ApiError("publish_failed", `Publishing to ${label} failed: ${what}: ${err.reason}`, { upstream_status: err.status });
    }
    throw err;
  }
}

/** The publication record of (article, integration), created when missing and claimed for this publish. */
async function claimPublication(deps: PublishDeps, c: ArticleCollections, article: ArticleDoc, integration: IntegrationDoc, startedAt: number, label: string): Promise<PublicationDoc & { lease_id: string }> {
  const key = { article_id: article._id, integration_id: integration._id };
  const created = deps.clock.now();
  try {
    await c.publications.updateOne(key, {
      $setOnInsert: { _id: newId(), org_id: article.org_id, kind: integration.kind, external_id: null, external_url: null, vendor: {}, status: null, published_at: null, lease_id: null, lease_until: null, created_at: created, updated_at: created },
    }, { upsert: true });
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
  const leaseId = newId();
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (;;) {
    const now = deps.clock.now();
    const claimed = await c.publications.findOneAndUpdate(
      { ...key, $or: [{ lease_id: null }, { lease_until: { $lt: now } }] },
      { $set: { lease_id: leaseId, lease_until: new Date(now.getTime() + deps.publishing.deadlineMs + LEASE_MARGIN_MS) } },
      { returnDocument: "after" },
    );
    if (claimed) return claimed as PublicationDoc & { lease_id: string };
    if (now.getTime() + CLAIM_POLL_MS >= startedAt + deps.publishing.deadlineMs) {
      throw new ApiError("publish_failed", `Publishing to ${label} failed: another publish of this article to this integration did not finish within the deadline.`, { upstream_status: null });
    }
    await sleep(CLAIM_POLL_MS);
  }
}

async function contentOf(c: ArticleCollections, article: ArticleDoc): Promise<PublishContent> {
  return {
    title: article.title,
    slug: article.slug,
    markdown: article.content_markdown,
    html: article.content_html,
    excerpt: article.meta_description,
    metaTitle: article.meta_title,
    metaDescription: article.meta_description,
    tags: article.target_keyword ? [article.target_keyword] : [],
    cover: await coverOf(c, article),
  };
}

async function coverOf(c: ArticleCollections, article: ArticleDoc): Promise<CoverImage | null> {
  if (!article.image) return null;
  const media = await c.media.findOne({ _id: article.image.media_id });
  if (!media) return null;
  return {
    key: media._id,
    bytes: Buffer.from(media.data.read(0, media.data.length())),
    mediaType: media.media_type,
    filename: coverFilename(article.slug, media.media_type),
    alt: article.image.alt,
    width: article.image.width,
    height: article.image.height,
  };
}
