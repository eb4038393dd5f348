import { inspect } from "node:util";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { gatherEvidence, RESEARCH_DEPTH, researchQueries } from "../../services/pipeline/article/evidence/research";
import { BraveSearchProvider } from "../../services/pipeline/article/evidence/search/brave";
import { braveSearchLang } from "../../services/pipeline/article/evidence/search/brave-language";
import { fetchReadableDocument } from "../../services/pipeline/article/evidence/web-search";
import { PRIVATE_RESULT_URL, ROUTE_PLANNING_PAGES } from "../support/fake-searxng";
import { BROKEN_PATHS } from "../support/search-site";
import { startFakeBrave, type FakeBrave } from "../support/fake-brave";

const input = { topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard" as const, language: "en-GB", target_words: 1000, image: false, derivatives: [] };

describe("Brave Search", () => {
  let brave: FakeBrave;
  let provider: BraveSearchProvider;
  beforeAll(async () => {
    brave = await startFakeBrave();
    provider = new BraveSearchProvider({ apiKey: brave.apiKey, baseUrl: brave.url });
  });
  afterAll(() => brave.close());

  it("GETs /res/v1/web/search with the subscription token, count and search_lang, and maps web.results", async () => {
    const results = await provider.search("arrival windows customers", { language: "en-GB", limit: 3 });
    expect(brave.requests.at(-1)).toEqual({
      path: "/res/v1/web/search",
      params: { q: "arrival windows customers", count: "3", search_lang: "en-gb", safesearch: "moderate", result_filter: "web" },
      token: brave.apiKey,
      accept: "application/json",
    });
    expect(results).toHaveLength(3);
    const page = ROUTE_PLANNING_PAGES.find((p) => results[0].url === `${brave.siteUrl}${p.path}`)!;
    // Brave's <strong> marks are taken out of titles and snippets.
    expect(results[0]).toEqual({ url: `${brave.siteUrl}${page.path}`, title: page.title, snippet: page.sections[0].paragraphs[0].slice(0, 160) });
    expect(results.slice(1).map((r) => r.url)).toEqual([`${brave.siteUrl}${BROKEN_PATHS.serverError}`, `${brave.siteUrl}${BROKEN_PATHS.pdf}`]);
  });

  it("passes the article's language as Brave's search_lang code, or none when Brave has no code for it", async () => {
    expect([braveSearchLang("de-AT"), braveSearchLang("fr"), braveSearchLang("es-MX"), braveSearchLang("en-US"), braveSearchLang("en-GB")]).toEqual(["de", "fr", "es", "en", "en-gb"]);
    expect([braveSearchLang("ja"), braveSearchLang("zh-TW"), braveSearchLang("zh"), braveSearchLang("pt-BR"), braveSearchLang("no"), braveSearchLang("xx")]).toEqual(["jp", "zh-hant", "zh-hans", "pt-br", "nb", undefined]);
    await provider.search("Tourenplanung Techniker", { language: "de-AT", limit: 5 });
    expect(brave.requests.at(-1)!.params.search_lang).toBe("de");
    await provider.search("route planning", { language: "xx", limit: 5 });
    expect(brave.requests.at(-1)!.params).not.toHaveProperty("search_lang");
  });

  it("keeps a query within Brave's 50 words and 400 characters", async () => {
    const long = Array.from({ length: 80 }, (_, i) => `routeplanning${i}`).join(" ");
    await provider.search(long, { language: "en", limit: 5 });
    const q = brave.requests.at(-1)!.params.q;
    expect(q.split(" ").length).toBeLessThanOrEqual(50);
    expect(q.length).toBeLessThanOrEqual(400);
    expect(long.startsWith(q)).toBe(true);
    // Short words reach the word cap before the character cap: exactly 50 are sent.
    const many = Array.from({ length: 80 }, (_, i) => `w${i}`).join(" ");
    await provider.search(many, { language: "en", limit: 5 });
    expect(brave.requests.at(-1)!.params.q.split(" ")).toHaveLength(50);
  });

  it("keeps http(s) results only, each once, at most the limit (count capped at Brave's 20)", async () => {
    const site = brave.siteUrl;
    brave.nextResults([
      { title: "<strong>A</strong> &amp; B", url: `${site}/a`, description: "first <strong>hit</strong>" },
      { title: "A again", url: `${site}/a`, description: "dup" },
      { title: "Mail", url: "mailto:someone@example.com", description: "" },
      { title: "Data", url: "data:text/html,<p>x</p>", description: "" },
      { title: "No address", description: "" },
      { title: "C", url: `${site}/c`, description: "c" },
      { title: "D", url: `${site}/d`, description: "d" },
    ]);
    const results = await provider.search("anything", { language: "en", limit: 40 });
    expect(brave.requests.at(-1)!.params.count).toBe("20");
    expect(results).toEqual([
      { url: `${site}/a`, title: "A & B", snippet: "first hit" },
      { url: `${site}/c`, title: "C", snippet: "c" },
      { url: `${site}/d`, title: "D", snippet: "d" },
    ]);
    brave.nextResults([1, 2, 3].map((i) => ({ title: `R${i}`, url: `${site}/r${i}`, description: "" })));
    expect((await provider.search("anything", { language: "en", limit: 2 })).map((r) => r.title)).toEqual(["R1", "R2"]);
  });

  it.each([
    [401, "web search (Brave) answered 401: unauthorized (missing or invalid BRAVE_SEARCH_API_KEY)"],
    [403, "web search (Brave) answered 403: forbidden (the subscription does not cover web search) [OPTION_NOT_IN_PLAN]"],
    [422, "web search (Brave) answered 422: request refused (invalid subscription token or parameters) [SUBSCRIPTION_TOKEN_INVALID]"],
    [429, "web search (Brave) answered 429: rate limited [RATE_LIMITED]; X-RateLimit-Remaining: 0, "],
  ])("reads Brave's %i as a readable, key-free error", async (status, message) => {
    brave.failNext(1, status);
    const error = (await provider.search("route planning", { language: "en", limit: 5 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(message);
    expect(error.message).not.toContain(brave.apiKey);
    if (status === 429) expect(error.message).toMatch(/X-RateLimit-Reset: 1, 1419704 s$/);
  });

  it("is refused with a wrong token (422), and the error does not carry it", async () => {
    const wrong = new BraveSearchProvider({ apiKey: "BSA-wrong-token-xyz", baseUrl: brave.url });
    const error = (await wrong.search("route planning", { language: "en", limit: 5 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe("web search (Brave) answered 422: request refused (invalid subscription token or parameters) [SUBSCRIPTION_TOKEN_INVALID]");
    expect(brave.requests.at(-1)!.token).toBe("BSA-wrong-token-xyz");
  });

  it("keeps its key out of what a log would print", () => {
    expect(JSON.stringify(provider)).not.toContain(brave.apiKey);
    expect(inspect(provider, { depth: 5, showHidden: true })).not.toContain(brave.apiKey);
  });

  it("has its result pages fetched through the URL guard by research", async () => {
    const brief = decideBriefByRules(input, null);
    const queries = researchQueries(planOutlineByRules(brief, 1000, []), brief, RESEARCH_DEPTH.standard);
    const run = (allowLoopback: boolean) =>
      gatherEvidence({ sourceAddress: () => "", search: provider, fetchDocument: (url) => fetchReadableDocument(url, { allowLoopback }), now: () => new Date() }, brief, queries, RESEARCH_DEPTH.standard);
    const { evidence, report } = await run(true);
    expect(report).toMatchObject({ web_search: true, search_errors: 0, pages_failed: 3 });
    expect(evidence.length).toBeGreaterThan(5);
    expect(report.sources.every((u) => u.startsWith(`${brave.siteUrl}/guides/`) && !u.includes("outage"))).toBe(true);
    expect(report.sources).not.toContain(PRIVATE_RESULT_URL);

    const seen = brave.pageRequests.length;
    const guarded = await run(false);
    expect(guarded.report.pages_fetched).toBe(0);
    expect(brave.pageRequests.length).toBe(seen);
  });
});
