import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { createOrgWithKey } from "../support/admin";
import { launchBrowser, watchedPage, type WatchedPage } from "../support/browser";
import { ADMIN_TOKEN } from "../support/cluster";
import { COMPOST_GUIDE } from "../support/compost-guide";
import { client } from "../support/http";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";
import { startRealWordPress, type RealWordPress } from "../support/wordpress";

/**
 * The review desk (docs/dashboard.md#the-review-desk) in Debian's chromium: a person of an organization
 * builds brand knowledge, writes an article, reads it, moves it through review, edits it, publishes it to
 * a real WordPress and follows the link; another organization sees none of it; script-bearing titles,
 * topics and source texts render inert; no page logs a CSP violation or a script error.
 */

/** A value that runs script if it is ever inserted as markup: sets `window.__pwned`. */
const XSS = (where: string) => `${where} <script>window.__pwned="${where}"</script><img src=x onerror="window.__pwned='${where}'">`;
/** Screenshots to look at (not committed): DESK_SCREENSHOTS, else a temporary folder. */
const SHOTS = process.env.DESK_SCREENSHOTS ?? path.join(os.tmpdir(), "review-desk-screenshots");

const SMALL_SITE = `<html><head><title>Greenleaf bins</title></head><body><main><h1>Greenleaf compost bins</h1>
<p>Greenleaf sells closed home composting bins made from recycled plastic. Every Greenleaf home composting bin holds 300 litres and has a hatch at the bottom for finished compost.</p>
<p>We deliver home composting bins within three days. Our customers compost kitchen scraps, grass cuttings and autumn leaves in them.</p></main></body></html>`;
const SAMPLE = `We love helping you compost at home! Our bins are simple, sturdy and kind to your garden. You will find that composting is easy once you start: mix your greens and browns, keep the heap damp, and turn it now and then. We are always happy to answer your questions.`;

describe("the review desk in a browser", () => {
  let platform: PlatformProcess;
  let wp: RealWordPress;
  let browser: Browser;
  let site: http.Server;
  let siteUrl: string;
  const watched: WatchedPage[] = [];
  let adminApi: ReturnType<typeof client>;
  let org: { orgId: string; key: string };
  let other: { orgId: string; key: string };
  let integrationId: string;
  let releaseHome!: () => void;
  const homeReleased = new Promise<void>((r) => (releaseHome = r));

  beforeAll(async () => {
    // The home page answers only once the test lets it: the website source stays in ingestion until then.
    site = http.createServer((req, res) => {
      if (req.url !== "/" && req.url !== "/bins") return void res.writeHead(404).end();
      void (req.url === "/" ? homeReleased : Promise.resolve()).then(() => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(SMALL_SITE);
      });
    });
    await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    [wp, platform] = await Promise.all([
      startRealWordPress(),
      spawnPlatform({
        env: {
          ADMIN_TOKEN,
          DATA_DIR: tempDir("e2e-review-desk"),
          EMBEDDED_MONGO_IN_MEMORY: "true",
          INTEGRATIONS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
          JOB_POLL_MS: "200",
          CRAWL_PAGE_TIMEOUT_MS: "30000",
        },
      }),
    ]);
    adminApi = client(platform.url, ADMIN_TOKEN);
    org = await createOrgWithKey(platform.url, ADMIN_TOKEN, { name: "Greenleaf", credits: 500 });
    other = await createOrgWithKey(platform.url, ADMIN_TOKEN, { name: "Other Org", credits: 50 });
    const created = await adminApi(`/admin/orgs/${org.orgId}/integrations`, {
      method: "POST",
      body: { kind: "wordpress", name: "Greenleaf blog", site_url: wp.url, username: wp.username, application_password: wp.applicationPassword },
    });
    expect(created.status).toBe(201);
    integrationId = created.body.id;
    // A second connection to the same site with a password WordPress refuses: its publish fails upstream.
    const refused = await adminApi(`/admin/orgs/${org.orgId}/integrations`, {
      method: "POST",
      body: { kind: "wordpress", name: "Wrong password", site_url: wp.url, username: wp.username, application_password: "wxyz WXYZ 0000 wxyz WXYZ 0000" },
    });
    expect(refused.status).toBe(201);
    browser = await launchBrowser();
    fs.mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await wp?.stop();
    releaseHome();
    await new Promise((r) => site?.close(r));
  });

  afterEach(() => {
    // No page of any test saw a CSP violation or a script error.
    for (const w of watched) expect(w.problems).toEqual([]);
  });

  async function orgPage(orgId: string): Promise<Page> {
    const link = await adminApi(`/admin/orgs/${orgId}/dashboard-links`, { method: "POST" });
    expect(link.status).toBe(201);
    const w = await watchedPage(browser, platform.url);
    watched.push(w);
    await w.page.goto(link.body.url.replace(/^https?:\/\/[^/]+/, platform.url));
    await Promise.all([w.page.waitForURL(`**/dashboard/orgs/${orgId}`), w.page.click("button[type=submit]")]);
    return w.page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });

  /** Nothing typed ran: no script set the marker, and no image from a typed `<img>` exists. */
  const expectInert = async (page: Page) => {
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await page.locator("img[src=x]").count()).toBe(0);
  };

  /** Waits until every source shows as ingested, without reloading: the page follows their jobs. */
  const untilSourcesReady = (page: Page, count: number) =>
    waitFor(
      async () => {
        const states = await page.locator("#sources .source-status .badge").allTextContents();
        if (states.includes("failed")) throw new Error(`a source failed: ${await page.locator(".source-error").allTextContents()}`);
        return states.length === count && states.every((s) => s === "ready") ? states : undefined;
      },
      "every source ingested",
      90000,
      200,
    );

  let profileId: string;
  let articleId: string;

  it("builds a brand profile's knowledge: a source of each type, their ingest status, the voice and facts learned", async () => {
    const page = await orgPage(org.orgId);
    await page.click("nav.tabs a:has-text('Brand knowledge')");
    await page.fill("#new-profile input[name=name]", "Greenleaf Compost");
    await page.fill("#new-profile textarea[name=description]", XSS("description"));
    await Promise.all([page.waitForURL(/\/brand-profiles\/[0-9a-f-]{36}\?done=created$/), page.click("#new-profile button")]);
    profileId = /brand-profiles\/([0-9a-f-]{36})/.exec(page.url())![1];

    // A refused source keeps what was typed and shows the API's message.
    await page.fill(".source-form[data-type=url] input[name=url]", "ftp://example.com/x");
    await page.click(".source-form[data-type=url] button");
    await expect(page.locator(".notice-error").textContent()).resolves.toContain("url:");
    expect(await page.inputValue(".source-form[data-type=url] input[name=url]")).toBe("ftp://example.com/x");

    const add = async (type: string, fields: Record<string, string>) => {
      for (const [name, value] of Object.entries(fields)) await page.fill(`.source-form[data-type=${type}] [name=${name}]`, value);
      await Promise.all([page.waitForURL(/\?done=source-added$/), page.click(`.source-form[data-type=${type}] button`)]);
    };
    await add("text", { title: XSS("source"), content: `${COMPOST_GUIDE}\n${XSS("text")}` });
    await add("writing_sample", { title: "Newsletter", content: SAMPLE });
    await add("url", { url: `${siteUrl}/bins` });
    await add("website", { url: siteUrl });
    expect(await page.locator("#sources tbody tr").count()).toBe(4);
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    // At least the website is still being ingested (its home page waits); sources queued behind it may be too.
    const website = page.locator(`#sources tr[data-follow]:has(.endpoint-url:text-is("${siteUrl}/"))`);
    expect(await website.count()).toBe(1);
    expect(await website.locator(".source-status .badge").textContent()).toMatch(/^(pending|processing)$/);
    releaseHome();
    await untilSourcesReady(page, 4);
    // Followed live: the page was not reloaded, and the voice learned from the sources shows.
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await page.locator("#voice .badge:has-text('ready')").waitFor();
    expect(await page.locator("#voice dl.facts dd").count()).toBeGreaterThan(5);
    expect(await page.locator(".source-title").allTextContents()).toContain(XSS("source"));
    await expectInert(page);
    await shot(page, "brand-profile");
    await page.click("nav.tabs a:has-text('Brand knowledge')");
    const listed = page.locator(`tr[data-profile-id="${profileId}"]`);
    expect(await listed.locator("a.profile-link").textContent()).toBe("Greenleaf Compost");
    expect(await listed.locator("td.num").first().textContent()).toBe("4");
    expect(await listed.locator(".badge").textContent()).toBe("ready");
    await shot(page, "brand-profiles");
  }, 240_000);

  it("writes an article: the price before sending, one job for a double click, its stages live, then the article", async () => {
    const page = await orgPage(org.orgId);
    await page.goto(`/dashboard/orgs/${org.orgId}/articles`);
    await page.click("#new-article");
    // The price is the billing quote's: shown for the defaults, asked again as the choices change.
    await expect(page.locator("#price-credits").textContent()).resolves.toBe("10 credits (standard 10)");
    await page.check("input[name=image]");
    await page.locator("#price-credits:has-text('13 credits')").waitFor();
    for (const kind of ["x_thread", "linkedin", "newsletter"]) await page.check(`input[name=derivatives][value=${kind}]`);
    await page.locator("#price-credits:has-text('16 credits')").waitFor();
    await page.fill("input[name=language]", "de");
    await page.locator("#price-credits:has-text('21 credits')").waitFor();
    await page.fill("input[name=language]", "en");
    await page.locator("#price-credits:has-text('16 credits')").waitFor();
    expect(await page.locator("#price-credits").textContent()).toBe("16 credits (standard 10, image 3, derivatives 3)");

    await page.fill("input[name=topic]", "Home composting for beginners");
    await page.fill("input[name=target_keyword]", "home composting");
    await page.selectOption("select[name=brand_profile_id]", profileId);
    await page.fill("input[name=target_words]", "600");
    await page.fill("input[name=tone]", "friendly, practical");
    await page.fill("input[name=audience]", "first-time gardeners");
    await shot(page, "new-article");
    const sent = new URLSearchParams(
      await page.locator("#new-article-form").evaluate((f: HTMLFormElement) => [...new FormData(f).entries()].map(([k, v]) => [k, String(v)])),
    ).toString();
    await Promise.all([page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/), page.dblclick("#write-article")]);
    const jobId = /jobs\/([0-9a-f-]{36})/.exec(page.url())![1];

    const row = page.locator(`tr.job[data-job-id="${jobId}"]`);
    await page.locator(`tr.job[data-job-id="${jobId}"]:is([data-status=succeeded], [data-status=failed], [data-status=canceled])`).waitFor({ timeout: 180000 });
    await shot(page, "job-followed");
    if ((await row.getAttribute("data-status")) !== "succeeded") throw new Error(`the job did not succeed: ${JSON.stringify((await client(platform.url, org.key)(`/v1/jobs/${jobId}`)).body)}`);
    expect(await row.locator(".job-status .badge").textContent()).toBe("succeeded");
    expect(await row.locator(".stage").count()).toBe(await row.locator(".stage-done").count());
    const api = client(platform.url, org.key);
    // One job was charged: the balance went down by the price once.
    expect((await api("/v1/usage?days=1")).body.credit_balance).toBe(500 - 16);
    // The same form sent again (its idempotency key) replays the job: no second job, no second charge.
    const again = await page.request.post(`/dashboard/orgs/${org.orgId}/articles`, {
      data: sent,
      headers: { origin: platform.url, "content-type": "application/x-www-form-urlencoded" },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);
    expect(again.headers().location).toBe(`/dashboard/orgs/${org.orgId}/jobs/${jobId}?replayed=1`);
    expect((await api("/v1/usage?days=1")).body.credit_balance).toBe(500 - 16);

    await row.locator("a.article-link").click();
    articleId = /articles\/([0-9a-f-]{36})/.exec(page.url())![1];
    expect((await api(`/v1/jobs/${jobId}`)).body.result.article_id).toBe(articleId);
  }, 240_000);

  it("shows the article as readers will see it, with its quality in words and each citation's quoted passage", async () => {
    const page = await orgPage(org.orgId);
    const api = client(platform.url, org.key);
    const a = (await api(`/v1/articles/${articleId}`)).body;
    await page.goto(`/dashboard/orgs/${org.orgId}/articles`);
    const listed = page.locator(`tr[data-article-id="${articleId}"]`);
    expect(await listed.locator("a.article-link").textContent()).toBe(a.title);
    expect(await listed.locator(".badge").textContent()).toBe("draft");
    await shot(page, "articles-list");
    await listed.locator("a.article-link").click();

    expect(await page.locator("h2.article-title").textContent()).toBe(a.title);
    // The cover, from this origin.
    const cover = page.locator("figure.cover img");
    expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // Citations are numbered footnotes linking to their sources; every reference points at a footnote.
    const refs = await page.locator("#article-body sup.fn a").evaluateAll((as) => as.map((x) => x.getAttribute("href")));
    expect(refs.length).toBeGreaterThan(3);
    const notes = await page.locator("#footnotes li.footnote").count();
    expect(notes).toBeGreaterThan(0);
    for (const href of new Set(refs)) expect(await page.locator(`#footnotes li${href}`).count()).toBe(1);
    const sourceUrls = await page.locator("#footnotes li.footnote > a").evaluateAll((as) => as.map((x) => (x as HTMLAnchorElement).href));
    // A pasted source without an address is cited by its id (urn:uuid:…) and listed by title, with no link.
    expect(new Set(a.citations.map((c: { url: string }) => c.url).filter((u: string) => /^https?:/.test(u)))).toEqual(new Set(sourceUrls));
    // Each citation's quoted passage, under its source.
    expect(await page.locator("#footnotes blockquote.quote").count()).toBe(a.citations.length);
    expect(await page.locator("#footnotes li.footnote:has(> a) blockquote.quote").first().textContent()).toBe(a.citations.find((c: { url: string }) => c.url === sourceUrls[0]).quote);
    // The FAQ is part of the text; the search preview, title variants and derivatives beside and below it.
    if (a.faq.length) expect(await page.locator("#article-body h3").allTextContents()).toEqual(expect.arrayContaining(a.faq.map((f: { question: string }) => f.question)));
    expect(await page.locator("#serp .serp-title").textContent()).toBe(a.meta_title);
    expect(await page.locator("#serp .serp-description").textContent()).toBe(a.meta_description);
    expect(await page.locator("#title-variants li").allTextContents()).toEqual(a.title_variants);
    expect(await page.locator("#derivatives h3").allTextContents()).toEqual(["X thread", "LinkedIn", "Newsletter"]);
    // The quality score in words: eleven parts, counted in sentences and words.
    expect(await page.locator("#quality li").count()).toBe(11);
    expect(await page.locator("#quality li[data-part=topical_relevance] .quality-text").textContent()).toMatch(/^\d+ of \d+ sentences judged off topic/);
    expect(await page.locator("#quality li[data-part=length_vs_target] .quality-text").textContent()).toMatch(/^[\d,]+ words? (short of 600 asked|for 600 asked)/);
    const uncited = await page.locator("#quality li[data-part=citation_coverage] .quality-text").textContent();
    expect(uncited).toMatch(/^\d+ of \d+ sentences cite no source/);
    expect(await page.locator("#article-body .flag-uncited").count()).toBe(Number(/^(\d+)/.exec(uncited!)![1]));
    await shot(page, "article-read");
    await page.locator("article.reader").screenshot({ path: path.join(SHOTS, "article-reader-column.png") });
  }, 240_000);

  it("moves the article through review with the lifecycle's buttons, and shows the API's message for a refused move", async () => {
    const page = await orgPage(org.orgId);
    const api = client(platform.url, org.key);
    await page.goto(`/dashboard/orgs/${org.orgId}/articles/${articleId}`);
    expect(await page.locator("#review-moves button").allTextContents()).toEqual(["Submit for review"]);
    await Promise.all([page.waitForURL(/\?done=moved-in_review$/), page.click("button[data-move=in_review]")]);
    expect(await page.locator("#article-status").textContent()).toBe("in review");
    expect(await page.locator("#review-moves button").allTextContents()).toEqual(["Back to draft", "Approve"]);

    // Meanwhile someone moves it back to draft through the API: approving from this page is refused with the API's message.
    expect((await api(`/v1/articles/${articleId}`, { method: "PATCH", body: { status: "draft" } })).status).toBe(200);
    await page.click("button[data-move=approved]");
    await expect(page.locator(".notice-error").textContent()).resolves.toBe("status: an article cannot move from draft to approved (from draft it can move to in_review)");
    expect(await page.locator("#article-status").textContent()).toBe("draft");
    await shot(page, "article-refused-move");

    await Promise.all([page.waitForURL(/\?done=moved-in_review$/), page.click("button[data-move=in_review]")]);
    await Promise.all([page.waitForURL(/\?done=moved-approved$/), page.click("button[data-move=approved]")]);
    expect(await page.locator("#article-status").textContent()).toBe("approved");
    expect((await api(`/v1/articles/${articleId}`)).body.status).toBe("approved");
  }, 240_000);

  it("edits title, meta and body with a preview; a refused save keeps everything typed; saving recomputes as the API does", async () => {
    const page = await orgPage(org.orgId);
    const api = client(platform.url, org.key);
    await page.goto(`/dashboard/orgs/${org.orgId}/articles/${articleId}`);
    await page.click("#edit-article");
    const body = await page.inputValue("textarea[name=content_markdown]");
    expect(body).toBe((await api(`/v1/articles/${articleId}?format=markdown`)).body.content_markdown);
    const added = "A compost thermometer shows when the heap is working: the middle of an active heap reaches 50 degrees.";
    // A table with aligned cells and an image of another host: shown without inline style or a foreign request (no CSP violation).
    const extras = "| Bin | Litres |\n|:---|---:|\n| Closed | 300 |\n\n![A closed bin](https://cdn.example.invalid/bin.png)";
    const edited = body.replace(/\n## /, `\n${added}\n\n${extras}\n\n## `);
    await page.fill("textarea[name=content_markdown]", edited);
    await page.fill("input[name=meta_title]", "Home composting, simply");
    await page.click("#preview-article");
    await expect(page.locator("#preview .article-body").textContent()).resolves.toContain(added);
    expect(await page.inputValue("textarea[name=content_markdown]")).toBe(edited);
    await shot(page, "article-edit-preview");

    // An empty title is refused by the API's rule; nothing typed is lost.
    await page.fill("input[name=title]", "   ");
    await page.click("#save-article");
    await expect(page.locator(".notice-error").textContent()).resolves.toBe("title: must not be empty");
    expect(await page.inputValue("textarea[name=content_markdown]")).toBe(edited);
    expect(await page.inputValue("input[name=meta_title]")).toBe("Home composting, simply");

    const title = XSS("title");
    await page.fill("input[name=title]", title);
    await Promise.all([page.waitForURL(/\?done=saved$/), page.click("#save-article")]);
    const a = (await api(`/v1/articles/${articleId}`)).body;
    expect(a).toMatchObject({ title, meta_title: "Home composting, simply", content_markdown: edited, status: "approved" });
    // What a PATCH recomputes: the HTML and the measures; the page shows the stored ones.
    expect(a.content_html).toContain(added);
    expect(await page.locator("h2.article-title").textContent()).toBe(title);
    expect(await page.locator(".facts-line").textContent()).toContain(`${a.word_count.toLocaleString("en-US")} words`);
    expect(await page.locator("#article-body td.align-right").textContent()).toBe("300");
    // The cover (a figure the articles service adds) and the body's own image both show as links.
    expect(await page.locator('#article-body a.image-link[href="https://cdn.example.invalid/bin.png"]').count()).toBe(1);
    await expectInert(page);
  }, 240_000);

  it("publishes to the organization's WordPress, as draft and live, shows the upstream's refusal, and the link opens the post", async () => {
    const page = await orgPage(org.orgId);
    await page.goto(`/dashboard/orgs/${org.orgId}/articles/${articleId}`);
    expect(await page.locator("#publications").count()).toBe(0);

    // The connection WordPress refuses: the upstream's reason, nothing changed.
    await page.selectOption("#publish-form select[name=integration_id]", { label: "Wrong password (wordpress)" });
    await page.click("#publish-form button");
    await expect(page.locator(".notice-error").textContent()).resolves.toMatch(/^Publishing to WordPress failed: upstream status 401: /);
    expect(await page.locator("#publications").count()).toBe(0);
    expect(await page.locator("#article-status").textContent()).toBe("approved");

    await page.selectOption("#publish-form select[name=integration_id]", integrationId);
    await page.check("#publish-form input[name=as_draft][value=true]");
    await page.click("#publish-form button");
    await expect(page.locator("#publish-result").textContent()).resolves.toContain("as a draft");
    expect(await page.locator("#article-status").textContent()).toBe("approved");

    // The form keeps the integration it was sent with.
    expect(await page.inputValue("#publish-form select[name=integration_id]")).toBe(integrationId);
    await page.check("#publish-form input[name=as_draft][value=false]");
    await page.click("#publish-form button");
    await expect(page.locator("#publish-result").textContent()).resolves.toContain("as a live post");
    expect(await page.locator("#article-status").textContent()).toBe("published");
    expect(await page.locator("#publications tbody tr").count()).toBe(1);
    const href = (await page.locator("#external-link").getAttribute("href"))!;
    expect(href.startsWith(`${wp.url}/`)).toBe(true);
    await expectInert(page);
    await shot(page, "article-published");

    // The link opens the live post on WordPress (outside the dashboard: its own page, not watched for the dashboard's policy).
    const reader = await browser.newPage();
    try {
      expect((await reader.goto(href))!.status()).toBe(200);
    } finally {
      await reader.close();
    }
    // Debian's WordPress files come without a theme, so the page itself is blank: WordPress's REST API says what it serves there.
    const publication = (await client(platform.url, org.key)(`/v1/articles/${articleId}`)).body.publications[0];
    expect(publication).toMatchObject({ integration_id: integrationId, kind: "wordpress", status: "published", external_url: href });
    const post = await wp.get(`/wp-json/wp/v2/posts/${publication.external_id}?context=edit`);
    expect(post.body).toMatchObject({ status: "publish", link: href });
    expect(post.body.content.raw).toContain("compost thermometer");

    // The list's status filter.
    await page.goto(`/dashboard/orgs/${org.orgId}/articles?status=published`);
    expect(await page.locator(`tr[data-article-id="${articleId}"]`).count()).toBe(1);
    await page.goto(`/dashboard/orgs/${org.orgId}/articles?status=draft`);
    expect(await page.locator(`tr[data-article-id="${articleId}"]`).count()).toBe(0);
  }, 240_000);

  it("shows a failed job's reason and refund, with its script-bearing topic inert", async () => {
    const page = await orgPage(org.orgId);
    const api = client(platform.url, org.key);
    const before = (await api("/v1/usage?days=1")).body.credit_balance;
    await page.goto(`/dashboard/orgs/${org.orgId}/articles/new`);
    await page.fill("input[name=topic]", XSS("topic"));
    await page.selectOption("select[name=brand_profile_id]", profileId);
    await Promise.all([page.waitForURL(/\/jobs\/[0-9a-f-]{36}$/), page.click("#write-article")]);
    const row = page.locator("tr.job");
    await row.locator(".job-status .badge:has-text('failed')").waitFor({ timeout: 120000 });
    expect(await row.locator(".job-error").textContent()).toMatch(/failed/);
    expect((await row.locator(".refund").textContent())!.trim()).toBe("10 credits refunded.");
    await expectInert(page);
    await shot(page, "job-failed");
    await waitFor(async () => ((await api("/v1/usage?days=1")).body.credit_balance === before ? true : undefined), "the refund", 10000, 200);

    // A refused form shows again with everything typed and the API's message.
    await page.goto(`/dashboard/orgs/${org.orgId}/articles/new`);
    await page.fill("input[name=topic]", "abc");
    await page.fill("input[name=tone]", "calm");
    await page.click("#write-article");
    await expect(page.locator(".notice-error").textContent()).resolves.toBe("topic: must be at least 4 characters");
    expect(await page.inputValue("input[name=topic]")).toBe("abc");
    expect(await page.inputValue("input[name=tone]")).toBe("calm");
  }, 240_000);

  it("shows another organization's session none of it: every page and form is a 404", async () => {
    const page = await orgPage(other.orgId);
    for (const p of [
      `/dashboard/orgs/${org.orgId}/articles`,
      `/dashboard/orgs/${org.orgId}/articles/${articleId}`,
      `/dashboard/orgs/${org.orgId}/articles/${articleId}/edit`,
      `/dashboard/orgs/${org.orgId}/brand-profiles/${profileId}`,
      `/dashboard/orgs/${other.orgId}/articles/${articleId}`,
      `/dashboard/orgs/${other.orgId}/articles/${articleId}/edit`,
      `/dashboard/orgs/${other.orgId}/brand-profiles/${profileId}`,
    ]) {
      expect((await page.goto(p))!.status()).toBe(404);
    }
    await page.goto(`/dashboard/orgs/${other.orgId}/articles`);
    expect(await page.locator("tr[data-article-id]").count()).toBe(0);
    const csrf = await page.locator("form[action$='/sign-out'] input[name=_csrf]").inputValue();
    // Forged forms naming the other organization's article, profile or integration change nothing.
    const post = (p: string, form: Record<string, string>) => page.request.post(p, { form: { _csrf: csrf, ...form }, headers: { origin: platform.url }, maxRedirects: 0 });
    expect((await post(`/dashboard/orgs/${other.orgId}/articles/${articleId}/status`, { status: "draft" })).status()).toBe(404);
    expect((await post(`/dashboard/orgs/${other.orgId}/articles/${articleId}/edit`, { intent: "save", title: "x", meta_title: "", meta_description: "", content_markdown: "x" })).status()).toBe(404);
    expect((await post(`/dashboard/orgs/${other.orgId}/articles/${articleId}/publish`, { integration_id: integrationId, as_draft: "true" })).status()).toBe(404);
    expect((await post(`/dashboard/orgs/${other.orgId}/brand-profiles/${profileId}/sources`, { type: "text", content: "x" })).status()).toBe(404);
    expect((await post(`/dashboard/orgs/${org.orgId}/articles/${articleId}/status`, { status: "draft" })).status()).toBe(404);
    expect((await client(platform.url, org.key)(`/v1/articles/${articleId}`)).body.status).toBe("published");
  }, 240_000);
});
