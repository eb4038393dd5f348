import type { ApiKeyResource } from "../../../../shared/schemas/admin";
import type { UsageReport } from "../../../../shared/schemas/billing";
import type { JobResource } from "../../../../shared/schemas/jobs";
import type { IntegrationKind, IntegrationResource, IntegrationTestResult } from "../../../../shared/schemas/publishing";
import type { WebhookDeliveryResource, WebhookEndpointResource } from "../../../../shared/schemas/webhooks";
import { html, jsonAttr, type Html } from "../html";
import type { Session } from "../session";
import { INTEGRATION_FORMS } from "./integration-forms";
import { badge, csrfField, orgUrl, page, when, type Notice, type OrgRef } from "./layout";
import { isFinal } from "../../job-events/sequence";

/** The pages of one organization: keys, integrations, webhooks, usage, jobs (the review desk's pages are in articles-*.ts, article-*.ts and brand-*.ts). */

interface Ctx {
  session: Session;
  org: OrgRef;
  notice?: Notice;
}

// ---------------------------------------------------------------- API keys

export function keysPage(c: Ctx, keys: ApiKeyResource[], created?: ApiKeyResource & { key: string }): Html {
  const active = keys.filter((k) => !k.revoked_at).length;
  return page(
    { title: "API keys", session: c.session, org: c.org, section: "keys", notice: c.notice },
    html`${created
      ? html`<section class="card highlight" id="new-key-panel">
  <h2>New ${created.mode} key</h2>
  <p>Copy it now: it is shown <strong>once</strong>. Later only <code>${created.display}</code> is shown.</p>
  <div class="secret"><code id="new-key">${created.key}</code><button type="button" class="copy" data-copy="new-key">Copy</button></div>
</section>`
      : html``}
<section class="card">
  <h2>API keys</h2>
  <p class="muted">${active} active. To rotate a key, create the new one, move your clients to it, then revoke the old one: both are valid meanwhile.</p>
  ${keys.length
    ? html`<table id="keys">
    <thead><tr><th>Key</th><th>Mode</th><th class="num">Rate limit</th><th>Created</th><th>Last used</th><th>State</th><th></th></tr></thead>
    <tbody>${keys.map(
      (k) => html`<tr data-key-id="${k.id}">
        <td><code>${k.display}</code></td><td>${badge(k.mode, k.mode === "live" ? "live" : "test")}</td><td class="num">${k.rate_limit_rpm}/min</td>
        <td>${when(k.created_at)}</td><td>${when(k.last_used_at)}</td>
        <td class="key-state">${k.revoked_at ? html`${badge("revoked", "off")} ${when(k.revoked_at)}` : badge("active", "ok")}</td>
        <td>${k.revoked_at ? html`` : html`<a class="button danger small" href="${orgUrl(c.org.id, `/keys/${k.id}/revoke`)}">Revoke…</a>`}</td>
      </tr>`,
    )}</tbody></table>`
    : html`<p class="empty">No keys yet.</p>`}
</section>
<section class="card">
  <h2>Create a key</h2>
  <form method="post" action="${orgUrl(c.org.id, "/keys")}" class="grid-form">
    ${csrfField(c.session)}
    <label>Mode<select name="mode"><option value="test">test</option><option value="live">live</option></select></label>
    <label>Rate limit (requests per minute)<input name="rate_limit_rpm" type="number" min="1" max="1000000" step="1" value="60" required></label>
    <button type="submit">Create key</button>
  </form>
</section>`,
  );
}

/** A confirmation step before a destructive action: a page, so it works without script. */
export function confirmPage(c: Ctx, o: { title: string; question: Html; action: string; button: string; back: string }): Html {
  return page(
    { title: o.title, session: c.session, org: c.org, notice: c.notice },
    html`<section class="card narrow">
  <h2>${o.title}</h2>
  <p>${o.question}</p>
  <form method="post" action="${o.action}" class="row">
    ${csrfField(c.session)}
    <button type="submit" class="danger">${o.button}</button>
    <a class="button secondary" href="${o.back}">Cancel</a>
  </form>
</section>`,
  );
}

// ---------------------------------------------------------------- Integrations

export function integrationsPage(c: Ctx, list: IntegrationResource[], tested?: { id: string; result: IntegrationTestResult }): Html {
  return page(
    { title: "Integrations", session: c.session, org: c.org, section: "integrations", notice: c.notice },
    html`<section class="card">
  <div class="row spread"><h2>Integrations</h2></div>
  <p class="muted">Connections to content systems that articles are published to. Credentials are stored encrypted and never shown again; only their last characters are.</p>
  ${list.length
    ? html`<table id="integrations">
    <thead><tr><th>Name</th><th>Kind</th><th>Settings</th><th>Credentials</th><th>Created</th><th></th></tr></thead>
    <tbody>${list.map(
      (i) => html`<tr data-integration-id="${i.id}">
        <td class="integration-name">${i.name}</td><td>${i.kind}</td>
        <td class="settings"><dl class="settings">${Object.entries(i.settings)
          .filter(([, v]) => v !== null && typeof v !== "object")
          .map(([k, v]) => html`<dt>${k}</dt><dd>${String(v)}</dd>`)}</dl></td>
        <td><code>${i.credentials_hint}</code></td><td>${when(i.created_at)}</td>
        <td class="actions">
          <form method="post" action="${orgUrl(c.org.id, `/integrations/${i.id}/test`)}" class="inline">${csrfField(c.session)}<button type="submit" class="small">Test connection</button></form>
          <a class="button danger small" href="${orgUrl(c.org.id, `/integrations/${i.id}/remove`)}">Remove…</a>
        </td>
      </tr>${tested && tested.id === i.id
        ? html`<tr class="test-result"><td colspan="6"><div class="notice notice-${tested.result.ok ? "ok" : "error"}" id="test-result">
            <strong>${tested.result.ok ? "Connected" : "Connection failed"}</strong>
            ${tested.result.status === null ? html` (no answer)` : html` (upstream status <span class="upstream-status">${tested.result.status}</span>)`}:
            <span class="upstream-message">${tested.result.message}</span></div></td></tr>`
        : html``}`,
    )}</tbody></table>`
    : html`<p class="empty">No integrations yet.</p>`}
</section>
<section class="card">
  <h2>Add an integration</h2>
  <p>${Object.entries(INTEGRATION_FORMS).map(([kind, f]) => html`<a class="button secondary" href="${orgUrl(c.org.id, `/integrations/new?kind=${kind}`)}">${f.label}</a> `)}</p>
</section>`,
  );
}

export function newIntegrationPage(c: Ctx, kind: IntegrationKind, values: Record<string, string> = {}): Html {
  const form = INTEGRATION_FORMS[kind];
  return page(
    { title: `Add ${form.label}`, session: c.session, org: c.org, section: "integrations", notice: c.notice },
    html`<section class="card narrow">
  <h2>Add a ${form.label} integration</h2>
  <form method="post" action="${orgUrl(c.org.id, "/integrations")}" class="stack" autocomplete="off">
    ${csrfField(c.session)}
    <input type="hidden" name="kind" value="${kind}">
    <label>Name<input name="name" required maxlength="200" value="${values.name ?? ""}"></label>
    ${form.fields.map((f) =>
      f.options
        ? html`<label>${f.label}<select name="${f.name}">${f.options.map((o) => html`<option value="${o}"${(values[f.name] ?? f.options![0]) === o ? html` selected` : html``}>${o}</option>`)}</select></label>`
        : html`<label>${f.label}${f.required ? html`` : html` <span class="muted">(optional)</span>`}
            <input name="${f.name}" type="${f.secret ? "password" : f.type ?? "text"}" ${f.required ? html`required` : html``} placeholder="${f.placeholder ?? ""}" value="${f.secret ? "" : values[f.name] ?? ""}"${f.secret ? html` autocomplete="new-password"` : html``}>
            ${f.hint ? html`<small class="muted">${f.hint}</small>` : html``}</label>`,
    )}
    <div class="row"><button type="submit">Add integration</button><a class="button secondary" href="${orgUrl(c.org.id, "/integrations")}">Cancel</a></div>
  </form>
</section>`,
  );
}

// ---------------------------------------------------------------- Webhooks

type AdminEndpoint = WebhookEndpointResource & { surface: string };

export function webhooksPage(c: Ctx, endpoints: AdminEndpoint[]): Html {
  return page(
    { title: "Webhooks", session: c.session, org: c.org, section: "webhooks", notice: c.notice },
    html`<section class="card">
  <h2>Webhook endpoints</h2>
  <p class="muted">Endpoints are registered through the API (<code>POST /v1/webhooks</code>). An inactive endpoint receives nothing.</p>
  ${endpoints.length
    ? html`<table id="endpoints">
    <thead><tr><th>URL</th><th>Events</th><th>State</th><th>Created</th><th></th></tr></thead>
    <tbody>${endpoints.map(
      (e) => html`<tr data-endpoint-id="${e.id}">
        <td class="endpoint-url"><a href="${orgUrl(c.org.id, `/webhooks/${e.id}`)}">${e.url}</a></td>
        <td>${e.events.map((k) => html`<code class="event">${k}</code> `)}</td>
        <td>${e.active ? badge("active", "ok") : badge("inactive", "off")}</td>
        <td>${when(e.created_at)}</td>
        <td class="actions">${activeToggle(c, e)} <a class="button secondary small" href="${orgUrl(c.org.id, `/webhooks/${e.id}`)}">Deliveries</a></td>
      </tr>`,
    )}</tbody></table>`
    : html`<p class="empty">No webhook endpoints.</p>`}
</section>`,
  );
}

function activeToggle(c: Ctx, e: AdminEndpoint): Html {
  return html`<form method="post" action="${orgUrl(c.org.id, `/webhooks/${e.id}/active`)}" class="inline">
    ${csrfField(c.session)}<input type="hidden" name="active" value="${e.active ? "false" : "true"}">
    <button type="submit" class="small ${e.active ? "danger" : ""}">${e.active ? "Deactivate" : "Reactivate"}</button></form>`;
}

const DELIVERY_TONE: Record<string, string> = { delivered: "ok", pending: "wait", failed: "warn", dead: "off" };

export function deliveriesPage(c: Ctx, e: AdminEndpoint, deliveries: WebhookDeliveryResource[], more: { next?: string }): Html {
  return page(
    { title: "Deliveries", session: c.session, org: c.org, section: "webhooks", notice: c.notice },
    html`<section class="card">
  <div class="row spread">
    <div><h2>Deliveries</h2><p class="endpoint-url">${e.url} ${e.active ? badge("active", "ok") : badge("inactive", "off")}</p></div>
    ${activeToggle(c, e)}
  </div>
  ${deliveries.length
    ? html`<ol class="deliveries">${deliveries.map(
      (d) => html`<li class="delivery" data-delivery-id="${d.id}">
        <div class="row spread">
          <div><code class="event">${d.event}</code> ${badge(d.status, DELIVERY_TONE[d.status] ?? "wait")}
            ${d.dead_reason ? html`<span class="muted">${d.dead_reason.replace("_", " ")}</span>` : html``}
            <span class="muted">created ${when(d.created_at)}</span></div>
          ${d.status === "dead"
            ? html`<form method="post" action="${orgUrl(c.org.id, `/webhooks/${e.id}/deliveries/${d.id}/redeliver`)}" class="inline">${csrfField(c.session)}<button type="submit" class="small">Redeliver</button></form>`
            : html``}
        </div>
        <table class="attempts">
          <thead><tr><th>#</th><th>Time</th><th>Status</th><th>Error</th><th class="num">Duration</th></tr></thead>
          <tbody>${d.attempts.length
            ? d.attempts.map(
                (a) => html`<tr class="attempt"><td>${a.series ? `${a.series + 1}.${a.attempt}` : a.attempt}</td><td>${when(a.attempted_at)}</td>
                  <td class="attempt-status">${a.status_code ?? html`<span class="muted">—</span>`}</td><td class="attempt-error">${a.error ?? ""}</td><td class="num">${a.duration_ms} ms</td></tr>`,
              )
            : html`<tr><td colspan="5" class="muted">No attempt yet.</td></tr>`}</tbody>
        </table>
        ${d.next_attempt_at ? html`<p class="muted next-retry">Next attempt ${when(d.next_attempt_at)}</p>` : html``}
      </li>`,
    )}</ol>`
    : html`<p class="empty">No deliveries yet.</p>`}
  ${more.next ? html`<p><a href="${orgUrl(c.org.id, `/webhooks/${e.id}?starting_after=${more.next}`)}">Older deliveries →</a></p>` : html``}
</section>`,
  );
}

// ---------------------------------------------------------------- Usage

export const USAGE_WINDOWS = [7, 30, 90] as const;

/** What the chart script draws: one array per series, aligned with `days`. */
export function chartData(report: UsageReport) {
  return {
    days: report.daily.map((d) => d.day),
    credits: report.daily.map((d) => d.credits),
    requests: report.daily.map((d) => d.requests),
    tokens: report.daily.map((d) => d.tokens_in + d.tokens_out),
  };
}

export function usagePage(c: Ctx, report: UsageReport): Html {
  const data = chartData(report);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return page(
    { title: "Usage", session: c.session, org: c.org, section: "usage", notice: c.notice, scripts: ["uplot.js"], styles: ["uplot.css"] },
    html`<section class="stats">
  <div class="stat"><span class="stat-value" id="balance">${report.credit_balance}</span><span class="stat-label">credit balance</span></div>
  <div class="stat"><span class="stat-value">${sum(data.credits)}</span><span class="stat-label">credits used (${report.days} days)</span></div>
  <div class="stat"><span class="stat-value">${sum(data.requests)}</span><span class="stat-label">requests</span></div>
  <div class="stat"><span class="stat-value">${sum(data.tokens)}</span><span class="stat-label">model tokens</span></div>
</section>
<section class="card">
  <div class="row spread">
    <h2>Per day, last ${report.days} days</h2>
    <nav class="segmented">${USAGE_WINDOWS.map((d) => html`<a href="${orgUrl(c.org.id, `/usage?days=${d}`)}"${d === report.days ? html` class="active" aria-current="page"` : html``}>${d} days</a>`)}</nav>
  </div>
  <div id="usage-chart" class="chart" data-usage="${jsonAttr(data)}" aria-label="Credits, requests and tokens per day"></div>
  <details><summary>Table</summary>
    <table class="usage-table"><thead><tr><th>Day</th><th class="num">Credits</th><th class="num">Requests</th><th class="num">Tokens in</th><th class="num">Tokens out</th></tr></thead>
    <tbody>${[...report.daily].reverse().map((d) => html`<tr><td>${d.day}</td><td class="num">${d.credits}</td><td class="num">${d.requests}</td><td class="num">${d.tokens_in}</td><td class="num">${d.tokens_out}</td></tr>`)}</tbody></table>
  </details>
</section>`,
  );
}

// ---------------------------------------------------------------- Jobs

export interface JobRow {
  job: JobResource;
  article: { id: string; title: string } | null;
}

const JOB_TONE: Record<string, string> = { queued: "wait", processing: "wait", succeeded: "ok", failed: "off", canceled: "off" };
/** Not yet at a final status (the job event streams' own rule): the jobs page follows it live. */
export const isRunning = (job: JobResource): boolean => !isFinal(job.status);

export function jobsPage(c: Ctx, rows: JobRow[]): Html {
  return page(
    { title: "Jobs", session: c.session, org: c.org, section: "jobs", notice: c.notice },
    html`<section class="card">
  <h2>Recent jobs</h2>
  <p class="muted">Stages of running jobs update live.</p>
  ${rows.length
    ? html`<table id="jobs"><thead><tr><th>Created</th><th>Type</th><th>Status</th><th>Stages</th><th class="num">Credits</th><th>Result</th></tr></thead>
    <tbody>${rows.map(({ job, article }) => html`<tr class="job" data-job-id="${job.id}"${isRunning(job) ? html` data-live="${orgUrl(c.org.id, `/jobs/${job.id}/live`)}"` : html``}>
      <td>${when(job.created_at)}</td><td>${job.type.replace("_", " ")}</td>
      <td class="job-status">${badge(job.status, JOB_TONE[job.status] ?? "wait")}</td>
      <td><ol class="stages">${job.stages.map((s) => html`<li class="stage stage-${s.status}" title="${s.status}">${s.label}</li>`)}</ol></td>
      <td class="num">${job.credits_charged}</td>
      <td class="job-result">${jobResult(c, job, article)}</td>
    </tr>`)}</tbody></table>`
    : html`<p class="empty">No jobs yet.</p>`}
</section>`,
  );
}

function jobResult(c: Ctx, job: JobResource, article: JobRow["article"]): Html {
  if (article) return html`<a class="article-link" href="${orgUrl(c.org.id, `/articles/${article.id}`)}">${article.title}</a>`;
  if (job.error) return html`<span class="muted">${job.error}</span>`;
  return html``;
}
