import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { gatherEvidence, RESEARCH_DEPTH, researchQueries } from "../../services/pipeline/article/evidence/research";
import { fetchReadableDocument } from "../../services/pipeline/article/evidence/web-search";
import { SearxngProvider } from "../../services/pipeline/article/evidence/search/searxng";
import { EvidencePool, MAX_QUOTE_CHARS, boundedQuote } from "../../services/pipeline/article/evidence/passages";
import type { RetrievedChunk } from "../../shared/schemas/brand";
import { BROKEN_PATHS, PRIVATE_RESULT_URL, ROUTE_PLANNING_PAGES, startFakeSearxng, type FakeSearxng } from "../support/fake-searxng";

const policy = { allowLoopback: true };
const input = (mode: "standard" | "deep_research") => ({ topic: "Route planning for field service teams", target_keyword: "route planning", mode, language: "en-GB", target_words: 1000, image: false, derivatives: [] });
const pageText = (path: string) => ROUTE_PLANNING_PAGES.find((p) => p.path === path)!.sections.flatMap((s) => s.paragraphs).join(" ");

describe("SearxNG", () => {
  let searx: FakeSearxng;
  beforeAll(async () => {
    searx = await startFakeSearxng();
  });
  afterAll(() => searx.close());

  it("queries the JSON API in the article's language and maps its results", async () => {
    const provider = new SearxngProvider({ baseUrl: searx.url });
    const results = await provider.search("arrival windows customers", { language: "de-AT", limit: 3 });
    expect(searx.searches.at(-1)).toEqual({ q: "arrival windows customers", format: "json", language: "de" });
    expect(results).toHaveLength(3);
    const page = ROUTE_PLANNING_PAGES.find((p) => results[0].url === `${searx.siteUrl}${p.path}`)!;
    expect(results[0]).toEqual({ url: `${searx.siteUrl}${page.path}`, title: page.title, snippet: page.sections[0].paragraphs[0].slice(0, 160) });
    expect(results.slice(1).map((r) => r.url)).toEqual([`${searx.siteUrl}${BROKEN_PATHS.serverError}`, `${searx.siteUrl}${BROKEN_PATHS.pdf}`]);
  });

  it("reports an error status as a failed search", async () => {
    searx.failNext(1, 429);
    await expect(new SearxngProvider({ baseUrl: searx.url }).search("route planning", { language: "en", limit: 5 })).rejects.toThrow("web search (SearxNG) answered 429");
  });

  it("gathers web evidence through the URL guard, skipping pages that fail, are not text, or are refused", async () => {
    const brief = decideBriefByRules(input("standard"), null);
    const outline = planOutlineByRules(brief, 1000, []);
    const queries = researchQueries(outline, brief, RESEARCH_DEPTH.standard);
    const progress: Record<string, unknown>[] = [];
    const { evidence, report } = await gatherEvidence(
      { sourceAddress: () => "", search: new SearxngProvider({ baseUrl: searx.url }), fetchDocument: (url) => fetchReadableDocument(url, policy), now: () => new Date("2025-03-01T10:00:00Z"), progress: (m) => void progress.push(m) },
      brief,
      queries,
      RESEARCH_DEPTH.standard,
    );
    expect(report.pages_failed).toBe(3);
    expect(searx.pageRequests).toEqual(expect.arrayContaining([BROKEN_PATHS.serverError, BROKEN_PATHS.pdf]));
    expect(report.sources.some((u) => u === PRIVATE_RESULT_URL || u.includes("outage") || u.endsWith(".pdf"))).toBe(false);
    expect(report.web_passages).toBe(evidence.length);
    expect(evidence.length).toBeGreaterThan(5);
    evidence.forEach((e, i) => {
      expect(e).toMatchObject({ id: `e${i + 1}`, origin: "web", fetched_at: "2025-03-01T10:00:00.000Z" });
      expect(e.quote.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS);
      // The quote is the page's text, verbatim (paragraph breaks aside).
      expect(pageText(new URL(e.url).pathname)).toContain(e.quote.replace(/\n/g, " "));
    });
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it("researches deeper in deep_research mode: more queries per section, more sources", async () => {
    const run = async (mode: "standard" | "deep_research") => {
      const brief = decideBriefByRules(input(mode), null);
      const outline = planOutlineByRules(brief, 1000, [{ heading: "Arrival windows", weight: 1 }, { heading: "Emergency calls", weight: 1 }]);
      const depth = RESEARCH_DEPTH[mode];
      return gatherEvidence({ sourceAddress: () => "", search: new SearxngProvider({ baseUrl: searx.url }), fetchDocument: (url) => fetchReadableDocument(url, policy), now: () => new Date() }, brief, researchQueries(outline, brief, depth), depth);
    };
    const standard = await run("standard");
    const deep = await run("deep_research");
    expect(deep.report.queries.length).toBeGreaterThan(standard.report.queries.length);
    expect(deep.report.sources.length).toBeGreaterThan(standard.report.sources.length);
    expect(deep.evidence.length).toBeGreaterThan(standard.evidence.length);
    // The report says how deep it went and how many sources it read.
    expect(standard.report.queries_per_section).toBe(1);
    expect(deep.report.queries_per_section).toBe(3);
    expect(deep.report.sources_read).toBe(deep.report.pages_fetched);
    expect(deep.report.sources_read).toBeGreaterThan(standard.report.sources_read);
  });

  it("counts the distinct pages read and knowledge-base sources used as sources_read", async () => {
    const brief = decideBriefByRules(input("deep_research"), null);
    const outline = planOutlineByRules(brief, 1000, [{ heading: "Arrival windows", weight: 1 }]);
    const depth = RESEARCH_DEPTH.deep_research;
    const text = (path: string) => ROUTE_PLANNING_PAGES.find((p) => p.path === path)!.sections[0].paragraphs;
    // Three chunks from two sources: one crawled page, one pasted text (cited by the platform's address of it).
    const chunks: RetrievedChunk[] = [
      { chunk_id: "c1", source_id: "s1", url: "https://brand.example/routes", title: "Routes", heading_path: [], ordinal: 0, text: text("/guides/route-planning-basics")[0], context: "", score: 1 },
      { chunk_id: "c2", source_id: "s1", url: "https://brand.example/routes", title: "Routes", heading_path: [], ordinal: 1, text: text("/guides/route-planning-basics")[1], context: "", score: 0.9 },
      { chunk_id: "c3", source_id: "s2", url: null, title: "Pasted", heading_path: [], ordinal: 0, text: text("/guides/maintenance-contracts")[0], context: "", score: 0.8 },
    ];
    const { evidence, report } = await gatherEvidence(
      {
        retrieve: async () => chunks,
        sourceAddress: (id) => `https://api.example/v1/brand-profiles/p1/sources/${id}`,
        search: new SearxngProvider({ baseUrl: searx.url }),
        fetchDocument: (url) => fetchReadableDocument(url, policy),
        now: () => new Date(),
      },
      brief,
      researchQueries(outline, brief, depth),
      depth,
    );
    const brandUrls = new Set(evidence.filter((e) => e.origin === "brand").map((e) => e.url));
    expect(brandUrls).toEqual(new Set(["https://brand.example/routes", "https://api.example/v1/brand-profiles/p1/sources/s2"]));
    expect(report.pages_fetched).toBeGreaterThan(3);
    expect(report.sources_read).toBe(report.pages_fetched + 2);
    expect(report.queries_per_section).toBe(3);
  });
});

describe("brand evidence", () => {
  const chunk = (i: number, text: string, url: string | null): RetrievedChunk => ({ chunk_id: `c${i}`, source_id: `src${i}`, url, title: `Doc ${i}`, heading_path: ["Plans", "Starter"], ordinal: i, text, context: "", score: 1 });

  it("quotes retrieved chunks, cites pasted text by the platform's address of its source, and adds each passage once", async () => {
    const brief = decideBriefByRules(input("standard"), null);
    const chunks = [chunk(1, "The Starter plan costs $29 per technician per month.", "https://brand.example/pricing"), chunk(2, "Office staff seats are free on every plan.", "kb-source:src2")];
    const sourceAddress = (id: string) => `https://api.example/v1/brand-profiles/p1/sources/${id}`;
    const { evidence, report } = await gatherEvidence(
      { retrieve: async () => chunks, sourceAddress, fetchDocument: async () => Promise.reject(new Error("no web")), now: () => new Date("2025-03-01T10:00:00Z") },
      brief,
      [{ section: "s1", query: "pricing" }, { section: "s2", query: "plans" }],
      RESEARCH_DEPTH.standard,
    );
    expect(evidence).toEqual([
      { id: "e1", url: "https://brand.example/pricing", title: "Doc 1", heading: "Plans › Starter", quote: chunks[0].text, fetched_at: "2025-03-01T10:00:00.000Z", origin: "brand", chunk_id: "c1", position: 1 },
      { id: "e2", url: "https://api.example/v1/brand-profiles/p1/sources/src2", title: "Doc 2", heading: "Plans › Starter", quote: chunks[1].text, fetched_at: "2025-03-01T10:00:00.000Z", origin: "brand", chunk_id: "c2", position: 2 },
    ]);
    expect(report).toMatchObject({ brand_passages: 2, web_passages: 0, search_errors: 0 });
  });

  it("keeps the pool bounded and long chunks to their most relevant whole sentences", () => {
    const pool = new EvidencePool([], 3);
    for (let i = 0; i < 5; i++) pool.add({ url: `https://x.example/${i}`, title: "t", quote: `Quote ${i}.`, fetched_at: "", origin: "web" });
    expect(pool.toArray().map((e) => e.id)).toEqual(["e1", "e2", "e3"]);
    const long = `${"Filler sentence about nothing in particular here. ".repeat(30)}The Enterprise plan includes single sign-on through SAML. ${"More filler text that says little. ".repeat(30)}`;
    const quote = boundedQuote(long, "single sign-on SAML", "en");
    expect(quote.length).toBeLessThanOrEqual(MAX_QUOTE_CHARS);
    expect(quote).toContain("The Enterprise plan includes single sign-on through SAML.");
    expect(long).toContain(quote);
    // A quote never opens on a sentence that leans on the one it would leave out ("It …").
    const leaning = `${"Filler sentence about nothing in particular here. ".repeat(30)}The Enterprise plan adds an audit log. It includes single sign-on through SAML. ${"More filler text that says little. ".repeat(30)}`;
    const kept = boundedQuote(leaning, "It includes single sign-on through SAML", "en");
    expect(kept).toContain("The Enterprise plan adds an audit log. It includes single sign-on through SAML.");
  });
});

describe("research queries", () => {
  it("asks the knowledge base for the angle's material beside the subject when the angle names some (a beginner's introduction)", () => {
    const briefOf = (topic: string) => decideBriefByRules({ topic, target_keyword: topic, mode: "standard", language: "en", target_words: 800, image: false, derivatives: [] }, null);
    const start = briefOf("Getting started with Valgrind");
    const queries = researchQueries(planOutlineByRules(start, 800, []), start, RESEARCH_DEPTH.standard).map((q) => q.query);
    expect(queries.slice(0, 2)).toEqual(["Valgrind", "Valgrind quick start introduction getting started first steps basics"]);
    const plain = briefOf("Route planning for field service teams");
    expect(researchQueries(planOutlineByRules(plain, 800, []), plain, RESEARCH_DEPTH.standard).map((q) => q.query).join(" ")).not.toContain("quick start");
  });
});
