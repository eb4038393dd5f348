import { ARTICLE_STATUSES, type ArticleStatus, type ArticleSummary } from "../../../../shared/schemas/articles";
import { html, type Html } from "../html";
import type { Session } from "../session";
import { badge, orgUrl, page, when, type Notice, type OrgRef } from "./layout";

/** An organization's articles, newest first, 20 a page, filtered by status. */

export const STATUS_LABEL: Record<ArticleStatus, string> = { draft: "draft", in_review: "in review", approved: "approved", published: "published" };
export const STATUS_TONE: Record<ArticleStatus, string> = { draft: "test", in_review: "wait", approved: "ok", published: "live" };
export const statusBadge = (s: ArticleStatus): Html => badge(STATUS_LABEL[s], STATUS_TONE[s]);

export function articlesListPage(c: { session: Session; org: OrgRef; notice?: Notice }, articles: ArticleSummary[], status: ArticleStatus | null, next?: string): Html {
  const filter = (s: ArticleStatus | null) => orgUrl(c.org.id, `/articles${s ? `?status=${s}` : ""}`);
  const more = next ? orgUrl(c.org.id, `/articles?${new URLSearchParams({ ...(status ? { status } : {}), starting_after: next }).toString()}`) : null;
  return page(
    { title: "Articles", session: c.session, org: c.org, section: "articles", notice: c.notice },
    html`<section class="card">
  <div class="row spread">
    <h2>Articles</h2>
    <a class="button" href="${orgUrl(c.org.id, "/articles/new")}" id="new-article">New article</a>
  </div>
  <nav class="segmented" aria-label="Filter by status">
    <a href="${filter(null)}"${status === null ? html` class="active" aria-current="page"` : html``}>all</a>${ARTICLE_STATUSES.map(
      (s) => html`<a href="${filter(s)}"${status === s ? html` class="active" aria-current="page"` : html``}>${STATUS_LABEL[s]}</a>`,
    )}
  </nav>
  ${articles.length
    ? html`<table id="articles">
    <thead><tr><th>Title</th><th>Status</th><th>Language</th><th class="num">Words</th><th class="num">Quality</th><th>Created</th></tr></thead>
    <tbody>${articles.map(
      (a) => html`<tr data-article-id="${a.id}">
        <td><a class="article-link" href="${orgUrl(c.org.id, `/articles/${a.id}`)}">${a.title}</a><div class="muted small">${a.topic}</div></td>
        <td>${statusBadge(a.status)}</td><td>${a.language}</td><td class="num">${a.word_count.toLocaleString("en-US")}</td>
        <td class="num">${a.quality_score}</td><td>${when(a.created_at)}</td>
      </tr>`,
    )}</tbody></table>`
    : html`<p class="empty">${status ? html`No ${STATUS_LABEL[status]} articles.` : html`No articles yet. Write one with “New article”.`}</p>`}
  ${more ? html`<p><a href="${more}" id="older-articles">Older articles →</a></p>` : html``}
</section>`,
  );
}
