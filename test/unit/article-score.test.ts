import { draftArticle } from "../../services/pipeline/article/draft";
import { ExtractiveSectionWriter } from "../../services/pipeline/article/extractive-writer";
import { planOutlineByRules } from "../../services/pipeline/article/outline";
import { decideBriefByRules } from "../../services/pipeline/article/recon";
import { renderArticle } from "../../services/pipeline/article/render";
import {
  citationCoverageScore,
  duplicationScore,
  languageConsistencyScore,
  lengthScore,
  QUALITY_WEIGHTS,
  readabilityScore,
  scoreArticle,
} from "../../services/pipeline/article/score";
import { optimizeForSearch } from "../../services/pipeline/article/seo";
import type { ArticleBody, Evidence } from "../../services/pipeline/article/types";
import { articleMetrics } from "../../shared/text/metrics";
import { evidenceFromPages } from "../support/article-evidence";
import { ROUTE_PLANNING_PAGES } from "../support/fake-searxng";

const EVIDENCE: Evidence[] = evidenceFromPages(ROUTE_PLANNING_PAGES, { host: "guides.example", origin: "web" });
const brief = decideBriefByRules({ topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard", language: "en", target_words: 1000, image: false, derivatives: [] }, null);
const outline = planOutlineByRules(brief, 1000, []);

async function article() {
  const { body: drafted } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, EVIDENCE);
  const { seo, body } = await optimizeForSearch(drafted, brief, EVIDENCE);
  return { seo, body };
}

function score(body: ArticleBody, seo: Awaited<ReturnType<typeof article>>["seo"]) {
  const markdown = renderArticle(body, seo.faq, EVIDENCE, "en").markdown;
  return { markdown, ...scoreArticle({ markdown, body, outline, seo, brief, evidence: EVIDENCE }) };
}

const sentences = (body: ArticleBody) => body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));

describe("the quality score", () => {
  it("weighs nine parts that add up to one", () => {
    expect(Object.values(QUALITY_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it("reports metrics the articles service would compute from the same markdown, and a weighted total", async () => {
    const { seo, body } = await article();
    const result = score(body, seo);
    expect({ word_count: result.word_count, read_minutes: result.read_minutes, flesch_score: result.flesch_score }).toEqual(articleMetrics(result.markdown, "en"));
    const weighted = Object.entries(QUALITY_WEIGHTS).reduce((n, [k, w]) => n + w * result.quality_breakdown[k as keyof typeof QUALITY_WEIGHTS], 0);
    expect(result.quality_score).toBe(Math.round(weighted));
    for (const value of Object.values(result.quality_breakdown)) expect(value).toBeGreaterThanOrEqual(0);
    expect(result.quality_breakdown).toMatchObject({ citation_coverage: expect.any(Number), citation_precision: 100, duplication: 100, keyword_coverage: 100, language_consistency: 100 });
  });

  it("drops citation coverage when citations go, and the total with it", async () => {
    const { seo, body } = await article();
    const before = score(body, seo);
    const stripped: ArticleBody = structuredClone(body);
    sentences(stripped).forEach((s, i) => {
      if (i % 2 === 0) s.cites = [];
    });
    const after = score(stripped, seo);
    const cited = sentences(stripped).filter((s) => s.cites.length).length / sentences(stripped).length;
    expect(after.quality_breakdown.citation_coverage).toBeCloseTo(100 * cited, 0);
    expect(after.quality_breakdown.citation_coverage).toBeLessThan(before.quality_breakdown.citation_coverage - 40);
    expect(after.quality_score).toBeLessThan(before.quality_score);
  });

  it("drops citation precision when a citation points at evidence that does not say the claim", async () => {
    const { seo, body } = await article();
    const wrong: ArticleBody = structuredClone(body);
    for (const s of sentences(wrong)) s.cites = [s.cites[0] === "e1" ? "e13" : "e1"];
    expect(score(wrong, seo).quality_breakdown.citation_precision).toBeLessThan(30);
  });

  it("drops duplication when a section repeats another", async () => {
    const { body } = await article();
    const repeated: ArticleBody = structuredClone(body);
    repeated.sections[2].paragraphs.push(...structuredClone(repeated.sections[1].paragraphs));
    expect(duplicationScore(body, "en")).toBe(100);
    expect(duplicationScore(repeated, "en")).toBeLessThan(60);
  });

  it("drops language consistency when headings are in another language", async () => {
    const { seo, body } = await article();
    const mixed: ArticleBody = structuredClone(body);
    for (const s of mixed.sections) if (s.heading) s.heading = "Warum die Routenplanung für das Büro zählt";
    expect(languageConsistencyScore(body, seo, "en")).toBe(100);
    // Five headings of ~25 fields (the FAQ now has five evidence-derived entries, ten fields): about 10 points off.
    expect(languageConsistencyScore(mixed, seo, "en")).toBeLessThan(95);
    // The same English article judged against a German request.
    expect(languageConsistencyScore(body, seo, "de")).toBeLessThan(20);
  });

  it("scores length, readability and coverage by their documented formulas", () => {
    expect([lengthScore(1000, 1000), lengthScore(1100, 1000), lengthScore(800, 1000), lengthScore(400, 1000)]).toEqual([100, 100, 80, 0]);
    expect([readabilityScore(60, null), readabilityScore(40, null), readabilityScore(75, null), readabilityScore(40, 45)]).toEqual([100, 80, 90, 100]);
    const body: ArticleBody = { writer: "model", sections: [{ key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "A.", cites: ["e1"] }, { text: "B.", cites: [] }, { text: "C.", cites: ["e2"] }, { text: "D.", cites: [] }] }] }] };
    expect(citationCoverageScore(body)).toBe(50);
  });
});
