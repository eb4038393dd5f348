import type { IncomingMessage } from "node:http";
import { escapeHtml, html } from "../../services/gateway/dashboard/html";
import { assertCsrfToken, assertOrgAccess, assertSameOrigin, sessionCookie, type Session } from "../../services/gateway/dashboard/session";
import { INTEGRATION_FORMS, integrationBody } from "../../services/gateway/dashboard/views/integration-forms";
import { newIntegrationPage } from "../../services/gateway/dashboard/views/org-sections";
import { ContentfulSettings, CreateIntegrationBody, GhostSettings, INTEGRATION_SECRETS, SanitySettings, StrapiSettings, WordPressSettings } from "../../shared/schemas/publishing";
import { chartData, deliveriesPage } from "../../services/gateway/dashboard/views/org-sections";

/** The dashboard's escaping, its request checks, and what its pages show (the browser tests drive the rest). */

const session: Session = { id: "s".repeat(43), role: "org", org_id: "11111111-1111-4111-8111-111111111111", csrf_token: "c".repeat(43), expires_at: "2026-03-01T18:00:00.000Z" };

describe("the html template", () => {
  it("escapes every interpolated value, in text and in attributes", () => {
    const evil = `"'><script>alert(1)</script>&amp;\``;
    expect(html`<a title="${evil}">${evil}</a>`.text).toBe(
      `<a title="&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;&#96;">&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;&#96;</a>`,
    );
    expect(escapeHtml("plain")).toBe("plain");
  });

  it("keeps markup it built itself, joins lists and drops absent values", () => {
    const items = ["<b>", "x"].map((v) => html`<li>${v}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).toBe("<ul><li>&lt;b&gt;</li><li>x</li></ul>0");
  });
});

describe("request checks", () => {
  const req = (headers: Record<string, string>) => ({ headers: { host: "dash.example:3000", ...headers } }) as unknown as IncomingMessage;

  it("accepts a form from this origin only", () => {
    expect(() => assertSameOrigin(req({ origin: "http://dash.example:3000" }))).not.toThrow();
    expect(() => assertSameOrigin(req({ referer: "http://dash.example:3000/dashboard/orgs" }))).not.toThrow();
    for (const headers of <Record<string, string>[]>[{ origin: "https://evil.example" }, { origin: "null" }, {}, { referer: "https://evil.example/dash.example:3000" }, { origin: "not a url" }]) {
      expect(() => assertSameOrigin(req(headers))).toThrow(/did not come from the dashboard/);
    }
  });

  it("compares the CSRF token with the session's", () => {
    expect(() => assertCsrfToken(session, "c".repeat(43))).not.toThrow();
    for (const wrong of [null, "", "c".repeat(42), "d".repeat(43)]) expect(() => assertCsrfToken(session, wrong)).toThrow();
  });

  it("lets an organization session reach its own organization only (404 otherwise)", () => {
    expect(() => assertOrgAccess(session, session.org_id!)).not.toThrow();
    expect(() => assertOrgAccess(session, "22222222-2222-4222-8222-222222222222")).toThrow(expect.objectContaining({ type: "not_found" }));
    expect(() => assertOrgAccess({ ...session, role: "operator", org_id: null }, "22222222-2222-4222-8222-222222222222")).not.toThrow();
  });

  it("sets an HttpOnly, SameSite=Strict cookie on the dashboard's path, Secure in production", () => {
    const expires = new Date(Date.now() + 3600_000).toISOString();
    expect(sessionCookie("a".repeat(43), expires, false)).toMatch(/^dashboard_session=a{43}; Path=\/dashboard; Max-Age=(3599|3600); HttpOnly; SameSite=Strict$/);
    expect(sessionCookie("a".repeat(43), expires, true)).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
  });
});

describe("pages", () => {
  const org = { id: session.org_id!, name: "Acme" };

  it("show each delivery attempt's time, status or error, and the next retry", () => {
    const endpoint = { id: "33333333-3333-4333-8333-333333333333", object: "webhook_endpoint" as const, url: "https://hooks.example/x", events: ["job.succeeded"], active: true, created_at: "2026-03-01T09:00:00.000Z", surface: "articles" };
    const delivery = {
      id: "44444444-4444-4444-8444-444444444444",
      object: "webhook_delivery" as const,
      endpoint_id: endpoint.id,
      event_id: "55555555-5555-4555-8555-555555555555",
      event: "job.succeeded",
      webhook_id: "msg_1",
      status: "failed" as const,
      dead_reason: null,
      attempts: [
        { attempt: 1, series: 0, attempted_at: "2026-03-01T09:01:00.000Z", status_code: 503, error: "HTTP 503: not a 2xx answer", duration_ms: 12 },
        { attempt: 2, series: 0, attempted_at: "2026-03-01T09:01:30.000Z", status_code: null, error: "timeout after 10000 ms", duration_ms: 10000 },
      ],
      next_attempt_at: "2026-03-01T09:06:30.000Z",
      created_at: "2026-03-01T09:01:00.000Z",
      updated_at: "2026-03-01T09:01:40.000Z",
    };
    const page = deliveriesPage({ session, org }, endpoint, [delivery], {}).text;
    expect(page).toContain('<time datetime="2026-03-01T09:01:00.000Z" title="2026-03-01T09:01:00.000Z">2026-03-01 09:01 UTC</time>');
    expect(page).toContain('<td class="attempt-status">503</td><td class="attempt-error">HTTP 503: not a 2xx answer</td>');
    expect(page).toContain('<td class="attempt-error">timeout after 10000 ms</td>');
    expect(page).toMatch(/Next attempt <time datetime="2026-03-01T09:06:30.000Z"/);
    // Only a dead delivery offers a redelivery.
    expect(page).not.toContain("Redeliver");
    expect(deliveriesPage({ session, org }, endpoint, [{ ...delivery, status: "dead", next_attempt_at: null }], {}).text).toContain("Redeliver");
  });

  it("give the chart one series per measure, aligned with the days", () => {
    const daily = [
      { day: "2026-02-28", credits: 0, requests: 3, tokens_in: 10, tokens_out: 5 },
      { day: "2026-03-01", credits: 12, requests: 7, tokens_in: 0, tokens_out: 1 },
    ];
    expect(chartData({ object: "usage", days: 2, credit_balance: 88, daily } as never)).toEqual({
      days: ["2026-02-28", "2026-03-01"],
      credits: [0, 12],
      requests: [3, 7],
      tokens: [15, 1],
    });
  });

  it("turn an integration form into the API's body, leaving empty fields to the contract's defaults", () => {
    const form = new URLSearchParams({ name: "CMS", site_url: "https://cms.example", collection: "posts", strapi_version: "4", body_format: "", api_token: "tok-12345678", _csrf: "x" });
    expect(integrationBody("strapi", form)).toEqual({ kind: "strapi", name: "CMS", site_url: "https://cms.example", collection: "posts", strapi_version: 4, api_token: "tok-12345678" });
  });

  it("offer each integration kind's own fields, its secret as a password, and produce bodies the contract accepts", () => {
    const shapes = { wordpress: WordPressSettings, ghost: GhostSettings, contentful: ContentfulSettings, sanity: SanitySettings, strapi: StrapiSettings };
    const samples: Record<string, string> = {
      site_url: "https://cms.example",
      username: "editor",
      application_password: "abcd efgh ijkl",
      admin_api_key: `${"a".repeat(24)}:${"b".repeat(64)}`,
      space_id: "space1",
      content_type_id: "blogPost",
      management_token: "CFPAT-12345678",
      project_id: "proj1",
      dataset: "production",
      api_token: "token-12345678",
      collection: "articles",
    };
    for (const [kind, form] of Object.entries(INTEGRATION_FORMS) as [keyof typeof shapes, (typeof INTEGRATION_FORMS)[keyof typeof shapes]][]) {
      const known = Object.keys(shapes[kind].shape);
      for (const f of form.fields) expect([kind, known.includes(f.name)]).toEqual([kind, true]);
      expect(form.fields.filter((f) => f.secret).map((f) => f.name)).toEqual([INTEGRATION_SECRETS[kind]]);
      const page = newIntegrationPage({ session, org }, kind).text;
      expect(page).toContain(`name="${INTEGRATION_SECRETS[kind]}" type="password"`);
      const filled = new URLSearchParams({ name: `My ${kind}` });
      for (const f of form.fields) if (f.required) filled.set(f.name, samples[f.name]);
      expect(CreateIntegrationBody.safeParse(integrationBody(kind, filled)).success).toBe(true);
    }
  });
});
