import { ValidationError } from "../../shared/errors";
import { ARTICLE_TRANSITIONS, type ArticleStatus } from "../../shared/schemas/articles";

export { ARTICLE_TRANSITIONS };

/** The status a generated article starts in. */
export const INITIAL_ARTICLE_STATUS: ArticleStatus = "draft";

/** Whether `from → to` is a permitted move; staying in the same status is always allowed (a repeated PATCH changes nothing). */
export function canMoveArticle(from: ArticleStatus, to: ArticleStatus): boolean {
  return from === to || ARTICLE_TRANSITIONS[from].includes(to);
}

/** Throws the 400 naming both states and the moves that are allowed from `from`. */
export function assertArticleMove(from: ArticleStatus, to: ArticleStatus): void {
  if (canMoveArticle(from, to)) return;
  throw new ValidationError(`status: an article cannot move from ${from} to ${to} (from ${from} it can move to ${ARTICLE_TRANSITIONS[from].join(" or ")})`);
}

/**
 * Publishing and the lifecycle (docs/publishing.md#lifecycle): a live publish is the `published`
 * step, so it needs an approved (or already published) article and moves it to `published`; a
 * draft publish puts a review copy upstream and leaves the status as it is.
 */
export function assertPublishable(status: ArticleStatus, asDraft: boolean): void {
  if (asDraft || canMoveArticle(status, "published")) return;
  throw new ValidationError(
    `status: a ${status} article cannot be published live; approve it first (PATCH status "approved"), or publish it with as_draft: true`,
  );
}

/** The status after a successful publish. */
export function statusAfterPublish(status: ArticleStatus, asDraft: boolean): ArticleStatus {
  return asDraft ? status : "published";
}
