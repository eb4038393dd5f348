import type { Db } from "mongodb";
import type { Clock } from "../../shared/clock";
import { ApiError } from "../../shared/errors";
import type { ArticleUpdate, RenderedMarkdown } from "../../shared/schemas/articles";
import { articleMetrics } from "../../shared/text/metrics";
import { assertArticleMove } from "./lifecycle";
import { renderArticleHtml } from "./render";
import { requireArticle } from "./read-articles";
import { articleCollections, type ArticleDoc } from "./store";

const MAX_ATTEMPTS = 5;

/**
 * PATCH /v1/articles/{id}: free. New markdown is rendered again and measured the way generation
 * measures it; a status change must be a move of the lifecycle. The write is conditional on the
 * status read, so two concurrent moves cannot both pass the lifecycle check.
 */
export async function updateArticle(db: Db, orgId: string, articleId: string, update: ArticleUpdate, clock: Clock): Promise<ArticleDoc> {
  const c = articleCollections(db);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await requireArticle(db, orgId, articleId);
    if (update.status) assertArticleMove(current.status, update.status);
    const set: Partial<ArticleDoc> = { updated_at: clock.now() };
    if (update.title !== undefined) set.title = update.title;
    if (update.meta_title !== undefined) set.meta_title = update.meta_title;
    if (update.meta_description !== undefined) set.meta_description = update.meta_description;
    if (update.status !== undefined) set.status = update.status;
    if (update.content_markdown !== undefined) {
      set.content_markdown = update.content_markdown;
      Object.assign(set, renderMarkdown(update.content_markdown, current.language));
    }
    const updated = await c.articles.findOneAndUpdate({ _id: current._id, org_id: orgId, status: current.status }, { $set: set }, { returnDocument: "after" });
    if (updated) return updated;
  }
  throw new ApiError("service_unavailable", "The article kept changing while it was being updated. Retry.");
}

/** What new markdown makes of an article: its HTML, rendered again, and its measures, as generation measures them. */
export function renderMarkdown(markdown: string, language: string): RenderedMarkdown {
  const { word_count, read_minutes, flesch_score } = articleMetrics(markdown, language);
  return { content_html: renderArticleHtml(markdown), word_count, read_minutes, flesch_score };
}
