import { ARTICLE_TRANSITIONS, assertArticleMove, canMoveArticle, INITIAL_ARTICLE_STATUS } from "../../services/articles/lifecycle";
import { toHttpError } from "../../shared/errors";
import { ARTICLE_STATUSES, type ArticleStatus } from "../../shared/schemas/articles";

const PERMITTED: Array<[ArticleStatus, ArticleStatus]> = [
  ["draft", "in_review"],
  ["in_review", "draft"],
  ["in_review", "approved"],
  ["approved", "draft"],
  ["approved", "in_review"],
  ["approved", "published"],
  ["published", "draft"],
];

describe("article lifecycle", () => {
  it("starts a generated article as a draft", () => {
    expect(INITIAL_ARTICLE_STATUS).toBe("draft");
  });

  it("permits exactly the documented moves, and staying put", () => {
    for (const from of ARTICLE_STATUSES) {
      for (const to of ARTICLE_STATUSES) {
        const expected = from === to || PERMITTED.some(([f, t]) => f === from && t === to);
        expect([from, to, canMoveArticle(from, to)]).toEqual([from, to, expected]);
      }
    }
    expect(Object.values(ARTICLE_TRANSITIONS).flat()).toHaveLength(PERMITTED.length);
  });

  it("needs an approval before publishing", () => {
    expect(canMoveArticle("draft", "published")).toBe(false);
    expect(canMoveArticle("in_review", "published")).toBe(false);
    expect(canMoveArticle("draft", "approved")).toBe(false);
  });

  it("refuses a forbidden move with a 400 naming both states and the allowed ones", () => {
    let thrown: unknown;
    try {
      assertArticleMove("published", "approved");
    } catch (err) {
      thrown = err;
    }
    const http = toHttpError(thrown);
    expect(http.status).toBe(400);
    expect(http.body.error).toEqual({
      code: "invalid_request",
      message: "status: an article cannot move from published to approved (from published it can move to draft)",
    });
    expect(() => assertArticleMove("approved", "published")).not.toThrow();
  });
});
