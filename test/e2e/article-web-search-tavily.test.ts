import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { ROUTE_PLANNING_PAGES } from "../support/fake-searxng";
import { startFakeTavily, type FakeTavily } from "../support/fake-tavily";
import { client } from "../support/http";
import { waitForJob } from "../support/jobs";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";

/**
 * The platform as started with SEARCH_PROVIDER=tavily, against a local Tavily API and its site: no model
 * (the extractive writer), no brand profile, so every citation comes from a page the search returned and
 * research read through the URL guard.
 */
describe("article pipeline: web research through Tavily", () => {
  let platform: PlatformProcess;
  let tavily: FakeTavily;

  beforeAll(async () => {
    tavily = await startFakeTavily();
    platform = await spawnPlatform({
      env: {
        ADMIN_TOKEN,
        DATA_DIR: tempDir("e2e-article-tavily"),
        EMBEDDED_MONGO_IN_MEMORY: "true",
        JOB_POLL_MS: "200",
        LOG_LEVEL: "debug",
        SEARCH_PROVIDER: "tavily",
        TAVILY_API_KEY: tavily.apiKey,
        TAVILY_BASE_URL: tavily.url,
      },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await tavily?.close();
  });

  it("writes an article whose citations are pages Tavily returned, and never logs the key", async () => {
    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 100 });
    const api = client(platform.url, key);
    // One search is refused (plan limit): research counts it and goes on with the others.
    tavily.failNext(1, 432);
    const created = await api("/v1/articles", { method: "POST", body: { topic: "Route planning for field service teams", target_keyword: "route planning", target_words: 800 } });
    expect(created.status).toBe(202);
    const job = await waitForJob(platform.url, key, created.body.id);
    expect(job.error).toBeNull();
    expect(job.status).toBe("succeeded");

    const searches = tavily.requests.filter((r) => r.path === "/search");
    expect(searches.length).toBeGreaterThan(1);
    for (const s of searches) {
      expect(s).toMatchObject({ method: "POST", authorization: `Bearer ${tavily.apiKey}` });
      expect(s.body).toMatchObject({ query: expect.any(String), search_depth: "basic", include_raw_content: false });
    }
    // Research asks for 5 results a query (standard depth); a re-research in edit may ask deeper.
    expect(searches[0].body!.max_results).toBe(5);
    const research = job.stages.find((s: { key: string }) => s.key === "research").meta;
    expect(research).toMatchObject({ search: "tavily", web_search: true, search_errors: 1, queries_per_section: 1 });
    expect(research.web_passages).toBeGreaterThan(3);
    expect(research.pages_failed).toBeGreaterThan(0);
    expect(research.sources_read).toBe(research.pages_fetched);

    const article = (await api(`/v1/articles/${job.result.article_id}`)).body;
    expect(article.citations.length).toBeGreaterThan(3);
    for (const citation of article.citations) {
      const page = ROUTE_PLANNING_PAGES.find((p) => citation.url === `${tavily.siteUrl}${p.path}`);
      expect(page).toBeDefined();
      expect(tavily.pageRequests).toContain(page!.path);
    }
    expect(platform.output()).not.toContain(tavily.apiKey);
  });
});
