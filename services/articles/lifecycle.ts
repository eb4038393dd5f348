import { ValidationError } from "../../shared/errors";
import type { ArticleStatus } from "../../shared/schemas/articles";

/** The status a generated article starts in. */
export const INITIAL_ARTICLE_STATUS: ArticleStatus = "draft";

/**
 * The review lifecycle (docs/articles.md#lifecycle): forward one step at a time, back to an
 * earlier step whenever the text needs work again. Publishing needs an approval first; a
 * published article goes back to draft to be reworked.
 */
export const ARTICLE_TRANSITIONS: Readonly<Record<ArticleStatus, readonly ArticleStatus[]>> = {
  draft: ["in_review"],
  in_review: ["draft", "approved"],
  approved: ["draft", "in_review", "published"],
  published: ["draft"],
};

/** Whether `from → to` is a permitted move; staying in the same status is always allowed (a repeated PATCH changes nothing). */
export function canMoveArticle(from: ArticleStatus, to: ArticleStatus): boolean {
  return from === to || ARTICLE_TRANSITIONS[from].includes(to);
}

/** Throws the 400 naming both states and the moves that are allowed from `from`. */
export function assertArticleMove(from: ArticleStatus, to: ArticleStatus): void {
  if (canMoveArticle(from, to)) return;
  throw new ValidationError(`status: an article cannot move from ${from} to ${to} (from ${from} it can move to ${ARTICLE_TRANSITIONS[from].join(" or ")})`);
}
