import type { ArticleResource, RenderedMarkdown } from "../../../../shared/schemas/articles";
import { html, Html } from "../html";
import type { Session } from "../session";
import { readerHtml } from "./article-html";
import { csrfField, orgUrl, page, type Notice, type OrgRef } from "./layout";

/**
 * The editor: title, meta title, meta description and the markdown body in one form. "Preview" renders
 * what was typed the way a save would (articles.renderMarkdown) without saving; "Save" is the PATCH.
 * A refused save shows the form again with everything typed and the API's message.
 */

export interface EditValues {
  title: string;
  meta_title: string;
  meta_description: string;
  content_markdown: string;
}

export const editValuesOf = (a: ArticleResource): EditValues => ({
  title: a.title,
  meta_title: a.meta_title,
  meta_description: a.meta_description,
  content_markdown: a.content_markdown ?? "",
});

export function articleEditPage(c: { session: Session; org: OrgRef; notice?: Notice }, a: ArticleResource, v: EditValues, preview?: RenderedMarkdown): Html {
  const back = orgUrl(c.org.id, `/articles/${a.id}`);
  return page(
    { title: `Edit ${a.title}`, session: c.session, org: c.org, section: "articles", notice: c.notice },
    html`<form method="post" action="${orgUrl(c.org.id, `/articles/${a.id}/edit`)}" class="desk edit" id="edit-form">
  <section class="card stack">
    <h2>Edit article</h2>
    ${csrfField(c.session)}
    <label>Title<input name="title" value="${v.title}" maxlength="300"></label>
    <label><span>Meta title <small class="muted">(search engines show about 60 characters)</small></span><input name="meta_title" value="${v.meta_title}" maxlength="200"></label>
    <label><span>Meta description <small class="muted">(about 160 characters)</small></span><textarea name="meta_description" rows="3" maxlength="500">${v.meta_description}</textarea></label>
    <label>Body (markdown)<textarea name="content_markdown" rows="28" class="markdown-input" spellcheck="true">${v.content_markdown}</textarea></label>
    <div class="row">
      <button type="submit" name="intent" value="save" id="save-article">Save</button>
      <button type="submit" name="intent" value="preview" class="secondary" id="preview-article">Preview</button>
      <a class="button secondary" href="${back}">Cancel</a>
    </div>
    <p class="muted small">Saving renders the body again and recomputes its words, reading time and reading ease, as <code>PATCH /v1/articles/${a.id}</code> does. The quality score stays the one the article was written with.</p>
  </section>
  <section class="card reader" id="preview">
    <h3>Preview</h3>
    ${preview
      ? html`<p class="muted small" id="preview-metrics">${preview.word_count.toLocaleString("en-US")} words · ${preview.read_minutes} min read · reading ease ${preview.flesch_score}</p>
        ${previewBody(v.title, preview.content_html)}`
      : html`<p class="muted">Press “Preview” to see the body as readers will see it, without saving.</p>`}
  </section>
</form>`,
  );
}


/** The preview: the text as on the reading page, and its source list as footnotes the references link to. */
function previewBody(title: string, contentHtml: string): Html {
  const r = readerHtml(contentHtml);
  return html`<h1 class="reader-title">${title}</h1><div class="article-body">${r.body}</div>
    ${r.footnotes.length
      ? html`<section class="footnotes"><h2>${r.sourcesHeading}</h2><ol>${r.footnotes.map(
          (f) => html`<li id="source-${f.number}" class="footnote">${new Html(f.label) /* sanitized by the articles service (article-html.ts) */}</li>`,
        )}</ol></section>`
      : html``}`;
}
