import type { BrandProfileSummary } from "../../../../shared/schemas/brand";
import type { Quote } from "../../../../shared/schemas/billing";
import type { JobResource } from "../../../../shared/schemas/jobs";
import { html, type Html } from "../html";
import type { Session } from "../session";
import { badge, csrfField, orgUrl, page, when, type Notice, type OrgRef } from "./layout";

/**
 * "New article": the fields of `POST /v1/articles`, the price before sending (billing.quote, the one
 * pricing table; desk.js asks `…/articles/price` again as the form changes), and a fresh
 * idempotency key per form, so that a double click makes one job. Then the job, followed live.
 */

interface Ctx {
  session: Session;
  org: OrgRef;
  notice?: Notice;
}

export const DERIVATIVE_CHOICES = [
  ["x_thread", "X thread"],
  ["linkedin", "LinkedIn post"],
  ["newsletter", "Newsletter"],
] as const;

/** What the form holds: as typed (strings), so a refused form shows it again unchanged. */
export interface NewArticleValues {
  topic: string;
  target_keyword: string;
  brand_profile_id: string;
  mode: string;
  language: string;
  target_words: string;
  tone: string;
  audience: string;
  extra_instructions: string;
  image: boolean;
  derivatives: string[];
  idempotency_key: string;
}

export const newArticleDefaults = (idempotencyKey: string): NewArticleValues => ({
  topic: "",
  target_keyword: "",
  brand_profile_id: "",
  mode: "standard",
  language: "en",
  target_words: "1600",
  tone: "",
  audience: "",
  extra_instructions: "",
  image: false,
  derivatives: [],
  idempotency_key: idempotencyKey,
});

export function newArticleValues(form: URLSearchParams): NewArticleValues {
  const get = (name: string) => form.get(name) ?? "";
  return {
    topic: get("topic"),
    target_keyword: get("target_keyword"),
    brand_profile_id: get("brand_profile_id"),
    mode: get("mode"),
    language: get("language"),
    target_words: get("target_words"),
    tone: get("tone"),
    audience: get("audience"),
    extra_instructions: get("extra_instructions"),
    image: form.get("image") === "on",
    derivatives: form.getAll("derivatives"),
    idempotency_key: get("idempotency_key"),
  };
}

/** The price in words: "13 credits (standard 10, image 3)". */
export function priceText(q: Quote): string {
  const parts = q.breakdown.map((p) => `${p.component.replace(/^mode:/, "").replace(/_/g, " ")} ${p.credits}`);
  return `${q.credits} credits (${parts.join(", ")})`;
}

const selected = (on: boolean) => (on ? html` selected` : html``);
const checked = (on: boolean) => (on ? html` checked` : html``);

export function newArticlePage(c: Ctx, v: NewArticleValues, o: { profiles: BrandProfileSummary[]; quote: Quote | null; balance: number }): Html {
  return page(
    { title: "New article", session: c.session, org: c.org, section: "articles", notice: c.notice, scripts: ["desk.js"] },
    html`<section class="card narrow wide">
  <h2>New article</h2>
  <form method="post" action="${orgUrl(c.org.id, "/articles")}" class="stack" id="new-article-form" data-price-url="${orgUrl(c.org.id, "/articles/price")}">
    ${csrfField(c.session)}
    <input type="hidden" name="idempotency_key" value="${v.idempotency_key}">
    <label>Topic<input name="topic" value="${v.topic}" required maxlength="500" placeholder="Home composting for beginners"></label>
    <div class="grid-form">
      <label><span>Keyword <span class="muted">(optional)</span></span><input name="target_keyword" value="${v.target_keyword}" maxlength="200" placeholder="home composting"></label>
      <label>Brand profile<select name="brand_profile_id"><option value="">— none (web research only) —</option>${o.profiles.map(
        (p) => html`<option value="${p.id}"${selected(v.brand_profile_id === p.id)}>${p.name} (${p.sources} sources)</option>`,
      )}</select></label>
      <label>Mode<select name="mode"><option value="standard"${selected(v.mode === "standard")}>standard</option><option value="deep_research"${selected(v.mode === "deep_research")}>deep research</option></select></label>
      <label>Language<input name="language" value="${v.language}" maxlength="12" placeholder="en"></label>
      <label>Target words<input name="target_words" type="number" min="400" max="4000" step="1" value="${v.target_words}"></label>
    </div>
    <div class="grid-form">
      <label><span>Tone <span class="muted">(optional)</span></span><input name="tone" value="${v.tone}" maxlength="300" placeholder="friendly, practical"></label>
      <label><span>Audience <span class="muted">(optional)</span></span><input name="audience" value="${v.audience}" maxlength="300" placeholder="first-time gardeners"></label>
    </div>
    <label><span>Extra instructions <span class="muted">(optional)</span></span><textarea name="extra_instructions" rows="2" maxlength="2000">${v.extra_instructions}</textarea></label>
    <fieldset class="choice"><legend>Extras</legend>
      <label class="check"><input type="checkbox" name="image"${checked(v.image)}> Cover image</label>
      ${DERIVATIVE_CHOICES.map(([kind, label]) => html`<label class="check"><input type="checkbox" name="derivatives" value="${kind}"${checked(v.derivatives.includes(kind))}> ${label}</label>`)}
    </fieldset>
    <div class="row spread price-row">
      <p class="price" id="price" aria-live="polite">${o.quote ? html`Price: <strong id="price-credits">${priceText(o.quote)}</strong>` : html`Price: <span class="muted">shown once the form is valid</span>`}</p>
      <p class="muted">Balance: <span id="balance">${o.balance}</span> credits</p>
    </div>
    <div class="row"><button type="submit" id="write-article">Write the article</button><a class="button secondary" href="${orgUrl(c.org.id, "/articles")}">Cancel</a></div>
  </form>
</section>`,
  );
}

const JOB_TONE: Record<string, string> = { queued: "wait", processing: "wait", succeeded: "ok", failed: "off", canceled: "off" };
const ENDED = new Set(["succeeded", "failed", "canceled"]);

/** A job followed live (dashboard.js follows `tr.job[data-live]`, as on the jobs page): its stages, then its article or its failure and refund. */
export function jobFollowPage(c: Ctx, job: JobResource, article: { id: string; title: string } | null, replayed: boolean): Html {
  const running = !ENDED.has(job.status);
  return page(
    { title: "Writing", session: c.session, org: c.org, section: "articles", notice: c.notice },
    html`<section class="card">
  <h2>${running ? "Writing the article" : job.status === "succeeded" ? "The article is written" : "The job ended"}</h2>
  ${replayed ? html`<p class="muted" id="replayed">This form was already sent: this is the job it started (nothing was charged twice).</p>` : html``}
  <table id="jobs" class="single"><thead><tr><th>Created</th><th>Status</th><th>Stages</th><th class="num">Credits</th><th>Result</th></tr></thead>
  <tbody><tr class="job" data-job-id="${job.id}" data-status="${job.status}"${running ? html` data-live="${orgUrl(c.org.id, `/jobs/${job.id}/live`)}"` : html``}>
    <td>${when(job.created_at)}</td>
    <td class="job-status">${badge(job.status, JOB_TONE[job.status] ?? "wait")}</td>
    <td><ol class="stages">${job.stages.map((s) => html`<li class="stage stage-${s.status}" title="${s.status}">${s.label}</li>`)}</ol></td>
    <td class="num">${job.credits_charged}</td>
    <td class="job-result">${article
      ? html`<a class="article-link" href="${orgUrl(c.org.id, `/articles/${article.id}`)}">${article.title}</a>`
      : job.error
        ? html`<span class="muted job-error">${job.error}</span>${job.credits_charged ? html` <span class="refund">${job.credits_charged} credits refunded.</span>` : html``}`
        : html``}</td>
  </tr></tbody></table>
  <p><a href="${orgUrl(c.org.id, "/articles")}">All articles</a> · <a href="${orgUrl(c.org.id, "/jobs")}">All jobs</a></p>
</section>`,
  );
}
