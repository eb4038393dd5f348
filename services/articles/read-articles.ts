import type { Db } from "mongodb";
import { NotFoundError } from "../../shared/errors";
import type { ArticleFormat, ArticleResource, ArticleStatus, ArticleSummary } from "../../shared/schemas/articles";
import type { ArticlePublication } from "../../shared/schemas/publishing";
import type { ListPage } from "../../shared/schemas/pagination";
import { pageNewestFirst, type PageRequest } from "../../shared/db/paging";
import { htmlWithCover, jsonLdWithCover } from "./cover-reference";
import { mediaUrl } from "./media";
import { articleCollections, type ArticleDoc } from "./store";

/** An article of the organization; another organization's is indistinguishable from a missing one. */
export async function requireArticle(db: Db, orgId: string, articleId: string): Promise<ArticleDoc> {
  const doc = await articleCollections(db).articles.findOne({ _id: articleId, org_id: orgId });
  if (!doc) throw new NotFoundError("article");
  return doc;
}

/** An item of GET /v1/articles: what a list view shows, without the text, its renderings and the SEO extras. */
export function toArticleSummary(doc: ArticleDoc): ArticleSummary {
  return {
    id: doc._id,
    object: "article" as const,
    status: doc.status,
    title: doc.title,
    slug: doc.slug,
    topic: doc.topic,
    target_keyword: doc.target_keyword,
    mode: doc.mode,
    language: doc.language,
    word_count: doc.word_count,
    quality_score: doc.quality_score,
    brand_profile_id: doc.brand_profile_id,
    job_id: doc.job_id,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/** Where the article was published (completed publishes only), oldest first (docs/publishing.md). */
export async function articlePublications(db: Db, articleId: string): Promise<ArticlePublication[]> {
  const docs = await articleCollections(db).publications.find({ article_id: articleId, published_at: { $ne: null } }).sort({ created_at: 1, _id: 1 }).toArray();
  return docs.map((p) => ({
    integration_id: p.integration_id,
    kind: p.kind,
    external_id: p.external_id ?? "",
    external_url: p.external_url ?? "",
    status: p.status ?? "published",
    published_at: p.published_at!.toISOString(),
  }));
}

/** The Article resource with its publications. */
export async function readArticleResource(db: Db, doc: ArticleDoc, mediaBaseUrl: string, format?: ArticleFormat): Promise<ArticleResource> {
  return toArticleResource(doc, mediaBaseUrl, format, await articlePublications(db, doc._id));
}

/** The Article resource (docs/articles.md#article); `format` leaves out the other rendering. */
export function toArticleResource(doc: ArticleDoc, mediaBaseUrl: string, format?: ArticleFormat, publications: ArticlePublication[] = []): ArticleResource {
  const image = doc.image
    ? { url: mediaUrl(mediaBaseUrl, doc.image.media_id), alt: doc.image.alt, media_type: doc.image.media_type, width: doc.image.width, height: doc.image.height }
    : null;
  return {
    id: doc._id,
    object: "article" as const,
    status: doc.status,
    mode: doc.mode,
    language: doc.language,
    topic: doc.topic,
    target_keyword: doc.target_keyword,
    brand_profile_id: doc.brand_profile_id,
    job_id: doc.job_id,
    title: doc.title,
    slug: doc.slug,
    meta_title: doc.meta_title,
    meta_description: doc.meta_description,
    ...(format === "html" ? {} : { content_markdown: doc.content_markdown }),
    ...(format === "markdown" ? {} : { content_html: htmlWithCover(doc.content_html, image) }),
    citations: doc.citations,
    title_variants: doc.title_variants,
    faq: doc.faq,
    json_ld: jsonLdWithCover(doc.json_ld, image),
    word_count: doc.word_count,
    read_minutes: doc.read_minutes,
    flesch_score: doc.flesch_score,
    quality_score: doc.quality_score,
    quality_breakdown: doc.quality_breakdown,
    derivatives: doc.derivatives,
    image,
    publications,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/** Newest first (of one status when given), paged by `starting_after`, without the text, its renderings and the SEO extras. */
export async function listArticles(db: Db, orgId: string, page: PageRequest, status?: ArticleStatus): Promise<ListPage<ArticleSummary>> {
  const scope = status ? { org_id: orgId, status } : { org_id: orgId };
  const { docs, has_more } = await pageNewestFirst(articleCollections(db).articles, scope, page, {
    what: "article",
    projection: { content_markdown: 0, content_html: 0, json_ld: 0, faq: 0, derivatives: 0 },
  });
  return { object: "list", data: docs.map(toArticleSummary), has_more };
}
