import { html, type Html } from "../html";
import type { Session } from "../session";
import { csrfField, noticeBox, orgUrl, page, when, type Notice, type OrgRef } from "./layout";

/** Sign-in, sign-in links, the operator's organization list and an organization's overview. */

export function signInPage(notice?: Notice): Html {
  return page(
    { title: "Sign in", session: null },
    html`<section class="card narrow">
  <h1>Sign in</h1>
  ${noticeBox(notice)}
  <form method="post" action="/dashboard/sign-in" class="stack">
    <label>Admin token<input type="password" name="admin_token" autocomplete="current-password" required></label>
    <button type="submit">Sign in as operator</button>
  </form>
  <p class="muted">People of an organization sign in with the one-time link their operator gives them.</p>
</section>`,
  );
}

/** A link's landing page: one button, so that a link preview fetching the URL does not use the link up. */
export function linkLandingPage(token: string, notice?: Notice): Html {
  return page(
    { title: "Open the dashboard", session: null },
    html`<section class="card narrow">
  <h1>Open your organization's dashboard</h1>
  ${noticeBox(notice)}
  ${token
    ? html`<form method="post" action="/dashboard/link" class="stack">
        <input type="hidden" name="token" value="${token}">
        <button type="submit">Continue</button>
      </form>
      <p class="muted">This link works once and for a few minutes.</p>`
    : html`<p>Ask your operator for a new sign-in link.</p>`}
</section>`,
  );
}

export interface OrgRow extends OrgRef {
  credit_balance: number;
  created_at: string;
}

export function orgListPage(session: Session, orgs: OrgRow[], q: string, more: { next?: string }, notice?: Notice): Html {
  return page(
    { title: "Organizations", session, notice },
    html`<section class="card">
  <div class="row spread">
    <h1>Organizations</h1>
    <form method="get" action="/dashboard/orgs" class="inline search" role="search">
      <input type="search" name="q" value="${q}" placeholder="Search by name" aria-label="Search organizations by name">
      <button type="submit">Search</button>
    </form>
  </div>
  ${orgs.length
    ? html`<table>
    <thead><tr><th>Name</th><th>Id</th><th class="num">Credits</th><th>Created</th></tr></thead>
    <tbody>${orgs.map(
      (o) => html`<tr><td><a href="${orgUrl(o.id)}" class="org-link">${o.name}</a></td><td><code>${o.id}</code></td><td class="num">${o.credit_balance}</td><td>${when(o.created_at)}</td></tr>`,
    )}</tbody>
  </table>`
    : html`<p class="empty">${q ? html`No organization's name contains “${q}”.` : html`No organizations yet.`}</p>`}
  ${more.next ? html`<p><a href="/dashboard/orgs?${new URLSearchParams({ ...(q ? { q } : {}), starting_after: more.next }).toString()}">Older organizations →</a></p>` : html``}
</section>
<section class="card">
  <h2>Create an organization</h2>
  <form method="post" action="/dashboard/orgs" class="grid-form">
    ${csrfField(session)}
    <label>Name<input name="name" required maxlength="200"></label>
    <label>Initial credits<input name="credits" type="number" min="0" step="1" value="0"></label>
    <button type="submit">Create</button>
  </form>
</section>`,
  );
}

export interface Overview {
  org: OrgRef & { created_at: string };
  credit_balance: number;
  keys: number;
  integrations: number;
  endpoints: number;
}

export function overviewPage(session: Session, o: Overview, extra: { notice?: Notice; link?: { url: string; expires_at: string } } = {}): Html {
  return page(
    { title: o.org.name, session, org: o.org, section: "overview", notice: extra.notice },
    html`<section class="stats">
  <div class="stat"><span class="stat-value" id="balance">${o.credit_balance}</span><span class="stat-label">credits</span></div>
  <div class="stat"><span class="stat-value">${o.keys}</span><span class="stat-label">active API keys</span></div>
  <div class="stat"><span class="stat-value">${o.integrations}</span><span class="stat-label">integrations</span></div>
  <div class="stat"><span class="stat-value">${o.endpoints}</span><span class="stat-label">webhook endpoints</span></div>
</section>
<section class="card">
  <h2>Organization</h2>
  <dl class="facts"><dt>Id</dt><dd><code>${o.org.id}</code></dd><dt>Created</dt><dd>${when(o.org.created_at)}</dd></dl>
</section>
${session.role === "operator"
  ? html`<section class="card">
  <h2>Grant credits</h2>
  <form method="post" action="${orgUrl(o.org.id, "/credits")}" class="grid-form">
    ${csrfField(session)}
    <label>Amount<input name="amount" type="number" min="1" step="1" required></label>
    <label>Reason<input name="reason" required maxlength="200" placeholder="top-up"></label>
    <button type="submit">Grant</button>
  </form>
</section>
<section class="card">
  <h2>Sign-in link</h2>
  <p class="muted">A one-time link that opens this organization's dashboard (and only this organization's). It expires after a few minutes.</p>
  ${extra.link
    ? html`<div class="secret"><code id="sign-in-link">${extra.link.url}</code><button type="button" class="copy" data-copy="sign-in-link">Copy</button></div>
           <p class="muted">Expires ${when(extra.link.expires_at)}. Shown once.</p>`
    : html``}
  <form method="post" action="${orgUrl(o.org.id, "/sign-in-links")}">
    ${csrfField(session)}
    <button type="submit">Issue a sign-in link</button>
  </form>
</section>`
  : html``}`,
  );
}

export function notFoundPage(session: Session | null): Html {
  return page(
    { title: "Not found", session },
    html`<section class="card narrow"><h1>Not found</h1><p>There is nothing here, or it belongs to another organization.</p><p><a href="/dashboard">Back to the dashboard</a></p></section>`,
  );
}

export function errorPage(session: Session | null, status: number, message: string): Html {
  return page(
    { title: `Error ${status}`, session },
    html`<section class="card narrow"><h1>Something went wrong</h1><p class="notice notice-error" role="alert">${message}</p><p><a href="/dashboard">Back to the dashboard</a></p></section>`,
  );
}
