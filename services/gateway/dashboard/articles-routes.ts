import { randomUUID } from "node:crypto";
import { call } from "../../../shared/action";
import { toHttpError } from "../../../shared/errors";
import { ArticlesActions, ARTICLE_STATUSES, type ArticleStatus } from "../../../shared/schemas/articles";
import { BillingActions, type Quote } from "../../../shared/schemas/billing";
import { BrandKnowledgeActions } from "../../../shared/schemas/brand";
import { PipelineActions } from "../../../shared/schemas/jobs";
import { IntegrationActions, type PublishResult } from "../../../shared/schemas/publishing";
import { cursorFrom, doneNotice, formParams, intField, nextCursor, optionalText, textareaField } from "./forms";
import type { Html } from "./html";
import { nullIfNotFound, redirect, sendHtml, sendJson } from "./http";
import type { DashboardRoute, OrgCall } from "./router";
import { articleEditPage, editValuesOf, type EditValues } from "./views/article-edit";
import { jobFollowPage, newArticleDefaults, newArticlePage, newArticleValues, priceText, type NewArticleValues } from "./views/article-new";
import { scoredAt } from "./views/article-quality";
import { articleReadPage } from "./views/article-read";
import { articlesListPage } from "./views/articles-list";
import { orgUrl, type Notice } from "./views/layout";

/**
 * The review desk's article pages (docs/dashboard.md#the-review-desk): list, read, review, edit,
 * publish and write, each through the same action as its API route, so every rule and message is the API's.
 */

const isStatus = (s: string | null): s is ArticleStatus => s !== null && (ARTICLE_STATUSES as readonly string[]).includes(s);

const MOVED: Record<ArticleStatus, string> = {
  draft: "The article is back in draft.",
  in_review: "The article is in review.",
  approved: "The article is approved: it can be published live.",
  published: "The article is published.",
};
const DONE = { saved: "Saved. The body was rendered again and measured.", ...Object.fromEntries(ARTICLE_STATUSES.map((s) => [`moved-${s}`, MOVED[s]])) };

// ---------------------------------------------------------------- reading

async function showArticle(c: OrgCall, o: { notice?: Notice; published?: PublishResult; chosen?: string } = {}): Promise<Html> {
  const a = await call(c.caller, ArticlesActions.get, { org_id: c.org.id, id: c.params.article, format: "html" });
  const newsletter = a.derivatives?.newsletter?.body;
  const [integrations, job, newsletterHtml] = await Promise.all([
    call(c.caller, IntegrationActions.listIntegrations, { org_id: c.org.id }),
    nullIfNotFound(call(c.caller, PipelineActions.get, { org_id: c.org.id, id: a.job_id })),
    // The newsletter is markdown: shown rendered (and sanitized) as the article's own text is.
    newsletter ? call(c.caller, ArticlesActions.renderMarkdown, { content_markdown: newsletter, language: a.language }).then((r) => r.content_html) : null,
  ]);
  return articleReadPage({ session: c.session, org: c.org, notice: o.notice }, a, {
    integrations: integrations.data,
    scored: scoredAt(job),
    published: o.published,
    chosen: o.chosen ?? c.form.get("integration_id") ?? undefined,
    newsletterHtml,
  });
}

// ---------------------------------------------------------------- editing

const editValues = (form: URLSearchParams): EditValues => ({
  title: form.get("title") ?? "",
  meta_title: form.get("meta_title") ?? "",
  meta_description: textareaField(form, "meta_description"),
  content_markdown: textareaField(form, "content_markdown"),
});

async function showEditor(c: OrgCall, values: EditValues | null, notice?: Notice, preview = false): Promise<Html> {
  const a = await call(c.caller, ArticlesActions.get, { org_id: c.org.id, id: c.params.article, format: "markdown" });
  const v = values ?? editValuesOf(a);
  const rendered = preview
    ? await call(c.caller, ArticlesActions.renderMarkdown, formParams(ArticlesActions.renderMarkdown, { content_markdown: v.content_markdown, language: a.language }))
    : undefined;
  return articleEditPage({ session: c.session, org: c.org, notice }, a, v, rendered);
}

// ---------------------------------------------------------------- writing

/** The request body as the form typed it: empty optional fields left out, so the contract's defaults apply. */
function createBody(v: NewArticleValues, form: URLSearchParams): Record<string, unknown> {
  return {
    topic: v.topic,
    target_keyword: optionalText(form, "target_keyword"),
    brand_profile_id: optionalText(form, "brand_profile_id"),
    mode: optionalText(form, "mode"),
    language: optionalText(form, "language"),
    target_words: v.target_words.trim() === "" ? undefined : intField(form, "target_words"),
    tone: optionalText(form, "tone"),
    audience: optionalText(form, "audience"),
    extra_instructions: optionalText(form, "extra_instructions")?.replace(/\r\n?/g, "\n"),
    image: v.image,
    derivatives: v.derivatives,
  };
}

/** The price of what the form (or the price script's query) asks for: billing's quote, the one pricing table; null while the fields are not valid. */
async function quoteFor(c: OrgCall, fields: URLSearchParams): Promise<Quote | null> {
  const params = BillingActions.quote.params.safeParse({
    mode: fields.get("mode") || "standard",
    image: fields.get("image") === "on" || fields.get("image") === "true",
    derivatives: fields.getAll("derivatives"),
    language: (fields.get("language") ?? "").trim() || "en",
  });
  return params.success ? call(c.caller, BillingActions.quote, params.data) : null;
}

async function showNewArticle(c: OrgCall, v: NewArticleValues, notice?: Notice): Promise<Html> {
  const fields = new URLSearchParams({ mode: v.mode, language: v.language, image: v.image ? "on" : "" });
  for (const d of v.derivatives) fields.append("derivatives", d);
  const [profiles, balance, quote] = await Promise.all([
    call(c.caller, BrandKnowledgeActions.listProfiles, { org_id: c.org.id, limit: 100 }),
    call(c.caller, BillingActions.balance, { org_id: c.org.id }),
    quoteFor(c, fields),
  ]);
  return newArticlePage({ session: c.session, org: c.org, notice }, v, { profiles: profiles.data, quote, balance: balance.credit_balance });
}

export const ARTICLE_ROUTES: DashboardRoute[] = [
  {
    method: "GET",
    path: "/orgs/:org/articles",
    access: "org",
    async handler(c) {
      const status = c.query.get("status");
      const filter = isStatus(status) ? status : null;
      const list = await call(c.caller, ArticlesActions.list, { org_id: c.org.id, limit: 20, ...(filter ? { status: filter } : {}), ...cursorFrom(c.query) });
      sendHtml(c.res, 200, articlesListPage({ session: c.session, org: c.org }, list.data, filter, nextCursor(list)));
    },
  },
  {
    method: "GET",
    path: "/orgs/:org/articles/new",
    access: "org",
    async handler(c) {
      // A fresh key per form: sending this form twice (a double click, a reload) makes one job.
      const v = newArticleDefaults(randomUUID());
      const profile = c.query.get("brand_profile_id");
      if (profile) v.brand_profile_id = profile;
      sendHtml(c.res, 200, await showNewArticle(c, v));
    },
  },
  {
    /** The price of the form's choices, for the price script (desk.js): `{credits, text}`, or `{credits: null}` while they are not valid. */
    method: "GET",
    path: "/orgs/:org/articles/price",
    access: "org",
    async handler(c) {
      const quote = await quoteFor(c, c.query);
      sendJson(c.res, 200, quote ? { credits: quote.credits, breakdown: quote.breakdown, text: priceText(quote) } : { credits: null });
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/articles",
    access: "org",
    async handler(c) {
      const v = newArticleValues(c.form);
      const ack = await call(
        c.caller,
        ArticlesActions.create,
        formParams(ArticlesActions.create, { ...createBody(v, c.form), org_id: c.org.id, idempotency_key: v.idempotency_key || undefined }),
      );
      redirect(c.res, orgUrl(c.org.id, `/jobs/${ack.id}${ack.replayed ? "?replayed=1" : ""}`));
    },
    onRefused: (c, notice) => showNewArticle(c, newArticleValues(c.form), notice),
  },
  {
    /** A job followed live until it ends: its article, or its failure and refund. */
    method: "GET",
    path: "/orgs/:org/jobs/:job",
    access: "org",
    async handler(c) {
      const job = await call(c.caller, PipelineActions.get, { org_id: c.org.id, id: c.params.job });
      const articleId = typeof job.result?.article_id === "string" ? job.result.article_id : null;
      const a = articleId ? await nullIfNotFound(call(c.caller, ArticlesActions.get, { org_id: c.org.id, id: articleId, format: "html" })) : null;
      sendHtml(c.res, 200, jobFollowPage({ session: c.session, org: c.org }, job, a && { id: a.id, title: a.title }, c.query.get("replayed") === "1"));
    },
  },
  {
    method: "GET",
    path: "/orgs/:org/articles/:article",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showArticle(c, { notice: doneNotice(c.query, DONE) }));
    },
  },
  {
    /** A review move: `PATCH /v1/articles/{id}` with `status`. A move the lifecycle refuses shows the API's message on the article. */
    method: "POST",
    path: "/orgs/:org/articles/:article/status",
    access: "org",
    async handler(c) {
      const status = c.form.get("status") ?? "";
      await call(c.caller, ArticlesActions.update, formParams(ArticlesActions.update, { org_id: c.org.id, id: c.params.article, status }));
      redirect(c.res, `${orgUrl(c.org.id, `/articles/${c.params.article}`)}?done=moved-${isStatus(status) ? status : "draft"}`);
    },
    onRefused: (c, notice) => showArticle(c, { notice }),
  },
  {
    method: "GET",
    path: "/orgs/:org/articles/:article/edit",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showEditor(c, null));
    },
  },
  {
    /** "Preview" renders what was typed without saving; "Save" is the PATCH. A refused save keeps everything typed. */
    method: "POST",
    path: "/orgs/:org/articles/:article/edit",
    access: "org",
    async handler(c) {
      const v = editValues(c.form);
      if (c.form.get("intent") === "preview") return sendHtml(c.res, 200, await showEditor(c, v, undefined, true));
      await call(c.caller, ArticlesActions.update, formParams(ArticlesActions.update, { org_id: c.org.id, id: c.params.article, ...v }));
      redirect(c.res, `${orgUrl(c.org.id, `/articles/${c.params.article}`)}?done=saved`);
    },
    onRefused: (c, notice) => showEditor(c, editValues(c.form), notice),
  },
  {
    /** `POST /v1/articles/{id}/publish`: the result (its external link) on the article, or the upstream's reason (502 `publish_failed`). */
    method: "POST",
    path: "/orgs/:org/articles/:article/publish",
    access: "org",
    async handler(c) {
      const asDraft = c.form.get("as_draft");
      const params = formParams(IntegrationActions.publish, {
        org_id: c.org.id,
        id: c.params.article,
        integration_id: c.form.get("integration_id") ?? "",
        as_draft: asDraft === "true" ? true : asDraft === "false" ? false : asDraft,
      });
      let published: PublishResult;
      try {
        published = await call(c.caller, IntegrationActions.publish, params);
      } catch (err) {
        const mapped = toHttpError(err);
        if (mapped.body.error.code !== "publish_failed") throw err;
        return sendHtml(c.res, mapped.status, await showArticle(c, { notice: { kind: "error", text: mapped.body.error.message } }));
      }
      sendHtml(c.res, 200, await showArticle(c, { published }));
    },
    onRefused: (c, notice) => showArticle(c, { notice }),
  },
];
