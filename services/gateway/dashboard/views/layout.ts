import { html, type Html } from "../html";
import type { Session } from "../session";

export interface Notice {
  kind: "ok" | "error";
  text: string;
}

export interface OrgRef {
  id: string;
  name: string;
}

export type Section = "overview" | "articles" | "brand" | "keys" | "integrations" | "webhooks" | "usage" | "jobs";

const SECTIONS: [Section, string, string][] = [
  ["overview", "Overview", ""],
  ["articles", "Articles", "/articles"],
  ["brand", "Brand knowledge", "/brand-profiles"],
  ["keys", "API keys", "/keys"],
  ["integrations", "Integrations", "/integrations"],
  ["webhooks", "Webhooks", "/webhooks"],
  ["usage", "Usage", "/usage"],
  ["jobs", "Jobs", "/jobs"],
];

export const badge = (text: string, tone: string): Html => html`<span class="badge badge-${tone}">${text}</span>`;

export const orgUrl = (orgId: string, rest = ""): string => `/dashboard/orgs/${orgId}${rest}`;

/** A hidden field with the session's CSRF token: every state-changing form carries it. */
export const csrfField = (session: Session): Html => html`<input type="hidden" name="_csrf" value="${session.csrf_token}">`;

export function noticeBox(notice: Notice | undefined): Html {
  if (!notice) return html``;
  return html`<p class="notice notice-${notice.kind}" role="${notice.kind === "error" ? "alert" : "status"}">${notice.text}</p>`;
}

/** A UTC date and time, to the minute; the exact value in the title. */
export function when(iso: string | null | undefined): Html {
  if (!iso) return html`<span class="muted">—</span>`;
  return html`<time datetime="${iso}" title="${iso}">${iso.slice(0, 16).replace("T", " ")} UTC</time>`;
}

export interface PageOptions {
  title: string;
  session: Session | null;
  org?: OrgRef;
  section?: Section;
  notice?: Notice;
  /** Extra scripts of this page (served from /dashboard/assets). */
  scripts?: string[];
  styles?: string[];
}

export function page(opts: PageOptions, body: Html): Html {
  const { session, org } = opts;
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${opts.title} · Article platform dashboard</title>
${(opts.styles ?? []).map((s) => html`<link rel="stylesheet" href="/dashboard/assets/${s}">`)}
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
</head>
<body>
<header class="topbar">
  <a class="brand" href="/dashboard">Article platform <span>dashboard</span></a>
  ${session
    ? html`<nav class="who">
        ${session.role === "operator" ? html`<a href="/dashboard/orgs">Organizations</a><span class="role">operator</span>` : html`<span class="role">organization</span>`}
        <form method="post" action="/dashboard/sign-out" class="inline">${csrfField(session)}<button type="submit" class="link">Sign out</button></form>
      </nav>`
    : html``}
</header>
${org
  ? html`<div class="orgbar">
      <h1 class="org-name">${org.name}</h1>
      <nav class="tabs">${SECTIONS.map(
        ([key, label, rest]) => html`<a href="${orgUrl(org.id, rest)}"${key === opts.section ? html` class="active" aria-current="page"` : html``}>${label}</a>`,
      )}</nav>
    </div>`
  : html``}
<main>
${noticeBox(opts.notice)}
${body}
</main>
${(opts.scripts ?? []).map((s) => html`<script src="/dashboard/assets/${s}"></script>`)}
<script src="/dashboard/assets/dashboard.js"></script>
</body>
</html>
`;
}
