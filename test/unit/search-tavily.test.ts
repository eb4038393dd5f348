import http from "node:http";
import { inspect } from "node:util";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { gatherEvidence, RESEARCH_DEPTH, researchQueries } from "../../services/pipeline/article/evidence/research";
import { TavilyProvider } from "../../services/pipeline/article/evidence/search/tavily";
import { fetchReadableDocument } from "../../services/pipeline/article/evidence/web-search";
import { PRIVATE_RESULT_URL, ROUTE_PLANNING_PAGES } from "../support/fake-searxng";
import { BROKEN_PATHS, listen } from "../support/search-site";
import { startFakeTavily, type FakeTavily } from "../support/fake-tavily";

const input = { topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard" as const, language: "en-GB", target_words: 1000, image: false, derivatives: [] };

describe("Tavily", () => {
  let tavily: FakeTavily;
  let provider: TavilyProvider;
  beforeAll(async () => {
    tavily = await startFakeTavily();
    provider = new TavilyProvider({ apiKey: tavily.apiKey, baseUrl: tavily.url });
  });
  afterAll(() => tavily.close());

  it("POSTs /search with the bearer key and Tavily's body, and maps its results", async () => {
    const results = await provider.search("arrival windows customers", { language: "de-AT", limit: 3 });
    const sent = tavily.requests.at(-1)!;
    expect(sent).toMatchObject({ method: "POST", path: "/search", authorization: `Bearer ${tavily.apiKey}`, contentType: "application/json" });
    // No language parameter: Tavily has none; the query carries the language.
    expect(sent.body).toEqual({ query: "arrival windows customers", max_results: 3, search_depth: "basic", topic: "general", include_answer: false, include_raw_content: false, include_images: false });
    expect(results).toHaveLength(3);
    const page = ROUTE_PLANNING_PAGES.find((p) => results[0].url === `${tavily.siteUrl}${p.path}`)!;
    expect(results[0]).toEqual({ url: `${tavily.siteUrl}${page.path}`, title: page.title, snippet: page.sections[0].paragraphs[0].slice(0, 160) });
    expect(results.slice(1).map((r) => r.url)).toEqual([`${tavily.siteUrl}${BROKEN_PATHS.serverError}`, `${tavily.siteUrl}${BROKEN_PATHS.pdf}`]);
  });

  it("keeps http(s) results only, each once, at most the limit (max_results capped at Tavily's 20)", async () => {
    const site = tavily.siteUrl;
    tavily.nextResults([
      { title: "A", url: `${site}/a`, content: "first", score: 0.9 },
      { title: "A again", url: `${site}/a`, content: "dup", score: 0.8 },
      { title: "A, a fragment", url: `${site}/a#part`, content: "dup", score: 0.8 },
      { title: "FTP", url: "ftp://files.example/a", content: "", score: 0.7 },
      { title: "Script", url: "javascript:alert(1)", content: "", score: 0.7 },
      { title: "Relative", url: "/relative", content: "", score: 0.7 },
      { title: "No address", content: "", score: 0.6 },
      { title: 42, url: `${site}/b`, content: null, score: 0.5 },
      { title: "C", url: `${site}/c`, content: "c", score: 0.4 },
      { title: "D", url: `${site}/d`, content: "d", score: 0.3 },
    ]);
    const results = await provider.search("anything", { language: "en", limit: 25 });
    expect(tavily.requests.at(-1)!.body!.max_results).toBe(20);
    expect(results).toEqual([
      { url: `${site}/a`, title: "A", snippet: "first" },
      { url: `${site}/b`, title: `${site}/b`, snippet: "" },
      { url: `${site}/c`, title: "C", snippet: "c" },
      { url: `${site}/d`, title: "D", snippet: "d" },
    ]);
    tavily.nextResults([1, 2, 3].map((i) => ({ title: `R${i}`, url: `${site}/r${i}`, content: "", score: 1 })));
    expect((await provider.search("anything", { language: "en", limit: 2 })).map((r) => r.title)).toEqual(["R1", "R2"]);
    expect(await provider.search("anything", { language: "en", limit: 0 })).toEqual([]);
  });

  it.each([
    [400, "web search (Tavily) answered 400: bad request"],
    [401, "web search (Tavily) answered 401: unauthorized (missing or invalid TAVILY_API_KEY)"],
    [429, "web search (Tavily) answered 429: rate limited"],
    [432, "web search (Tavily) answered 432: plan limit exceeded"],
    [433, "web search (Tavily) answered 433: pay-as-you-go limit exceeded"],
    [500, "web search (Tavily) answered 500: Tavily server error"],
  ])("reads Tavily's %i as a readable, key-free error", async (status, message) => {
    tavily.failNext(1, status);
    const error = (await provider.search("route planning", { language: "en", limit: 5 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(message);
    expect(error.message).not.toContain(tavily.apiKey);
  });

  it("is refused with a wrong key, and the error does not carry the key", async () => {
    const wrong = new TavilyProvider({ apiKey: "tvly-wrong-key-123", baseUrl: tavily.url });
    await expect(wrong.search("route planning", { language: "en", limit: 5 })).rejects.toThrow("web search (Tavily) answered 401");
    expect(tavily.requests.at(-1)!.authorization).toBe("Bearer tvly-wrong-key-123");
    await expect(wrong.search("route planning", { language: "en", limit: 5 })).rejects.not.toThrow("tvly-wrong-key-123");
  });

  it("keeps its key out of what a log would print", () => {
    expect(JSON.stringify(provider)).not.toContain(tavily.apiKey);
    expect(inspect(provider, { depth: 5, showHidden: true })).not.toContain(tavily.apiKey);
  });

  it("gives up after its timeout on an endpoint that does not answer", async () => {
    const silent = http.createServer(() => undefined);
    const url = await listen(silent);
    try {
      const slow = new TavilyProvider({ apiKey: "tvly-x", baseUrl: url, timeoutMs: 200 });
      const started = Date.now();
      await expect(slow.search("route planning", { language: "en", limit: 5 })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it("has its result pages fetched through the URL guard by research, like SearxNG's", async () => {
    const brief = decideBriefByRules(input, null);
    const queries = researchQueries(planOutlineByRules(brief, 1000, []), brief, RESEARCH_DEPTH.standard);
    const run = (allowLoopback: boolean) =>
      gatherEvidence({ sourceAddress: () => "", search: provider, fetchDocument: (url) => fetchReadableDocument(url, { allowLoopback }), now: () => new Date() }, brief, queries, RESEARCH_DEPTH.standard);

    const before = tavily.pageRequests.length;
    const { evidence, report } = await run(true);
    expect(report).toMatchObject({ web_search: true, search_errors: 0, pages_failed: 3 });
    expect(evidence.length).toBeGreaterThan(5);
    expect(report.sources.every((u) => u.startsWith(`${tavily.siteUrl}/guides/`) && !u.includes("outage"))).toBe(true);
    expect(report.sources).not.toContain(PRIVATE_RESULT_URL);
    expect(tavily.pageRequests.length).toBeGreaterThan(before);

    // Where the guard refuses loopback, not one page of the (loopback) site is read.
    const refused = tavily.pageRequests.length;
    const guarded = await run(false);
    expect(guarded.evidence).toEqual([]);
    expect(guarded.report.pages_fetched).toBe(0);
    expect(tavily.pageRequests.length).toBe(refused);
  });

  it("counts a failed search and goes on", async () => {
    const brief = decideBriefByRules(input, null);
    const queries = researchQueries(planOutlineByRules(brief, 1000, []), brief, RESEARCH_DEPTH.standard);
    tavily.failNext(1, 432);
    const { report } = await gatherEvidence(
      { sourceAddress: () => "", search: provider, fetchDocument: (url) => fetchReadableDocument(url, { allowLoopback: true }), now: () => new Date() },
      brief,
      queries,
      RESEARCH_DEPTH.standard,
    );
    expect(report.search_errors).toBe(1);
    expect(report.web_passages).toBeGreaterThan(0);
  });
});
