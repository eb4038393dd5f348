import { ARTICLE_TRANSITIONS, type ArticleResource, type ArticleStatus, type Citation } from "../../../../shared/schemas/articles";
import type { IntegrationResource, PublishResult } from "../../../../shared/schemas/publishing";
import { html, Html } from "../html";
import type { Session } from "../session";
import { readerHtml, serviceHtml, type Footnote } from "./article-html";
import { qualityLines, type ScoredAt } from "./article-quality";
import { STATUS_LABEL, statusBadge } from "./articles-list";
import { INTEGRATION_FORMS } from "./integration-forms";
import { badge, csrfField, orgUrl, page, when, type Notice, type OrgRef } from "./layout";

/**
 * An article as its readers will see it (the sanitized HTML the publishers send, footnoted), with the
 * review desk beside it: the quality score in words, the review moves, search preview, title
 * variants, publishing and publications; derivatives and each citation's quoted passage below.
 */

interface Ctx {
  session: Session;
  org: OrgRef;
  notice?: Notice;
}

/** The moves a button offers (the lifecycle's, `ARTICLE_TRANSITIONS`); `published` is reached by publishing live, not by a button. */
const MOVE_LABEL: Partial<Record<ArticleStatus, Partial<Record<ArticleStatus, string>>>> = {
  draft: { in_review: "Submit for review" },
  in_review: { approved: "Approve", draft: "Back to draft" },
  approved: { in_review: "Back to review", draft: "Back to draft" },
  published: { draft: "Back to draft" },
};

export function reviewMoves(status: ArticleStatus): { to: ArticleStatus; label: string }[] {
  return ARTICLE_TRANSITIONS[status].flatMap((to) => {
    const label = MOVE_LABEL[status]?.[to];
    return label ? [{ to, label }] : [];
  });
}

/** The address of a cover on this origin: the media route is the gateway's own, whatever PUBLIC_BASE_URL names. */
function sameOrigin(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname.startsWith("/media/") ? u.pathname : url;
  } catch {
    return url;
  }
}

export interface ArticleReadExtras {
  integrations: IntegrationResource[];
  scored: ScoredAt | null;
  published?: PublishResult;
  /** The integration the last publish form named: chosen again in the form. */
  chosen?: string;
  /** The newsletter's markdown body rendered by the articles service (sanitized as an article's HTML is). */
  newsletterHtml?: string | null;
}

export function articleReadPage(c: Ctx, a: ArticleResource, x: ArticleReadExtras): Html {
  const reader = readerHtml(a.content_html ?? "", x.scored?.off_topic ?? []);
  const lines = qualityLines(a, reader, x.scored);
  const base = (rest = "") => orgUrl(c.org.id, `/articles/${a.id}${rest}`);
  return page(
    { title: a.title, session: c.session, org: c.org, section: "articles", notice: c.notice },
    html`<section class="card article-head">
  <div class="row spread">
    <div>
      <h2 class="article-title">${a.title}</h2>
      <p class="facts-line"><span id="article-status">${statusBadge(a.status)}</span> ${a.language} · ${a.word_count.toLocaleString("en-US")} words · ${a.read_minutes} min read ·
        quality <strong id="quality-score">${a.quality_score}</strong> · created ${when(a.created_at)}</p>
    </div>
    <div class="row actions" id="review-moves">
      ${reviewMoves(a.status).map(
        (m) => html`<form method="post" action="${base("/status")}" class="inline">${csrfField(c.session)}<input type="hidden" name="status" value="${m.to}">
          <button type="submit" class="${m.to === "draft" ? "secondary" : ""}" data-move="${m.to}">${m.label}</button></form>`,
      )}
      <a class="button secondary" href="${base("/edit")}" id="edit-article">Edit</a>
    </div>
  </div>
</section>
<div class="desk">
  <article class="card reader" lang="${a.language}">
    ${a.image ? html`<figure class="cover"><img src="${sameOrigin(a.image.url)}" alt="${a.image.alt}" width="${a.image.width}" height="${a.image.height}"></figure>` : html``}
    <h1 class="reader-title">${a.title}</h1>
    <div class="article-body" id="article-body">${reader.body}</div>
    ${footnotes(reader.sourcesHeading, reader.footnotes, a.citations)}
  </article>
  <aside class="side">
    <section class="card">
      <h3>Quality ${a.quality_score}</h3>
      <ul class="quality" id="quality">${lines.map(
        (l) => html`<li class="quality-${l.tone}" data-part="${l.part}"><span class="quality-label">${l.label}</span> <span class="quality-score">${Math.round(l.score)}</span><div class="quality-text">${l.text}</div></li>`,
      )}</ul>
      <p class="muted small">Scored when the article was written; edits are measured again (words, reading time) but not scored again.${x.scored ? "" : " The job that wrote it is no longer kept: its requested length and form problems are not known."}</p>
    </section>
    <section class="card">
      <h3>Search result preview</h3>
      <div class="serp" id="serp"><div class="serp-url">${a.slug}</div><div class="serp-title">${a.meta_title}</div><div class="serp-description">${a.meta_description}</div></div>
      <p class="muted small">Meta title ${a.meta_title.length}/60 · description ${a.meta_description.length}/160 characters</p>
    </section>
    ${a.title_variants.length ? html`<section class="card"><h3>Title variants</h3><ul class="variants" id="title-variants">${a.title_variants.map((t) => html`<li>${t}</li>`)}</ul></section>` : html``}
    ${publishCard(c, a, x)}
  </aside>
</div>
${derivatives(a, x.newsletterHtml ?? null)}`,
  );
}

function footnotes(heading: string | null, notes: Footnote[], citations: Citation[]): Html {
  if (!notes.length) return html``;
  const byUrl = new Map<string, Citation[]>();
  for (const cite of citations) byUrl.set(cite.url, [...(byUrl.get(cite.url) ?? []), cite]);
  return html`<section class="footnotes" id="footnotes">
  <h2>${heading}</h2>
  <ol>${notes.map((f) => {
    // A source without an address (a pasted text cited by its id, urn:uuid:…) is listed by its title: matched by it.
    const quoted = f.url ? byUrl.get(decodeEntities(f.url)) ?? [] : citations.filter((c) => !/^https?:/i.test(c.url) && decodeEntities(f.label.replace(/<[^>]+>/g, "")).startsWith(c.title));
    return html`<li id="source-${f.number}" class="footnote">${new Html(f.label) /* the article's own list item, sanitized by the articles service (article-html.ts) */}
      ${quoted.length
        ? html`<details class="quotes"><summary>${quoted.length} ${quoted.length === 1 ? "claim rests" : "claims rest"} on this source</summary>${quoted.map(
            (q) => html`<div class="quote-pair"><p class="claim">${q.claim}</p><blockquote class="quote">${q.quote}</blockquote></div>`,
          )}</details>`
        : html``}</li>`;
  })}</ol>
</section>`;
}

const ENTITY: Record<string, string> = { "&amp;": "&", "&quot;": '"', "&#39;": "'", "&lt;": "<", "&gt;": ">" };
const decodeEntities = (s: string) => s.replace(/&(amp|quot|#39|lt|gt);/g, (e) => ENTITY[e]);

function publishCard(c: Ctx, a: ArticleResource, x: ArticleReadExtras): Html {
  const byId = new Map(x.integrations.map((i) => [i.id, i]));
  return html`<section class="card" id="publishing">
  <h3>Publishing</h3>
  ${x.published
    ? html`<p class="notice notice-ok" id="publish-result">Sent to ${INTEGRATION_FORMS[x.published.kind]?.label ?? x.published.kind} as ${x.published.as_draft ? "a draft" : "a live post"}:
        <a href="${x.published.external_url}" id="external-link" rel="noopener noreferrer">${x.published.external_url}</a></p>`
    : html``}
  ${x.integrations.length
    ? html`<form method="post" action="${orgUrl(c.org.id, `/articles/${a.id}/publish`)}" class="stack" id="publish-form">
        ${csrfField(c.session)}
        <label>Integration<select name="integration_id">${x.integrations.map((i) => html`<option value="${i.id}"${i.id === x.chosen ? html` selected` : html``}>${i.name} (${i.kind})</option>`)}</select></label>
        <fieldset class="choice"><legend>As</legend>
          <label class="check"><input type="radio" name="as_draft" value="true" checked> a draft (any status; the status stays ${STATUS_LABEL[a.status]})</label>
          <label class="check"><input type="radio" name="as_draft" value="false"> live (approved articles; moves it to published)</label>
        </fieldset>
        <button type="submit">Publish</button>
      </form>`
    : html`<p class="muted">No integrations yet: <a href="${orgUrl(c.org.id, "/integrations")}">add one</a> to publish.</p>`}
  ${a.publications.length
    ? html`<table class="publications" id="publications"><thead><tr><th>Where</th><th>As</th><th>When</th></tr></thead><tbody>${a.publications.map(
        (p) => html`<tr><td><a href="${p.external_url}" rel="noopener noreferrer" class="publication-link">${byId.get(p.integration_id)?.name ?? p.kind}</a></td>
          <td>${badge(p.status, p.status === "published" ? "live" : "test")}</td><td>${when(p.published_at)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted small">Not published anywhere yet.</p>`}
</section>`;
}

function derivatives(a: ArticleResource, newsletterHtml: string | null): Html {
  const d = a.derivatives;
  if (!d || (!d.x_thread?.length && !d.linkedin && !d.newsletter)) return html``;
  return html`<section class="card" id="derivatives">
  <h2>Derivatives</h2>
  <div class="derivatives">
    ${d.x_thread?.length ? html`<div><h3>X thread</h3><ol class="thread">${d.x_thread.map((t) => html`<li>${t}</li>`)}</ol></div>` : html``}
    ${d.linkedin ? html`<div><h3>LinkedIn</h3><p class="prewrap">${d.linkedin}</p></div>` : html``}
    ${d.newsletter ? html`<div><h3>Newsletter</h3><p><strong>${d.newsletter.subject}</strong></p>${newsletterHtml ? html`<div class="newsletter">${serviceHtml(newsletterHtml)}</div>` : html`<p class="prewrap">${d.newsletter.body}</p>`}</div>` : html``}
  </div>
</section>`;
}
