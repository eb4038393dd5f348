import { call } from "../../../shared/action";
import { AuthActions, type ApiKeyResource, type CreatedApiKey } from "../../../shared/schemas/admin";
import { ArticlesActions } from "../../../shared/schemas/articles";
import { BillingActions } from "../../../shared/schemas/billing";
import { DashboardActions, type DashboardLink } from "../../../shared/schemas/dashboard";
import { PipelineActions } from "../../../shared/schemas/jobs";
import { IntegrationActions, type IntegrationResource, type IntegrationTestResult } from "../../../shared/schemas/publishing";
import { WebhooksActions, type AdminWebhookEndpointResource } from "../../../shared/schemas/webhooks";
import { isAdminToken } from "../../../shared/bearer";
import { NotFoundError, ValidationError } from "../../../shared/errors";
import { ARTICLE_ROUTES } from "./articles-routes";
import { BRAND_ROUTES } from "./brand-routes";
import { cursorFrom, doneNotice, formParams, intField, nextCursor } from "./forms";
import { html, type Html } from "./html";
import { nullIfNotFound, redirect, sendHtml, sendJson } from "./http";
import type { DashboardRoute, OrgCall, SessionCall } from "./router";
import { clearedSessionCookie, isDashboardSecret, sessionCookie } from "./session";
import { linkLandingPage, orgListPage, overviewPage, signInPage, type OrgRow } from "./views/access";
import { integrationBody, isIntegrationKind } from "./views/integration-forms";
import { orgUrl, type Notice } from "./views/layout";
import {
  confirmPage,
  deliveriesPage,
  integrationsPage,
  isRunning,
  jobsPage,
  keysPage,
  newIntegrationPage,
  USAGE_WINDOWS,
  usagePage,
  webhooksPage,
  type JobRow,
} from "./views/org-sections";

/**
 * The dashboard's routes (docs/dashboard.md): each reads or changes through the same actions as
 * `/admin` and `/v1`, after checking that what it names belongs to the organization of the path.
 */

const PAGE = 50;

// ---------------------------------------------------------------- ownership (an id of another organization is a 404)

async function ownedKey(c: OrgCall, keyId: string): Promise<ApiKeyResource> {
  const keys = await call(c.caller, AuthActions.listKeys, { org_id: c.org.id });
  const key = keys.data.find((k) => k.id === keyId);
  if (!key) throw new NotFoundError("API key");
  return key;
}

async function ownedEndpoint(c: OrgCall, endpointId: string): Promise<AdminWebhookEndpointResource> {
  const list = await call(c.caller, WebhooksActions.adminListEndpoints, { org_id: c.org.id });
  const endpoint = list.data.find((e) => e.id === endpointId);
  if (!endpoint) throw new NotFoundError("webhook endpoint");
  return endpoint;
}

/** A delivery of the endpoint: paging from it as the cursor is refused (404) unless it is one of the endpoint's. */
async function assertDeliveryOf(c: OrgCall, endpointId: string, deliveryId: string): Promise<void> {
  await call(c.caller, WebhooksActions.listDeliveries, { id: endpointId, limit: 1, starting_after: deliveryId });
}

async function ownedIntegration(c: OrgCall, id: string): Promise<IntegrationResource> {
  const list = await call(c.caller, IntegrationActions.listIntegrations, { org_id: c.org.id });
  const found = list.data.find((i) => i.id === id);
  if (!found) throw new NotFoundError("integration");
  return found;
}

// ---------------------------------------------------------------- sections

async function showOverview(c: OrgCall, extra: { notice?: Notice; link?: DashboardLink } = {}): Promise<Html> {
  const [balance, keys, integrations, endpoints] = await Promise.all([
    call(c.caller, BillingActions.balance, { org_id: c.org.id }),
    call(c.caller, AuthActions.listKeys, { org_id: c.org.id }),
    call(c.caller, IntegrationActions.listIntegrations, { org_id: c.org.id }),
    call(c.caller, WebhooksActions.adminListEndpoints, { org_id: c.org.id }),
  ]);
  return overviewPage(
    c.session,
    { org: c.org, credit_balance: balance.credit_balance, keys: keys.data.filter((k) => !k.revoked_at).length, integrations: integrations.data.length, endpoints: endpoints.data.length },
    extra,
  );
}

async function showKeys(c: OrgCall, notice?: Notice, created?: CreatedApiKey): Promise<Html> {
  const keys = await call(c.caller, AuthActions.listKeys, { org_id: c.org.id });
  return keysPage({ session: c.session, org: c.org, notice }, keys.data, created);
}

async function showIntegrations(c: OrgCall, notice?: Notice, tested?: { id: string; result: IntegrationTestResult }): Promise<Html> {
  const list = await call(c.caller, IntegrationActions.listIntegrations, { org_id: c.org.id });
  return integrationsPage({ session: c.session, org: c.org, notice }, list.data, tested);
}

async function showWebhooks(c: OrgCall, notice?: Notice): Promise<Html> {
  const list = await call(c.caller, WebhooksActions.adminListEndpoints, { org_id: c.org.id });
  return webhooksPage({ session: c.session, org: c.org, notice }, list.data);
}

async function showDeliveries(c: OrgCall, notice?: Notice): Promise<Html> {
  const endpoint = await ownedEndpoint(c, c.params.endpoint);
  const page = await call(c.caller, WebhooksActions.listDeliveries, { id: endpoint.id, limit: 20, ...cursorFrom(c.query) });
  return deliveriesPage({ session: c.session, org: c.org, notice }, endpoint, page.data, { next: nextCursor(page) });
}

async function showOrgList(c: SessionCall, notice?: Notice): Promise<Html> {
  const q = (c.query.get("q") ?? "").trim().slice(0, 200);
  const list = await call(c.caller, AuthActions.listOrganizations, { limit: PAGE, ...(q ? { q } : {}), ...cursorFrom(c.query) });
  const rows: OrgRow[] = list.data;
  return orgListPage(c.session, rows, q, { next: nextCursor(list) }, notice);
}

/** Recent jobs with the article each produced (matched through the article's `job_id`). */
async function jobRows(c: OrgCall): Promise<JobRow[]> {
  const [jobs, articles] = await Promise.all([
    call(c.caller, PipelineActions.recentJobs, { org_id: c.org.id, limit: 20 }),
    call(c.caller, ArticlesActions.list, { org_id: c.org.id, limit: 50 }),
  ]);
  const byJob = new Map(articles.data.map((a) => [a.job_id, { id: a.id, title: a.title }]));
  // A job's article older than the newest 50: read by the id the job's result names.
  await Promise.all(
    jobs.data.map(async (job) => {
      const articleId = job.result?.article_id;
      if (typeof articleId !== "string" || byJob.has(job.id)) return;
      const a = await nullIfNotFound(call(c.caller, ArticlesActions.get, { org_id: c.org.id, id: articleId, format: "markdown" }));
      if (a) byJob.set(job.id, { id: a.id, title: a.title });
    }),
  );
  return jobs.data.map((job) => ({ job, article: byJob.get(job.id) ?? null }));
}

/** Messages after a redirect: by name only, so nothing a user typed is ever reflected from the URL. */
const DONE_MESSAGES = {
  revoked: "The key was revoked. Requests with it now fail with 401.",
  created: "The integration was added. Its credentials will not be shown again.",
  removed: "The integration was removed.",
  deactivated: "The endpoint was deactivated: it receives nothing until reactivated.",
  reactivated: "The endpoint was reactivated.",
  redelivering: "The delivery was queued again.",
  granted: "Credits granted.",
  organization: "Organization created.",
} satisfies Record<string, string>;
type Done = keyof typeof DONE_MESSAGES;

/** Back to a section of the organization (a path without a query), with a message by name. */
const done = (c: OrgCall, rest: string, message: Done) => redirect(c.res, `${orgUrl(c.org.id, rest)}?done=${message}`);

/**
 * "Confirm, then act" on an item the organization owns, at `/orgs/:org<path>` (`/<section>/:<item>/<verb>`):
 * GET asks on a confirmation page, POST does it and returns to the section with the `done` message.
 * Both find the item first, so an id of another organization is a 404 either way.
 */
function confirmThenAct<T extends { id: string }>(o: {
  path: string;
  find: (c: OrgCall) => Promise<T>;
  /** Nothing left to confirm (already done): the GET returns to the section. */
  nothingToDo?: (item: T) => boolean;
  confirm: (item: T) => { title: string; question: Html; button: string };
  act: (c: OrgCall, item: T) => Promise<unknown>;
  done: Done;
}): DashboardRoute[] {
  const section = o.path.slice(0, o.path.indexOf("/", 1));
  const itemPath = (item: T) => o.path.replace(/:[a-z_]+/, item.id);
  return [
    {
      method: "GET",
      path: `/orgs/:org${o.path}`,
      access: "org",
      async handler(c) {
        const item = await o.find(c);
        if (o.nothingToDo?.(item)) return redirect(c.res, orgUrl(c.org.id, section));
        const question = o.confirm(item);
        const form = { ...question, action: orgUrl(c.org.id, itemPath(item)), back: orgUrl(c.org.id, section) };
        sendHtml(c.res, 200, confirmPage({ session: c.session, org: c.org }, form));
      },
    },
    {
      method: "POST",
      path: `/orgs/:org${o.path}`,
      access: "org",
      async handler(c) {
        const item = await o.find(c);
        await o.act(c, item);
        done(c, section, o.done);
      },
    },
  ];
}

// ---------------------------------------------------------------- routes

export const DASHBOARD_ROUTES: DashboardRoute[] = [
  {
    method: "GET",
    path: "",
    access: "public",
    async handler(c) {
      if (!c.session) return redirect(c.res, "/dashboard/sign-in");
      redirect(c.res, c.session.role === "operator" ? "/dashboard/orgs" : orgUrl(c.session.org_id!));
    },
  },
  {
    method: "GET",
    path: "/sign-in",
    access: "public",
    async handler(c) {
      sendHtml(c.res, 200, signInPage());
    },
  },
  {
    method: "POST",
    path: "/sign-in",
    access: "public",
    async handler(c) {
      // Over its budget of wrong tokens, an address is refused before its token is even compared.
      const client = c.req.socket.remoteAddress ?? "unknown";
      const wait = c.signInBudget.retryAfterSeconds(client);
      if (wait > 0) {
        const text = `Too many wrong admin tokens from your address: signing in is paused for ${Math.ceil(wait / 60)} minute(s).`;
        return sendHtml(c.res, 429, signInPage({ kind: "error", text }), { "retry-after": String(wait) });
      }
      if (!isAdminToken(c.form.get("admin_token") ?? "")) {
        c.signInBudget.recordFailure(client);
        return sendHtml(c.res, 401, signInPage({ kind: "error", text: "That is not the admin token." }));
      }
      c.signInBudget.recordSuccess(client);
      const opened = await call(c.caller, DashboardActions.openOperatorSession, {});
      redirect(c.res, "/dashboard/orgs", { "set-cookie": sessionCookie(opened.session, opened.expires_at, c.secure) });
    },
  },
  {
    method: "GET",
    path: "/link",
    access: "public",
    async handler(c) {
      const token = c.query.get("token") ?? "";
      sendHtml(c.res, 200, linkLandingPage(isDashboardSecret(token) ? token : "", token ? undefined : { kind: "error", text: "This link is incomplete." }));
    },
  },
  {
    method: "POST",
    path: "/link",
    access: "public",
    async handler(c) {
      const token = c.form.get("token") ?? "";
      const opened = isDashboardSecret(token)
        ? await nullIfNotFound(call(c.caller, DashboardActions.redeemDashboardLink, { token }))
        : null;
      if (!opened) return sendHtml(c.res, 404, linkLandingPage("", { kind: "error", text: "This sign-in link has expired or was used already." }));
      // A browser holds one session: an earlier one (the operator's, say) is replaced.
      if (c.session) await call(c.caller, DashboardActions.endDashboardSession, { session: c.session.id });
      redirect(c.res, orgUrl(opened.org_id!), { "set-cookie": sessionCookie(opened.session, opened.expires_at, c.secure) });
    },
  },
  {
    method: "POST",
    path: "/sign-out",
    access: "session",
    async handler(c) {
      await call(c.caller, DashboardActions.endDashboardSession, { session: c.session.id });
      redirect(c.res, "/dashboard/sign-in", { "set-cookie": clearedSessionCookie(c.secure) });
    },
  },

  // Operator
  {
    method: "GET",
    path: "/orgs",
    access: "operator",
    async handler(c) {
      sendHtml(c.res, 200, await showOrgList(c, doneNotice(c.query, DONE_MESSAGES)));
    },
  },
  {
    method: "POST",
    path: "/orgs",
    access: "operator",
    async handler(c) {
      const org = await call(
        c.caller,
        AuthActions.createOrganization,
        formParams(AuthActions.createOrganization, { name: c.form.get("name") ?? "", credits: intField(c.form, "credits") || 0 }),
      );
      redirect(c.res, `${orgUrl(org.id)}?done=organization`);
    },
    onRefused: (c, notice) => showOrgList(c, notice),
  },
  {
    method: "POST",
    path: "/orgs/:org/credits",
    access: "operator",
    async handler(c) {
      await call(
        c.caller,
        AuthActions.grantCredits,
        formParams(AuthActions.grantCredits, { org_id: c.org.id, amount: intField(c.form, "amount"), reason: c.form.get("reason") ?? "" }),
      );
      done(c, "", "granted");
    },
    onRefused: (c, notice) => showOverview(c, { notice }),
  },
  {
    method: "POST",
    path: "/orgs/:org/sign-in-links",
    access: "operator",
    async handler(c) {
      const link = await call(c.caller, DashboardActions.createDashboardLink, { org_id: c.org.id });
      sendHtml(c.res, 201, await showOverview(c, { link, notice: { kind: "ok", text: "Sign-in link issued. Send it to the organization: it works once." } }));
    },
  },

  // One organization
  {
    method: "GET",
    path: "/orgs/:org",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showOverview(c, { notice: doneNotice(c.query, DONE_MESSAGES) }));
    },
  },
  {
    method: "GET",
    path: "/orgs/:org/keys",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showKeys(c, doneNotice(c.query, DONE_MESSAGES)));
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/keys",
    access: "org",
    async handler(c) {
      const created = await call(
        c.caller,
        AuthActions.createKey,
        formParams(AuthActions.createKey, { org_id: c.org.id, mode: c.form.get("mode") ?? "", rate_limit_rpm: intField(c.form, "rate_limit_rpm") }),
      );
      // Rendered, not redirected: the full key exists in this response only.
      sendHtml(c.res, 201, await showKeys(c, { kind: "ok", text: "Key created." }, created));
    },
    onRefused: (c, notice) => showKeys(c, notice),
  },
  ...confirmThenAct({
    path: "/keys/:key/revoke",
    find: (c) => ownedKey(c, c.params.key),
    nothingToDo: (key) => Boolean(key.revoked_at),
    confirm: (key) => ({
      title: "Revoke API key",
      question: html`Revoke <code>${key.display}</code> (${key.mode})? Requests with it fail with 401 at once. This cannot be undone.`,
      button: "Revoke key",
    }),
    act: (c, key) => call(c.caller, AuthActions.revokeKey, { key_id: key.id }),
    done: "revoked",
  }),
  {
    method: "GET",
    path: "/orgs/:org/integrations",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showIntegrations(c, doneNotice(c.query, DONE_MESSAGES)));
    },
  },
  {
    method: "GET",
    path: "/orgs/:org/integrations/new",
    access: "org",
    async handler(c) {
      const kind = c.query.get("kind") ?? "";
      if (!isIntegrationKind(kind)) return redirect(c.res, orgUrl(c.org.id, "/integrations"));
      sendHtml(c.res, 200, newIntegrationPage({ session: c.session, org: c.org }, kind));
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/integrations",
    access: "org",
    async handler(c) {
      const kind = c.form.get("kind") ?? "";
      if (!isIntegrationKind(kind)) throw new ValidationError("kind: must be one of the listed kinds");
      await call(c.caller, IntegrationActions.createIntegration, formParams(IntegrationActions.createIntegration, { ...integrationBody(kind, c.form), org_id: c.org.id }));
      done(c, "/integrations", "created");
    },
    async onRefused(c, notice) {
      const kind = c.form.get("kind") ?? "";
      if (!isIntegrationKind(kind)) return showIntegrations(c, notice);
      // The form again with what was typed, except the secret.
      return newIntegrationPage({ session: c.session, org: c.org, notice }, kind, Object.fromEntries(c.form));
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/integrations/:integration/test",
    access: "org",
    async handler(c) {
      const integration = await ownedIntegration(c, c.params.integration);
      const result = await call(c.caller, IntegrationActions.testIntegration, { id: integration.id });
      sendHtml(c.res, 200, await showIntegrations(c, undefined, { id: integration.id, result }));
    },
    onRefused: (c, notice) => showIntegrations(c, notice),
  },
  ...confirmThenAct({
    path: "/integrations/:integration/remove",
    find: (c) => ownedIntegration(c, c.params.integration),
    confirm: (integration) => ({
      title: "Remove integration",
      question: html`Remove the ${integration.kind} integration <strong>${integration.name}</strong>? Articles can no longer be published through it; what was published stays upstream.`,
      button: "Remove integration",
    }),
    act: (c, integration) => call(c.caller, IntegrationActions.deleteIntegration, { id: integration.id }),
    done: "removed",
  }),
  {
    method: "GET",
    path: "/orgs/:org/webhooks",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showWebhooks(c, doneNotice(c.query, DONE_MESSAGES)));
    },
  },
  {
    method: "GET",
    path: "/orgs/:org/webhooks/:endpoint",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, await showDeliveries(c, doneNotice(c.query, DONE_MESSAGES)));
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/webhooks/:endpoint/active",
    access: "org",
    async handler(c) {
      const endpoint = await ownedEndpoint(c, c.params.endpoint);
      const active = c.form.get("active");
      if (active !== "true" && active !== "false") throw new ValidationError("active: must be true or false");
      await call(c.caller, WebhooksActions.setEndpointActive, { id: endpoint.id, active: active === "true" });
      const back = (c.req.headers.referer ?? "").includes(`/webhooks/${endpoint.id}`) ? `/webhooks/${endpoint.id}` : "/webhooks";
      done(c, back, active === "true" ? "reactivated" : "deactivated");
    },
  },
  {
    method: "POST",
    path: "/orgs/:org/webhooks/:endpoint/deliveries/:delivery/redeliver",
    access: "org",
    async handler(c) {
      const endpoint = await ownedEndpoint(c, c.params.endpoint);
      await assertDeliveryOf(c, endpoint.id, c.params.delivery);
      await call(c.caller, WebhooksActions.redeliver, { id: c.params.delivery });
      done(c, `/webhooks/${endpoint.id}`, "redelivering");
    },
    onRefused: (c, notice) => showDeliveries(c, notice),
  },
  {
    method: "GET",
    path: "/orgs/:org/usage",
    access: "org",
    async handler(c) {
      const days = Number(c.query.get("days") ?? 30);
      const window = (USAGE_WINDOWS as readonly number[]).includes(days) ? days : 30;
      const report = await call(c.caller, BillingActions.usage, { org_id: c.org.id, days: window });
      sendHtml(c.res, 200, usagePage({ session: c.session, org: c.org }, report));
    },
  },
  {
    method: "GET",
    path: "/orgs/:org/jobs",
    access: "org",
    async handler(c) {
      sendHtml(c.res, 200, jobsPage({ session: c.session, org: c.org }, await jobRows(c)));
    },
  },
  {
    /**
     * The jobs page follows a running job here: the job's live event stream (the same hub and stream as
     * `GET /v1/jobs/{id}/events`, docs/job-events.md), counted per session instead of per API key.
     */
    method: "GET",
    path: "/orgs/:org/jobs/:job/events",
    access: "org",
    async handler(c) {
      const header = c.req.headers["last-event-id"];
      const lastEventId = typeof header === "string" && /^\d{1,9}$/.test(header) ? Number(header) : undefined;
      await c.jobStreams.serve(c.res, { orgId: c.org.id, keyId: `dashboard:${c.session.id}`, jobId: c.params.job, lastEventId });
    },
  },
  {
    /** The job and, once it produced one, its article: read once when a followed job ends (and by a browser without EventSource). */
    method: "GET",
    path: "/orgs/:org/jobs/:job/live",
    access: "org",
    async handler(c) {
      const job = await call(c.caller, PipelineActions.get, { org_id: c.org.id, id: c.params.job });
      let article: { id: string; title: string; url: string } | null = null;
      const articleId = typeof job.result?.article_id === "string" ? job.result.article_id : null;
      if (!isRunning(job) && articleId) {
        const a = await nullIfNotFound(call(c.caller, ArticlesActions.get, { org_id: c.org.id, id: articleId, format: "markdown" }));
        if (a) article = { id: a.id, title: a.title, url: orgUrl(c.org.id, `/articles/${a.id}`) };
      }
      sendJson(c.res, 200, { job, article });
    },
  },
  // The review desk: articles (list, read, review, edit, publish, write) and brand knowledge.
  ...ARTICLE_ROUTES,
  ...BRAND_ROUTES,
];

