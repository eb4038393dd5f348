import http from "node:http";
import type { AddressInfo } from "node:net";
import { ValidationError } from "../../shared/errors";
import { crawlSite, fetchSinglePage, type CrawlProgress, type CrawlResult } from "../../services/brand-knowledge/crawl/crawler";
import { FIXTURE_EXPECTATIONS, FIXTURE_PAGES, FIXTURE_PRIVATE_MARKER, FIXTURE_TEXT_PAGE, startFixtureSite, type FixtureSite } from "../support/fixture-site";
import { waitFor } from "../support/wait";

const policy = { allowLoopback: true };
/** Below the fixture's /slow delay, so /slow times out quickly. */
const pageTimeoutMs = 500;
const ROBOTS_AND_SITEMAPS = ["/robots.txt", "/sitemap.xml", "/sitemap-pages.xml", "/sitemap-blog.xml"];

let site: FixtureSite;
/** A fresh fixture per test, so each test's request log is its own. */
function freshSiteForEachTest() {
  beforeEach(async () => {
    site = await startFixtureSite();
  });
  afterEach(() => site.close());
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const keptPaths = (r: CrawlResult) => r.pages.map((p) => pathOf(p.finalUrl)).sort();
const pageRequests = () => site.requests.filter((r) => !ROBOTS_AND_SITEMAPS.includes(r));

describe("crawlSite on the fixture site", () => {
  let result: CrawlResult;
  const progress: CrawlProgress[] = [];

  // One crawl, many observations of it.
  beforeAll(async () => {
    site = await startFixtureSite();
    result = await crawlSite(`${site.url}/`, { policy, pageTimeoutMs, onProgress: (p) => progress.push(p) });
  });
  afterAll(() => site.close());

  it("keeps exactly the expected pages", () => {
    expect(keptPaths(result)).toEqual(FIXTURE_EXPECTATIONS.keptPaths);
    const pricing = result.pages.find((p) => pathOf(p.finalUrl) === "/pricing")!;
    expect(pricing.html).toContain("$49 per technician per month");
    expect(pricing.title).toBe("Pricing — Kestrel Grove Software");
    const guide = result.pages.find((p) => pathOf(p.finalUrl) === FIXTURE_TEXT_PAGE.path)!;
    expect(guide).toMatchObject({ contentType: "text/plain", text: FIXTURE_TEXT_PAGE.text });
    expect(guide.html).toBeUndefined();
    for (const page of FIXTURE_PAGES) {
      expect(result.pages.find((p) => pathOf(p.finalUrl) === page.path)?.title).toBe(page.title);
    }
  });

  it("skips the PDF, the PNG, the slow and the huge page with reasons", () => {
    const reasons = Object.fromEntries(result.skipped.map((s) => [pathOf(s.url), s.reason]));
    expect(reasons).toEqual(FIXTURE_EXPECTATIONS.skipped);
  });

  it("does not download the bodies of skipped binary files", async () => {
    await waitFor(
      () => (["/files/kestrel-datasheet.pdf", "/images/dispatch-board.png"].every((p) => site.abandoned.includes(p)) ? true : undefined),
      "the fixture to see both binary bodies abandoned",
    );
  });

  it("never requests what robots.txt disallows", () => {
    expect(site.requests.filter((r) => r.startsWith("/private/"))).toEqual([]);
    for (const page of result.pages) expect(page.html ?? page.text).not.toContain(FIXTURE_PRIVATE_MARKER);
  });

  it("reads robots.txt and the sitemap index with its sitemaps", () => {
    expect(site.requests.slice(0, 4)).toEqual(ROBOTS_AND_SITEMAPS);
  });

  it("follows the redirect", () => {
    const pricing = result.pages.find((p) => pathOf(p.finalUrl) === "/pricing");
    expect(pricing && pathOf(pricing.url)).toBe("/old-pricing");
    expect(site.requests.filter((r) => r === "/old-pricing" || r === "/pricing")).toEqual(["/old-pricing", "/pricing"]);
  });

  it("stays on the site", () => {
    expect(site.offsite.requests).toEqual([]);
    for (const page of result.pages) expect(new URL(page.finalUrl).origin).toBe(site.url);
  });

  it("requests no URL twice, whatever its fragment or spelling in links", () => {
    const duplicates = site.requests.filter((r, i) => site.requests.indexOf(r) !== i);
    expect(duplicates).toEqual([]);
  });

  it("reports stats and progress that match what happened", () => {
    expect(result.stats).toMatchObject({ fetched: result.pages.length, skipped: result.skipped.length, requested: site.requests.length });
    expect(result.stats.bytes).toBeGreaterThan(FIXTURE_PAGES.length * 1000);
    expect(result.stats.stopped).toBeUndefined();
    expect(progress.at(-1)).toEqual({ fetched: result.pages.length, queued: 0, skipped: result.skipped.length });
  });

  it("records depth from the start page, with sitemap entries at depth 1", () => {
    const depth = Object.fromEntries(result.pages.map((p) => [pathOf(p.finalUrl), p.depth]));
    expect(depth).toMatchObject({ "/": 0, "/products": 1, "/blog/route-batching-case-study": 1, [FIXTURE_TEXT_PAGE.path]: 2 });
    expect(new Date(result.pages[0].fetchedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe("crawl bounds", () => {
  freshSiteForEachTest();

  it("respects maxDepth", async () => {
    const result = await crawlSite(`${site.url}/`, { policy, pageTimeoutMs, maxDepth: 1 });
    expect(keptPaths(result)).toEqual(FIXTURE_EXPECTATIONS.keptPaths.filter((p) => p !== FIXTURE_TEXT_PAGE.path));
    for (const deep of ["/slow", "/huge", "/careers", "/files/kestrel-datasheet.pdf", "/images/dispatch-board.png", FIXTURE_TEXT_PAGE.path]) {
      expect(site.requests).not.toContain(deep);
    }
  });

  it("with maxDepth 0 fetches the start page only", async () => {
    const result = await crawlSite(`${site.url}/about`, { policy, maxDepth: 0 });
    expect(keptPaths(result)).toEqual(["/about"]);
    expect(site.requests).toEqual(["/robots.txt", "/about"]);
  });

  it("respects maxPages without requesting more pages than it keeps", async () => {
    const result = await crawlSite(`${site.url}/`, { policy, pageTimeoutMs, maxPages: 3 });
    expect(result.pages).toHaveLength(3);
    expect(result.stats.stopped).toBe("max_pages");
    const fetched = result.pages.flatMap((p) => [pathOf(p.url), pathOf(p.finalUrl)]);
    expect(pageRequests().every((r) => fetched.includes(r))).toBe(true);
  });

  it("stops at totalTimeMs and reports the page in flight", async () => {
    const started = Date.now();
    const result = await crawlSite(`${site.url}/slow`, { policy, totalTimeMs: 500, pageTimeoutMs: 20_000, perHostConcurrency: 1 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.stats.stopped).toBe("time_limit");
    expect(result.skipped).toEqual([expect.objectContaining({ url: `${site.url}/slow`, reason: "stopped" })]);
  });

  it("stops early when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const result = await crawlSite(`${site.url}/`, {
      policy,
      pageTimeoutMs,
      perHostConcurrency: 1,
      signal: controller.signal,
      onProgress: (p) => p.fetched >= 2 && controller.abort(),
    });
    expect(result.stats.stopped).toBe("aborted");
    expect(result.pages).toHaveLength(2);
    expect(pageRequests()).toHaveLength(2);
  });

  it("requests nothing when the signal is already aborted", async () => {
    const result = await crawlSite(`${site.url}/`, { policy, signal: AbortSignal.abort() });
    expect(result.pages).toEqual([]);
    expect(result.stats).toMatchObject({ stopped: "aborted", requested: 0 });
    expect(site.requests).toEqual([]);
  });
});

describe("fetchSinglePage", () => {
  freshSiteForEachTest();

  it("fetches one page and no sitemap", async () => {
    const result = await fetchSinglePage(`${site.url}/security#compliance`, { policy });
    expect(result.pages).toEqual([
      expect.objectContaining({ url: `${site.url}/security`, finalUrl: `${site.url}/security`, contentType: "text/html", depth: 0, title: "Security and compliance — Kestrel Grove Software" }),
    ]);
    expect(result.pages[0].html).toContain("SOC 2 Type II");
    expect(site.requests).toEqual(["/robots.txt", "/security"]);
  });

  it("applies the same filters as a crawl", async () => {
    const cases: [string, string][] = [
      ["/private/roadmap", "robots"],
      ["/files/kestrel-datasheet.pdf", "content_type"],
      ["/huge", "too_large"],
      ["/careers", "http_status"],
    ];
    for (const [path, reason] of cases) {
      const result = await fetchSinglePage(`${site.url}${path}`, { policy, maxBytesPerPage: 1024 * 1024 });
      expect({ path, pages: result.pages, skipped: result.skipped.map((s) => s.reason) }).toEqual({ path, pages: [], skipped: [reason] });
    }
    expect(site.requests).not.toContain("/private/roadmap");
  });

  it("follows a redirect within the site", async () => {
    const result = await fetchSinglePage(`${site.url}/old-pricing`, { policy });
    expect(result.pages.map((p) => pathOf(p.finalUrl))).toEqual(["/pricing"]);
  });
});

describe("crawl guard and robots.txt edge cases", () => {
  freshSiteForEachTest();

  it("refuses a start URL the guard forbids", async () => {
    await expect(crawlSite(`${site.url}/`, { policy: { allowLoopback: false } })).rejects.toBeInstanceOf(ValidationError);
    await expect(crawlSite("file:///etc/passwd", { policy })).rejects.toThrow("url: must be an http(s) URL");
    expect(site.requests).toEqual([]);
  });

  /** A one-off site: robots.txt answers `robotsStatus`, /go redirects to `redirectTo`, everything else is a page. */
  async function edgeSite(robotsStatus: number, redirectTo = "") {
    const requests: string[] = [];
    const server = http.createServer((req, res) => {
      requests.push(req.url ?? "");
      if (req.url === "/robots.txt") res.writeHead(robotsStatus, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /\n");
      else if (req.url === "/go") res.writeHead(302, { location: redirectTo }).end();
      else res.writeHead(200, { "content-type": "text/html" }).end("<title>Edge</title><a href='/go'>go</a>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close };
  }

  it("treats a 5xx robots.txt as disallowing everything", async () => {
    const edge = await edgeSite(503);
    try {
      const result = await crawlSite(`${edge.url}/`, { policy });
      expect(result.pages).toEqual([]);
      expect(result.skipped).toEqual([{ url: `${edge.url}/`, reason: "robots", detail: "robots.txt answered HTTP 503" }]);
      expect(edge.requests).toEqual(["/robots.txt"]);
    } finally {
      await edge.close();
    }
  });

  it("treats a 4xx robots.txt as allowing everything", async () => {
    const edge = await edgeSite(404, `${site.url}/about`);
    try {
      const result = await crawlSite(`${edge.url}/`, { policy });
      expect(result.pages.map((p) => pathOf(p.finalUrl))).toEqual(["/"]);
      expect(result.skipped).toEqual([expect.objectContaining({ url: `${edge.url}/go`, reason: "redirect", detail: `redirects off site to ${site.url}/about` })]);
      expect(site.requests).toEqual([]);
    } finally {
      await edge.close();
    }
  });

  it("does not follow a redirect to a metadata address", async () => {
    const edge = await edgeSite(404, "http://169.254.169.254/latest/meta-data/");
    try {
      const result = await crawlSite(`${edge.url}/`, { policy });
      expect(result.skipped).toEqual([expect.objectContaining({ url: `${edge.url}/go`, reason: "redirect" })]);
    } finally {
      await edge.close();
    }
  });
});
