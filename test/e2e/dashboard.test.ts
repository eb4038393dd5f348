import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { createOrgWithKey } from "../support/admin";
import { launchBrowser, screenshot, watchedPage, type WatchedPage } from "../support/browser";
import { ADMIN_TOKEN } from "../support/cluster";
import { startFakeWordPress, type FakeWordPress } from "../support/fake-cms/wordpress";
import { COMPOST_GUIDE } from "../support/compost-guide";
import { client, request } from "../support/http";
import { waitForJob } from "../support/jobs";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * The dashboard in a real browser (Debian's chromium through playwright-core), on the platform as
 * `npm start` runs it. Every page must load under the strict CSP without a single violation.
 */

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** A value that runs script if it is ever inserted as markup: sets `window.__pwned`. */
const XSS = (where: string) => `${where} <script>window.__pwned="${where}"</script><img src=x onerror="window.__pwned='${where}'">`;
const WP_PASSWORD = "abcd EFGH 1234 ijkl MNOP 5678";

describe("the dashboard in a browser", () => {
  let platform: PlatformProcess;
  let browser: Browser;
  let wp: FakeWordPress;
  let receiver: WebhookReceiver;
  const watched: WatchedPage[] = [];
  let adminApi: ReturnType<typeof client>;
  let org: { orgId: string; key: string; keyId: string; name: string };
  let other: { orgId: string; key: string; keyId: string };

  beforeAll(async () => {
    wp = await startFakeWordPress({ username: "editor", applicationPassword: WP_PASSWORD });
    receiver = await startWebhookReceiver({ status: 500 });
    platform = await spawnPlatform({
      env: {
        ADMIN_TOKEN,
        DATA_DIR: tempDir("e2e-dashboard"),
        EMBEDDED_MONGO_IN_MEMORY: "true",
        INTEGRATIONS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
        WEBHOOK_RETRY_DELAYS_MS: "500",
        WEBHOOK_TIMEOUT_MS: "2000",
        WEBHOOK_POLL_MS: "100",
        JOB_POLL_MS: "200",
        CRAWL_PAGE_TIMEOUT_MS: "30000",
      },
    });
    adminApi = client(platform.url, ADMIN_TOKEN);
    const name = XSS("org");
    org = { ...(await createOrgWithKey(platform.url, ADMIN_TOKEN, { name, credits: 500 })), name };
    other = await createOrgWithKey(platform.url, ADMIN_TOKEN, { name: "Other Org", credits: 50 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await Promise.all([wp?.close(), receiver?.close()]);
  });

  afterEach(() => {
    // No page of any test saw a CSP violation or a script error.
    for (const w of watched) expect(w.problems).toEqual([]);
  });

  async function newPage(): Promise<WatchedPage> {
    const w = await watchedPage(browser, platform.url);
    watched.push(w);
    return w;
  }

  async function operatorPage(): Promise<Page> {
    const { page } = await newPage();
    await page.goto("/dashboard");
    await page.fill("input[name=admin_token]", ADMIN_TOKEN);
    await Promise.all([page.waitForURL("**/dashboard/orgs"), page.click("button[type=submit]")]);
    return page;
  }

  /** Signs an organization in the way its people do: a link from the admin API, then its button. */
  async function orgPage(orgId: string): Promise<Page> {
    const link = await adminApi(`/admin/orgs/${orgId}/dashboard-links`, { method: "POST" });
    expect(link.status).toBe(201);
    const { page } = await newPage();
    await page.goto(link.body.url.replace(/^https?:\/\/[^/]+/, platform.url));
    await Promise.all([page.waitForURL(`**/dashboard/orgs/${orgId}`), page.click("button[type=submit]")]);
    return page;
  }

  const expectInert = async (page: Page) => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await page.locator("main img, .orgbar img").count()).toBe(0);
  };

  it("serves every page under a strict CSP, with no inline script and no third-party host", async () => {
    for (const path of ["/dashboard/sign-in", "/dashboard/assets/dashboard.css", "/dashboard/assets/uplot.js", `/dashboard/link?token=${"a".repeat(43)}`]) {
      const res = await request(platform.url, path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-security-policy")).toBe(CSP);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const page = await request(platform.url, "/dashboard/sign-in");
    expect(page.text).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=|https?:\/\//);
    // Not signed in: every page sends the browser to the sign-in page.
    const orgs = await fetch(`${platform.url}/dashboard/orgs/${org.orgId}/keys`, { redirect: "manual" });
    expect(orgs.status).toBe(303);
    expect(orgs.headers.get("location")).toBe("/dashboard/sign-in");
  });

  it("lets the operator sign in with the admin token, list, search and create organizations, and grant credits", async () => {
    const { page } = await newPage();
    await page.goto("/dashboard");
    await page.fill("input[name=admin_token]", "adm_not_the_right_token_at_all_000");
    await page.click("button[type=submit]");
    await expect(page.locator(".notice-error").textContent()).resolves.toContain("not the admin token");

    const op = await operatorPage();
    const names = await op.locator("a.org-link").allTextContents();
    expect(names).toEqual(expect.arrayContaining([org.name, "Other Org"]));
    // The list's cursor: from an organization, only those older than it (newest first); a cursor that is no id pages from the start.
    await op.goto(`/dashboard/orgs?starting_after=${other.orgId}`);
    expect(await op.locator("a.org-link").allTextContents()).toEqual(names.slice(names.indexOf("Other Org") + 1));
    await op.goto("/dashboard/orgs?starting_after=not-a-cursor");
    expect(await op.locator("a.org-link").allTextContents()).toEqual(names);
    await op.goto("/dashboard/orgs");
    await expectInert(op);
    await screenshot(op, "operator-organizations");

    await op.fill("input[name=q]", "other");
    await Promise.all([op.waitForURL("**/dashboard/orgs?q=other"), op.click("form.search button")]);
    expect(await op.locator("a.org-link").allTextContents()).toEqual(["Other Org"]);

    await op.fill("input[name=name]", "Created In Browser");
    await op.fill("input[name=credits]", "25");
    await Promise.all([op.waitForURL(/\/dashboard\/orgs\/[0-9a-f-]{36}\?done=organization$/), op.click("form.grid-form button")]);
    expect(await op.locator("h1.org-name").textContent()).toBe("Created In Browser");
    expect(await op.locator("#balance").textContent()).toBe("25");
    await op.fill("input[name=amount]", "75");
    await op.fill("input[name=reason]", "welcome");
    await Promise.all([op.waitForURL(/done=granted/), op.click("form[action$='/credits'] button")]);
    expect(await op.locator("#balance").textContent()).toBe("100");

    // A refused grant shows the rule's message on the same page.
    await op.fill("input[name=amount]", "0");
    await op.fill("input[name=reason]", "nothing");
    await op.locator("input[name=amount]").evaluate((el) => el.removeAttribute("min"));
    await op.click("form[action$='/credits'] button");
    await expect(op.locator(".notice-error").textContent()).resolves.toContain("amount: must be at least 1");
  });

  it("opens an organization's session from a one-time sign-in link, scoped to that organization only", async () => {
    const issued = await adminApi(`/admin/orgs/${org.orgId}/dashboard-links`, { method: "POST" });
    expect(issued.status).toBe(201);
    expect(issued.body.url).toMatch(/\/dashboard\/link\?token=[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(issued.body.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000);
    expect((await adminApi(`/admin/orgs/00000000-0000-4000-8000-000000000000/dashboard-links`, { method: "POST" })).status).toBe(404);
    expect((await request(platform.url, `/admin/orgs/${org.orgId}/dashboard-links`, { method: "POST" })).status).toBe(401);

    const { page, context } = await newPage();
    const url = issued.body.url.replace(/^https?:\/\/[^/]+/, platform.url);
    await page.goto(url);
    await Promise.all([page.waitForURL(`**/dashboard/orgs/${org.orgId}`), page.click("button[type=submit]")]);
    expect(await page.locator("h1.org-name").textContent()).toBe(org.name);
    await expectInert(page);
    await screenshot(page, "org-overview");

    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: "dashboard_session", httpOnly: true, sameSite: "Strict", secure: false, path: "/dashboard" });

    // Used once: a second browser gets nothing from the same link.
    const second = await newPage();
    await second.page.goto(url);
    const again = await Promise.all([second.page.waitForResponse((r) => r.url().endsWith("/dashboard/link")), second.page.click("button[type=submit]")]);
    expect(again[0].status()).toBe(404);
    expect(await second.context.cookies()).toEqual([]);

    // Another organization's pages, ids and the operator's pages are all not found.
    for (const path of [`/dashboard/orgs/${other.orgId}`, `/dashboard/orgs/${other.orgId}/keys`, "/dashboard/orgs", `/dashboard/orgs/${org.orgId}/keys/${other.keyId}/revoke`]) {
      const res = await page.goto(path);
      expect([path, res!.status()]).toEqual([path, 404]);
    }
    // Even a well-formed form post of its own session naming another organization's key.
    await page.goto(`/dashboard/orgs/${org.orgId}/keys`);
    const status = await page.evaluate(async ({ orgId, keyId }) => {
      const csrf = (document.querySelector("input[name=_csrf]") as HTMLInputElement).value;
      const res = await fetch(`/dashboard/orgs/${orgId}/keys/${keyId}/revoke`, { method: "POST", body: new URLSearchParams({ _csrf: csrf }) });
      return res.status;
    }, { orgId: org.orgId, keyId: other.keyId });
    expect(status).toBe(404);
    expect((await request(platform.url, "/v1/usage", { token: other.key })).status).toBe(200);
    // The operator's actions on an organization are not its own: granting itself credits or issuing a link is not found.
    const balance = async () => (await request(platform.url, "/v1/usage", { token: org.key })).body.credit_balance as number;
    const before = await balance();
    expect(before).toEqual(expect.any(Number));
    const operatorOnly = await page.evaluate(async ({ orgId }) => {
      const csrf = (document.querySelector("input[name=_csrf]") as HTMLInputElement).value;
      const post = (path: string, form: Record<string, string>) =>
        fetch(`/dashboard/orgs/${orgId}${path}`, { method: "POST", body: new URLSearchParams({ _csrf: csrf, ...form }) }).then((r) => r.status);
      return [await post("/credits", { amount: "1000", reason: "to myself" }), await post("/sign-in-links", {})];
    }, { orgId: org.orgId });
    expect(operatorOnly).toEqual([404, 404]);
    expect(await balance()).toBe(before);

    // The operator's button issues a link too; signing out ends the session.
    const op = await operatorPage();
    await op.goto(`/dashboard/orgs/${other.orgId}`);
    await op.click("form[action$='/sign-in-links'] button");
    await expect(op.locator("#sign-in-link").textContent()).resolves.toMatch(/\/dashboard\/link\?token=[A-Za-z0-9_-]{43}$/);
    await screenshot(op, "operator-sign-in-link");
    await Promise.all([page.waitForURL("**/dashboard/sign-in"), page.click("text=Sign out")]);
    expect((await page.goto(`/dashboard/orgs/${org.orgId}/keys`))!.url()).toMatch(/\/dashboard\/sign-in$/);
  });

  it("creates a key shown once with a copy button, keeps two keys valid for rotation, and revokes one after confirmation", async () => {
    const page = await orgPage(org.orgId);
    await page.click("text=API keys");
    await page.selectOption("select[name=mode]", "live");
    await page.fill("input[name=rate_limit_rpm]", "120");
    await page.click("text=Create key");
    const key = (await page.locator("#new-key").textContent())!;
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    await page.click("#new-key-panel button.copy");
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(key);
    await screenshot(page, "org-keys-created");

    // Rotation: the old key and the new one both work.
    expect((await request(platform.url, "/v1/webhooks", { token: org.key })).status).toBe(200);
    expect((await request(platform.url, "/v1/webhooks", { token: key })).status).toBe(200);

    // Shown once: the list shows the first 12 and the last 4 characters only.
    await page.goto(`/dashboard/orgs/${org.orgId}/keys`);
    expect(await page.content()).not.toContain(key);
    const display = `${key.slice(0, 12)}...${key.slice(-4)}`;
    const row = page.locator("tr", { hasText: display });
    await expect(row.locator("td").nth(2).textContent()).resolves.toBe("120/min");
    await waitFor(async () => {
      await page.reload();
      return (await page.locator("tr", { hasText: display }).locator("td").nth(4).textContent())?.includes("UTC") ? true : undefined;
    }, "last_used_at of the new key", 15000, 500);

    const oldRow = page.locator(`tr[data-key-id="${org.keyId}"]`);
    await oldRow.locator("text=Revoke…").click();
    await expect(page.locator("main").textContent()).resolves.toContain("This cannot be undone");
    await screenshot(page, "org-key-revoke-confirm");
    await Promise.all([page.waitForURL(/done=revoked/), page.click("button:has-text('Revoke key')")]);
    await expect(page.locator(`tr[data-key-id="${org.keyId}"] .key-state .badge`).textContent()).resolves.toBe("revoked");
    expect((await request(platform.url, "/v1/webhooks", { token: org.key })).status).toBe(401);
    expect((await request(platform.url, "/v1/webhooks", { token: key })).status).toBe(200);
    await screenshot(page, "org-keys");
    org.key = key;

    // Forms without the session's CSRF token, or from another origin, change nothing.
    const forged = await page.evaluate(async (orgId) => {
      const res = await fetch(`/dashboard/orgs/${orgId}/keys`, { method: "POST", body: new URLSearchParams({ mode: "test", rate_limit_rpm: "5", _csrf: "x".repeat(43) }) });
      return res.status;
    }, org.orgId);
    expect(forged).toBe(403);
    const cookie = (await page.context().cookies())[0];
    const crossSite = await request(platform.url, `/dashboard/orgs/${org.orgId}/keys`, {
      method: "POST",
      rawBody: "mode=test&rate_limit_rpm=5",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", cookie: `${cookie.name}=${cookie.value}` },
    });
    expect(crossSite.status).toBe(403);
    expect((await adminApi(`/admin/orgs/${org.orgId}/keys`)).body.data).toHaveLength(2);
  });

  it("adds a WordPress integration, tests it against the fake and shows the upstream answer, never shows the credentials, and removes it", async () => {
    const page = await orgPage(org.orgId);
    await page.goto(`/dashboard/orgs/${org.orgId}/integrations`);
    await page.click("a[href$='kind=wordpress']");
    const add = async (name: string, password: string) => {
      await page.fill("input[name=name]", name);
      await page.fill("input[name=site_url]", wp.url);
      await page.fill("input[name=username]", "editor");
      await page.fill("input[name=application_password]", password);
      await Promise.all([page.waitForURL(/integrations\?done=created/), page.click("text=Add integration")]);
    };
    const name = XSS("integration");
    await add(name, WP_PASSWORD);
    await expectInert(page);
    expect(await page.locator(".integration-name").allTextContents()).toEqual([name]);
    expect(await page.content()).not.toContain(WP_PASSWORD);
    await expect(page.locator("td code").first().textContent()).resolves.toBe("••••5678");

    await page.click("text=Test connection");
    await expect(page.locator("#test-result").textContent()).resolves.toMatch(/Connected\s+\(upstream status 200\)/);
    expect(wp.requests.some((r) => r.path === "/wp-json/wp/v2/users/me")).toBe(true);
    await screenshot(page, "org-integrations");

    await page.click("a[href$='kind=wordpress']");
    await add("Wrong password", "wrong password 1234");
    await page.locator("tr", { hasText: "Wrong password" }).locator("text=Test connection").click();
    const failed = (await page.locator("#test-result").textContent())!.replace(/\s+/g, " ");
    expect(failed).toContain("Connection failed (upstream status 401)");
    expect(failed).toContain("invalid application password");

    // The contract's own rule, shown on the form again (and the password is not kept in it).
    await page.click("a[href$='kind=wordpress']");
    await page.fill("input[name=name]", "Bad URL");
    await page.fill("input[name=site_url]", `${wp.url}/?q=1`);
    await page.fill("input[name=username]", "editor");
    await page.fill("input[name=application_password]", WP_PASSWORD);
    await page.click("text=Add integration");
    await expect(page.locator(".notice-error").textContent()).resolves.toContain("site_url: must have no query or fragment");
    expect(await page.inputValue("input[name=application_password]")).toBe("");

    await page.goto(`/dashboard/orgs/${org.orgId}/integrations`);
    await page.locator("tr", { hasText: "Wrong password" }).locator("text=Remove…").click();
    await Promise.all([page.waitForURL(/done=removed/), page.click("button:has-text('Remove integration')")]);
    expect(await page.locator(".integration-name").allTextContents()).toEqual([name]);
    expect((await adminApi(`/admin/orgs/${org.orgId}/integrations`)).body.data).toHaveLength(1);
  });

  it("deactivates and reactivates an endpoint, shows a delivery's attempts, and redelivers a dead one", async () => {
    const api = client(platform.url, org.key);
    const endpoint = await api("/v1/webhooks", { method: "POST", body: { url: `${receiver.url}/hook/it's&amp;<script>window.__pwned="url"</script>` } });
    expect(endpoint.status).toBe(201);
    // As registered: the URL parser percent-encodes < > and ", but a quote and an entity stay, to be shown as typed.
    const hookUrl: string = endpoint.body.url;
    expect(hookUrl).toContain("/hook/it's&amp;%3Cscript");
    // A job.succeeded event: an ingest job of a pasted text.
    const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Hooks" } });
    const source = await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", content: "Hooks sells kayaks. Every kayak ships within two days." } });
    await waitForJob(platform.url, org.key, source.body.ingest_job_id);
    const dead = await waitFor(
      async () => (await adminApi(`/admin/webhooks/${endpoint.body.id}/deliveries`)).body.data.find((d: any) => d.status === "dead"),
      "a dead delivery",
      20000,
      100,
    );
    expect(dead.attempts).toHaveLength(2);

    const page = await orgPage(org.orgId);
    await page.goto(`/dashboard/orgs/${org.orgId}/webhooks`);
    expect(await page.locator(".endpoint-url a").allTextContents()).toEqual([hookUrl]);
    await expectInert(page);
    await page.locator(`tr[data-endpoint-id="${endpoint.body.id}"] button:has-text('Deactivate')`).click();
    await page.waitForURL(/done=deactivated/);
    await expect(page.locator(`tr[data-endpoint-id="${endpoint.body.id}"] .badge`).textContent()).resolves.toBe("inactive");
    expect((await adminApi(`/admin/orgs/${org.orgId}/webhooks`)).body.data[0].active).toBe(false);
    await screenshot(page, "org-webhooks");
    await page.locator(`tr[data-endpoint-id="${endpoint.body.id}"] button:has-text('Reactivate')`).click();
    await page.waitForURL(/done=reactivated/);
    expect((await adminApi(`/admin/orgs/${org.orgId}/webhooks`)).body.data[0].active).toBe(true);

    await page.click("text=Deliveries");
    const delivery = page.locator(`li[data-delivery-id="${dead.id}"]`);
    await expect(delivery.locator(".badge").textContent()).resolves.toBe("dead");
    expect(await delivery.locator("tr.attempt .attempt-status").allTextContents()).toEqual(["500", "500"]);
    expect(await delivery.locator("tr.attempt time").count()).toBe(2);
    await screenshot(page, "org-deliveries");

    receiver.setDefault({ status: 204 });
    await Promise.all([page.waitForURL(/done=redelivering/), delivery.locator("button:has-text('Redeliver')").click()]);
    await waitFor(
      async () => {
        await page.reload();
        return (await page.locator(`li[data-delivery-id="${dead.id}"] .badge`).textContent()) === "delivered" ? true : undefined;
      },
      "the redelivered delivery to succeed",
      20000,
      250,
    );
    expect(await page.locator(`li[data-delivery-id="${dead.id}"] tr.attempt .attempt-status`).allTextContents()).toEqual(["500", "500", "204"]);

    // Another organization's endpoint is not found, from its page and from a forged form.
    const otherEndpoint = await client(platform.url, other.key)("/v1/webhooks", { method: "POST", body: { url: `${receiver.url}/other` } });
    expect((await page.goto(`/dashboard/orgs/${org.orgId}/webhooks/${otherEndpoint.body.id}`))!.status()).toBe(404);
  });

  it("draws the usage chart from the organization's daily credits, requests and tokens", async () => {
    const fresh = await createOrgWithKey(platform.url, ADMIN_TOKEN, { name: "Usage Org", credits: 200 });
    // Every API call of this organization is counted here: today's requests must add up to it.
    let calls = 0;
    const raw = client(platform.url, fresh.key);
    const api: typeof raw = (path, opts) => {
      calls++;
      return raw(path, opts);
    };
    const ended = (jobId: string) =>
      waitFor(async () => {
        const j = (await api(`/v1/jobs/${jobId}`)).body;
        return ["succeeded", "failed", "canceled"].includes(j.status) ? j : undefined;
      }, `job ${jobId}`, 60000, 200);
    // Spends credits: an article written offline from a pasted guide.
    const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Greenleaf" } });
    const source = await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", title: "Guide", content: COMPOST_GUIDE } });
    await ended(source.body.ingest_job_id);
    const created = await api("/v1/articles", { method: "POST", body: { topic: "Home composting for beginners", target_keyword: "home composting", brand_profile_id: profile.body.id, target_words: 600 } });
    expect(created.status).toBe(202);
    const job = await ended(created.body.id);
    expect(job.status).toBe("succeeded");
    expect(job.credits_charged).toBeGreaterThan(0);

    const page = await orgPage(fresh.orgId);
    const today = new Date();
    const days = Array.from({ length: 7 }, (_, i) => new Date(today.getTime() - (6 - i) * 86_400_000).toISOString().slice(0, 10));
    const zeros = [0, 0, 0, 0, 0, 0];
    // The request counter is flushed to usage every second: read the page until it has all of them.
    const data = await waitFor(
      async () => {
        await page.goto(`/dashboard/orgs/${fresh.orgId}/usage?days=7`);
        const d = JSON.parse((await page.locator("#usage-chart").getAttribute("data-usage"))!);
        return d.requests[6] === calls ? d : undefined;
      },
      `today's requests to reach ${calls}`,
      15000,
      300,
    );
    expect(data).toEqual({ days, credits: [...zeros, job.credits_charged], requests: [...zeros, calls], tokens: [...zeros, 0] });
    expect(await page.locator("#balance").textContent()).toBe(String(200 - job.credits_charged));
    // The same numbers as the API's usage report (the same action answers both).
    const report = (await api("/v1/usage?days=7")).body;
    expect(report.daily.map((d: any) => d.day)).toEqual(data.days);
    expect(report.daily.map((d: any) => d.credits)).toEqual(data.credits);
    expect(report.credit_balance).toBe(200 - job.credits_charged);

    // Drawn: uPlot's canvas has the chart's size and non-blank pixels, its legend names the series.
    expect(await page.locator("#usage-chart").getAttribute("data-drawn")).toBe("7");
    const painted = await page.locator("#usage-chart canvas").evaluate((c: HTMLCanvasElement) => {
      const ctx = c.getContext("2d")!;
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      let colored = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i] > 0) colored++;
      return { width: c.width, colored };
    });
    expect(painted.width).toBeGreaterThan(300);
    expect(painted.colored).toBeGreaterThan(1000);
    expect(await page.locator("#usage-chart .u-legend .u-label").allTextContents()).toEqual(["Credits", "Requests", "Tokens"]);
    await screenshot(page, "org-usage");

    for (const days of [30, 90]) {
      await page.click(`nav.segmented a:has-text('${days} days')`);
      const d = JSON.parse((await page.locator("#usage-chart").getAttribute("data-usage"))!);
      expect(d.days).toHaveLength(days);
      expect(d.credits[days - 1]).toBe(job.credits_charged);
    }

    // The jobs view links the article; its title, edited to bear script, renders inert.
    const articleId = job.result.article_id;
    const title = XSS("title");
    expect((await api(`/v1/articles/${articleId}`, { method: "PATCH", body: { title } })).status).toBe(200);
    await page.goto(`/dashboard/orgs/${fresh.orgId}/jobs`);
    const link = page.locator(`tr[data-job-id="${job.id}"] a.article-link`);
    expect(await link.textContent()).toBe(title);
    await expectInert(page);
    await screenshot(page, "org-jobs-article");
    await link.click();
    expect(await page.locator("h2.article-title").textContent()).toBe(title);
    await expectInert(page);
  });

  it("shows a running job's stages live, without reloading the page", async () => {
    // A website whose home page answers only when the test lets it: the ingest job waits in its crawl stage.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const site = http.createServer((req, res) => {
      if (req.url !== "/") return void res.writeHead(404).end();
      void released.then(() => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html><head><title>Paddles</title></head><body><main><h1>Paddles</h1><p>Paddles sells kayak paddles. Every paddle is carbon fibre and weighs under a kilogram.</p></main></body></html>");
      });
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    try {
      const api = client(platform.url, org.key);
      const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Paddles" } });
      const source = await api(`/v1/brand-profiles/${profile.body.id}/sources`, {
        method: "POST",
        body: { type: "url", url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/` },
      });
      expect(source.status).toBe(202);
      const jobId = source.body.ingest_job_id;
      await waitForJob(platform.url, org.key, jobId, { until: (j) => j.status === "processing" });

      const page = await orgPage(org.orgId);
      const requested: string[] = [];
      page.on("request", (r) => requested.push(new URL(r.url()).pathname));
      await page.goto(`/dashboard/orgs/${org.orgId}/jobs`);
      const row = page.locator(`tr[data-job-id="${jobId}"]`);
      await expect(row.locator(".job-status .badge").textContent()).resolves.toBe("processing");
      expect(await row.locator(".stage-running").count()).toBe(1);
      await screenshot(page, "org-jobs-running");
      await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));

      release();
      await row.locator(".job-status .badge:has-text('succeeded')").waitFor({ timeout: 30000 });
      expect(await row.locator(".stage").count()).toBe(await row.locator(".stage-done").count());
      expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
      expect(await row.getAttribute("data-status")).toBe("succeeded");
      // Followed on the job's event stream, not by polling: the JSON view is read once, at the end, for the article.
      expect(requested).toContain(`/dashboard/orgs/${org.orgId}/jobs/${jobId}/events`);
      expect(requested.filter((p) => p === `/dashboard/orgs/${org.orgId}/jobs/${jobId}/live`)).toHaveLength(1);
      // A job the organization does not have: the stream is a 404 like every other page.
      expect((await page.request.get(`/dashboard/orgs/${org.orgId}/jobs/${randomUUID()}/events`)).status()).toBe(404);
      await screenshot(page, "org-jobs");
    } finally {
      release();
      await new Promise((r) => site.close(r));
    }
  });

});
