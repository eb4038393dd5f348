import { ArticleTooShortError, assertLongEnough, draftArticle, MIN_ARTICLE_WORDS } from "../../services/pipeline/article/writers/draft";
import { ExtractiveSectionWriter } from "../../services/pipeline/article/writers/extractive-writer";
import { sectionWords } from "../../services/pipeline/article/writers/section-writer";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { renderArticle } from "../../services/pipeline/article/quality/render";
import {
  citationCoverageScore,
  duplicationScore,
  formProblems,
  languageShare,
  lengthCap,
  lengthScore,
  QUALITY_WEIGHTS,
  readabilityScore,
  scoreArticle,
  shareCap,
  unjudgedTopicCap,
} from "../../services/pipeline/article/quality/score";
import { relevanceModel } from "../../services/pipeline/article/relevance";
import { hasDoubledWord, tidyHeading } from "../../services/pipeline/article/language/phrases";
import { optimizeForSearch } from "../../services/pipeline/article/search/metadata";
import { type ArticleBody, type Evidence, sentencesIn } from "../../services/pipeline/article/types";
import { articleMetrics } from "../../shared/text/metrics";
import { evidenceFromPages } from "../support/article-evidence";
import { ROUTE_PLANNING_PAGES } from "../support/fake-searxng";

const EVIDENCE: Evidence[] = evidenceFromPages(ROUTE_PLANNING_PAGES, { host: "guides.example", origin: "web" });
// The route-planning guides hold about 320 words on route planning: the good article is asked for 400 (the
// API's minimum), which they can fill. Asked for 1000, the same article is capped for its length (below).
const brief = decideBriefByRules({ topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard", language: "en", target_words: 400, image: false, derivatives: [] }, null);
const outline = planOutlineByRules(brief, 400, []);

async function article() {
  const { body: drafted } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, EVIDENCE);
  const { seo, body } = await optimizeForSearch(drafted, brief, EVIDENCE);
  return { seo, body };
}

function score(body: ArticleBody, seo: Awaited<ReturnType<typeof article>>["seo"]) {
  const markdown = renderArticle(body, seo.faq, EVIDENCE, "en").markdown;
  return { markdown, ...scoreArticle({ markdown, body, outline, seo, brief, evidence: EVIDENCE }) };
}

const sentences = (body: ArticleBody) => sentencesIn(body.sections);

describe("the quality score", () => {
  it("weighs eleven parts that add up to one", () => {
    expect(Object.values(QUALITY_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });

  it("reports metrics the articles service would compute from the same markdown, and a weighted total", async () => {
    const { seo, body } = await article();
    const result = score(body, seo);
    expect({ word_count: result.word_count, read_minutes: result.read_minutes, flesch_score: result.flesch_score }).toEqual(articleMetrics(result.markdown, "en"));
    const weighted = Object.entries(QUALITY_WEIGHTS).reduce((n, [k, w]) => n + w * result.quality_breakdown[k as keyof typeof QUALITY_WEIGHTS], 0);
    expect(result.quality_caps).toEqual({});
    expect(result.form_problems).toEqual([]);
    expect(result.quality_score).toBe(Math.round(weighted));
    for (const value of Object.values(result.quality_breakdown)) expect(value).toBeGreaterThanOrEqual(0);
    expect(result.quality_breakdown).toMatchObject({ topical_relevance: 100, claim_support: 100, form: 100, duplication: 100, keyword_coverage: 100, language_consistency: 100 });
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

  it("drops claim support when a citation points at evidence that does not say the claim, whatever a model said", async () => {
    const { seo, body } = await article();
    const wrong: ArticleBody = structuredClone(body);
    for (const s of sentences(wrong)) s.cites = [s.cites[0] === "e1" ? "e13" : "e1"];
    const result = score(wrong, seo);
    expect(result.quality_breakdown.claim_support).toBeLessThan(30);
    expect(result.quality_score).toBeLessThanOrEqual(shareCap(result.quality_breakdown.claim_support / 100));
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
    expect(languageShare(body, seo, brief)).toBe(1);
    const germanDescription = { ...seo, meta_description: "Warum die Routenplanung für das Büro zählt, erklärt für Disponenten kleiner Betriebe." };
    expect(languageShare(mixed, germanDescription, brief)).toBeLessThan(0.95);
    // The same English article judged against a German request.
    expect(languageShare(body, seo, { ...brief, language: "de" })).toBeLessThan(0.2);
  });

  /** The article with its body headings replaced, in order (the rest as they were). */
  const withHeadings = (body: ArticleBody, ...headings: string[]): ArticleBody => {
    const copy: ArticleBody = structuredClone(body);
    copy.sections.filter((s) => s.role === "body").forEach((s, i) => (s.heading = headings[i] ?? s.heading));
    return copy;
  };

  it("counts a doubled word or the source's numbering in a heading as a form problem, the doubled word tidyHeading removes", async () => {
    const { seo, body } = await article();
    const problems = formProblems(withHeadings(body, "How How route planning works", "14.2.2. Moving jobs between routes"), seo, brief);
    expect(problems).toEqual(["doubled word in heading: How How route planning works", "numbered heading: 14.2.2. Moving jobs between routes"]);
    expect(formProblems(body, seo, brief)).toEqual([]);
    // Headings that only start like a number or a letter are not numbered.
    for (const heading of ["A closer look at route planning", "I use route planning daily", "2024 in route planning", "Appendix of route planning"]) {
      expect(formProblems(withHeadings(body, heading), seo, brief)).toEqual([]);
    }
    for (const heading of ["A.1 Route planning", "3) Route planning", "Chapter 4: Route planning", "Route planning ¶"]) {
      expect(formProblems(withHeadings(body, heading), seo, brief)).toEqual([`numbered heading: ${heading}`]);
    }
    expect(tidyHeading("How How route planning works")).toBe("How route planning works");
    expect(hasDoubledWord(tidyHeading("How How route planning works"))).toBe(false);
  });

  it("counts a heading given twice as a form problem, by its terms (a Debian FAQ article read \"Other points\" four times at 98)", async () => {
    const { seo, body } = await article();
    expect(formProblems(withHeadings(body, "Other points", "Other Points"), seo, brief)).toEqual(["repeated heading: Other Points"]);
    expect(formProblems(withHeadings(body, "Compost heap", "Compost heaps"), seo, brief)).toEqual(["repeated heading: Compost heaps"]);
  });

  it("scores length, readability and coverage by their documented formulas", () => {
    expect([lengthScore(1000, 1000), lengthScore(1100, 1000), lengthScore(800, 1000), lengthScore(400, 1000)]).toEqual([100, 100, 80, 0]);
    expect([readabilityScore(60, null), readabilityScore(40, null), readabilityScore(75, null), readabilityScore(40, 45)]).toEqual([100, 80, 90, 100]);
    const body: ArticleBody = { writer: "model", sections: [{ key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "A.", cites: ["e1"] }, { text: "B.", cites: [] }, { text: "C.", cites: ["e2"] }, { text: "D.", cites: [] }] }] }] };
    expect(citationCoverageScore(body)).toBe(50);
  });

  it("caps an article far short of the requested length at the share delivered, and leaves one at 75% or more alone", async () => {
    expect([lengthCap(750, 1000), lengthCap(1200, 1000), lengthCap(600, 1000), lengthCap(134, 1000)]).toEqual([100, 100, 60, 13.4]);
    const { seo, body } = await article();
    const fitting = score(body, seo);
    expect(fitting.quality_caps).toEqual({});
    // The same article, asked for 1000 words: a third of an article does not score like a whole one.
    const asked1000 = { ...outline, requested_words: 1000 };
    const markdown = renderArticle(body, seo.faq, EVIDENCE, "en").markdown;
    const short = scoreArticle({ markdown, body, outline: asked1000, seo, brief, evidence: EVIDENCE });
    const ratio = short.body_words / 1000;
    expect(ratio).toBeLessThan(0.5);
    expect(short.quality_score).toBeLessThanOrEqual(Math.ceil(100 * ratio));
    expect(short.quality_caps).toEqual({ length_vs_target: Math.round(1000 * ratio) / 10 });
    expect(short.quality_score).toBeLessThan(fitting.quality_score - 40);
  });

  it("refuses an article under the 200-word floor with what was written and asked, and passes one at or above it", async () => {
    const { body } = await article();
    const words = body.sections.reduce((n, s) => n + sectionWords(s, "en"), 0);
    expect(words).toBeGreaterThanOrEqual(MIN_ARTICLE_WORDS);
    expect(assertLongEnough(body, brief, 400)).toBe(words);
    // One paragraph of it: a paragraph is not an article.
    const first = body.sections[0];
    const stub: ArticleBody = { ...body, sections: [{ ...first, paragraphs: first.paragraphs.slice(0, 1) }] };
    const stubWords = sectionWords(stub.sections[0], "en");
    expect(stubWords).toBeLessThan(MIN_ARTICLE_WORDS);
    expect(() => assertLongEnough(stub, brief, 400)).toThrow(ArticleTooShortError);
    expect(() => assertLongEnough(stub, brief, 400)).toThrow(`Only ${stubWords} words about “${brief.topic}” in en`);
    expect(() => assertLongEnough(stub, brief, 400)).toThrow(`an article needs at least ${MIN_ARTICLE_WORDS}; 400 were asked`);
  });

  it("ranks every known-bad article below every known-good one, and caps off-topic or wrong-language ones at 50", async () => {
    const good = [await article()];
    const short = planOutlineByRules(brief, 400, [{ heading: "Clustering jobs by area", weight: 1 }]);
    const { body: drafted } = await draftArticle(new ExtractiveSectionWriter(), brief, short, EVIDENCE);
    good.push(await optimizeForSearch(drafted, brief, EVIDENCE));
    const goodScores = good.map(({ body, seo }) => score(body, seo).quality_score);

    const { seo, body } = good[0];
    // Off topic: two thirds of the sentences replaced by true, cited sentences about phone triage and van apps.
    const offTopicUnits = EVIDENCE.filter((e) => /Triage|technicians need on the road|Reviewing the numbers/.test(e.heading ?? ""));
    const offTopic: ArticleBody = structuredClone(body);
    let n = 0;
    const pool = offTopicUnits.flatMap((e) => e.quote.split(/(?<=\.)\s+/).map((text) => ({ text, cites: [e.id] })));
    for (const section of offTopic.sections) for (const p of section.paragraphs) p.sentences = p.sentences.map((x) => (n++ % 3 === 0 ? x : pool[n % pool.length]));
    // Wrong language: the same article, asked for in French.
    const french = { ...brief, language: "fr" };
    // Malformed FAQ: headings pasted into questions, answers copied from the body.
    const copied = sentences(body).filter((s) => s.cites.length).slice(0, 3);
    const badFaq = { ...seo, faq: copied.map((s) => ({ question: "What should you know about Route planning: an overview?", answer: s.text, cites: s.cites })) };
    // Unsupported: every claim cites a passage that does not say it.
    const unsupported: ArticleBody = structuredClone(body);
    for (const s of sentences(unsupported)) s.cites = [s.cites[0] === "e1" ? "e13" : "e1"];

    // Padded: one sentence in five replaced by a true, cited sentence about something else.
    const padded: ArticleBody = structuredClone(body);
    let m = 0;
    for (const section of padded.sections) for (const p of section.paragraphs) p.sentences = p.sentences.map((x) => (++m % 5 === 0 ? pool[m % pool.length] : x));
    // Thin: a third of the article, for the words asked.
    const thin: ArticleBody = { ...body, sections: body.sections.slice(0, 2) };
    const thinScore = scoreArticle({ markdown: renderArticle(thin, seo.faq, EVIDENCE, "en").markdown, body: thin, outline: { ...outline, requested_words: 1600 }, seo, brief, evidence: EVIDENCE });

    const offTopicScore = score(offTopic, seo);
    const paddedScore = score(padded, seo);
    expect(paddedScore.quality_breakdown.topical_relevance).toBeLessThan(95);
    expect(paddedScore.quality_score).toBeLessThanOrEqual(70);
    const frenchScore = scoreArticle({ markdown: renderArticle(body, seo.faq, EVIDENCE, "fr").markdown, body, outline, seo, brief: french, evidence: EVIDENCE });
    const bad = [offTopicScore, paddedScore, thinScore, frenchScore, score(body, badFaq), score(unsupported, seo)].map((r) => r.quality_score);
    expect(Math.max(...bad)).toBeLessThan(Math.min(...goodScores));
    const topical = offTopicScore.quality_breakdown.topical_relevance / 100;
    // Two thirds replaced: the metrics-review sentences sit on a page titled for "field service" teams, the
    // request's audience, and some pass the model (a known miss of a lexical model); the rest do not. The last
    // refit (`relevant` 0.82 → 0.78, docs/relevance.md) lets more of them pass: under 0.55 before, 0.62 now.
    expect(topical).toBeLessThan(0.65);
    expect(offTopicScore.quality_score).toBeLessThanOrEqual(150 * topical);
    expect(frenchScore.quality_breakdown.language_consistency).toBeLessThan(20);
    expect(frenchScore.quality_score).toBeLessThanOrEqual(30);
    // The caps themselves: a third on topic (or in the language, or supported) is 50 at most; any failing share
    // at most 70, so a fifth of the sentences off topic scores 70 at most.
    expect([shareCap(1 / 3), shareCap(0), shareCap(0.9), shareCap(0.8), shareCap(0.95)]).toEqual([50, 0, 70, 70, 100]);
    expect(score(body, badFaq).form_problems.length).toBeGreaterThanOrEqual(3);
  });
});

describe("a request that is what its whole profile is about (the held-out probe's «Cómo crear un paquete Debian desde cero», 97 at 28 of 52 sentences on topic)", () => {
  // The article's own subject and weights, said to be counted over a profile of 160 chunks each of whose words
  // is in `share` of them: the words' weights (and so every sentence's verdict) stay as they are.
  const weighedAt = (share: number) => {
    const subject = relevanceModel(EVIDENCE, brief).subject;
    return { ...subject, terms: subject.terms.map((t) => ({ ...t, df: Math.round(share * 160) })), counted_over: { chunks: 160, from: "profile" as const } };
  };

  it("caps the score as a failing on-topic share does, unless a model graded the strips", async () => {
    const { seo, body } = await article();
    const markdown = renderArticle(body, seo.faq, EVIDENCE, "en").markdown;
    const whole = { ...brief, subject: weighedAt(0.8) };
    const capped = scoreArticle({ markdown, body, outline, seo, brief: whole, evidence: EVIDENCE });
    expect(capped.quality_score).toBeLessThanOrEqual(70);
    expect(capped.quality_caps.topical_relevance).toBe(70);
    // A subject whose words a quarter of the profile says is judged as before; so is one a model graded.
    expect(unjudgedTopicCap({ subject: weighedAt(0.25) })).toBe(100);
    expect(unjudgedTopicCap({ subject: weighedAt(0.8), strip_grades: {} })).toBe(100);
    expect(unjudgedTopicCap(whole)).toBe(70);
    // Counted over a research pool (a small profile or the web), no subject is the whole profile's.
    expect(unjudgedTopicCap({ subject: { ...weighedAt(0.8), counted_over: { chunks: 160, from: "pool" } } })).toBe(100);
  });
});
