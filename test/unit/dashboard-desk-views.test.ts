import { readerHtml } from "../../services/gateway/dashboard/views/article-html";
import { qualityLines, scoredAt } from "../../services/gateway/dashboard/views/article-quality";
import { reviewMoves } from "../../services/gateway/dashboard/views/article-read";
import { articlesListPage } from "../../services/gateway/dashboard/views/articles-list";
import { renderArticleHtml } from "../../services/articles/render";
import { htmlWithCover } from "../../services/articles/cover-reference";
import type { JobResource } from "../../shared/schemas/jobs";

/** The review desk's presentation: footnotes and marks on the articles service's own HTML, the quality score in words, the review buttons. */

const SOURCE = "http://localhost:3300/v1/brand-profiles/0b5c/sources/9f1e";
const MARKDOWN = `Home composting turns scraps into soil. [[1]](${SOURCE}) This article looks at home composting.

## Greens and browns

Greens supply nitrogen, e.g. grass. [[1]](${SOURCE})[[2]](https://example.com/browns) Browns supply carbon. [[2]](https://example.com/browns) A heap needs both. \\[3\\]

## Sources

1. [Guide <script>x</script>](${SOURCE})
2. [Browns](https://example.com/browns)
3. Notes (knowledge base)
`;

describe("readerHtml", () => {
  const r = readerHtml(renderArticleHtml(MARKDOWN));

  it("turns citation marks into footnote references and the source list into footnotes", () => {
    expect(r.sourcesHeading).toBe("Sources");
    expect(r.footnotes.map((f) => [f.number, f.url])).toEqual([
      [1, SOURCE],
      [2, "https://example.com/browns"],
      [3, null],
    ]);
    expect(r.footnotes[0].label).toContain("&lt;script&gt;");
    expect(r.body.text).not.toContain("<h2>Sources</h2>");
    expect(r.body.text).not.toContain(SOURCE);
    expect(r.body.text.match(/<sup class="fn[^"]*"><a href="#source-(\d)"/g)).toHaveLength(5);
    expect(r.body.text).toContain("soil.<sup class=\"fn\">");
    expect(r.body.text).toContain("</sup><sup class=\"fn fn-next\"><a href=\"#source-2\"");
    expect(r.body.text).toContain('<a href="#source-3" aria-label="source 3">3</a>');
  });

  it("counts sentences and marks those that cite no source", () => {
    expect(r.sentences).toBe(5);
    expect(r.uncited).toBe(1);
    expect(r.body.text).toContain('<span class="flag flag-uncited" title="cites no source">This article looks at home composting.</span>');
  });

  it("shows images of other hosts as links (the dashboard's policy loads none)", () => {
    const withImage = readerHtml(renderArticleHtml("![A bin](https://cdn.example.com/bin.png)\n"));
    expect(withImage.body.text).not.toContain("<img");
    expect(withImage.body.text).toContain('<p><a href="https://cdn.example.com/bin.png" class="image-link">[image: A bin]</a></p>');
    expect(withImage.sentences).toBe(0);
  });

  it("leaves out the cover figure the articles service puts first (the page shows the cover itself), and marks the sentences the score judged off topic", () => {
    const covered = htmlWithCover(renderArticleHtml(MARKDOWN), { url: "http://localhost:3300/media/1", alt: "Title card", width: 1200, height: 630, media_type: "image/png" });
    const withCover = readerHtml(covered, ["Browns supply carbon."]);
    expect(covered).toContain("article-cover");
    expect(withCover.body.text).not.toContain("article-cover");
    expect(withCover.body.text).not.toContain("[image: Title card]");
    expect(withCover.offTopic).toBe(1);
    expect(withCover.body.text).toContain('<span class="flag flag-offtopic" title="judged off topic">Browns supply carbon.');
  });

  it("shows a table cell's alignment as a class: the policy refuses inline styles", () => {
    const table = readerHtml(renderArticleHtml("| Bin | Litres |\n|:---|---:|\n| Closed | 300 |\n"));
    expect(table.body.text).not.toContain("style=");
    expect(table.body.text).toContain('<td class="align-right">300</td>');
  });

  it("leaves an article without a source list as it is", () => {
    const plain = readerHtml(renderArticleHtml("One sentence [1] here.\n"));
    expect(plain.footnotes).toEqual([]);
    expect(plain.body.text).toContain("[1]");
  });
});

describe("the quality score in words", () => {
  const breakdown = {
    topical_relevance: 92.7,
    claim_support: 100,
    language_consistency: 100,
    form: 100,
    citation_coverage: 90.2,
    readability: 100,
    structure: 69,
    keyword_coverage: 100,
    duplication: 100,
    length_vs_target: 38.8,
    voice_match: 100,
  };
  const job = {
    stages: [
      { key: "plan", label: "Planning", status: "done", meta: { target_words: 1000, clamped: undefined } },
      { key: "score", label: "Scoring", status: "done", meta: { body_words: 688, quality_caps: { length_vs_target: 68.8 }, form_problems: [] } },
    ],
  } as unknown as JobResource;

  it("says each part as what it counts", () => {
    const lines = qualityLines({ quality_breakdown: breakdown, language: "en", flesch_score: 61.2, word_count: 720 }, { sentences: 41, uncited: 4 }, scoredAt(job));
    const text = Object.fromEntries(lines.map((l) => [l.part, l.text]));
    expect(text.topical_relevance).toBe("3 of 41 sentences judged off topic");
    expect(text.citation_coverage).toBe("4 of 41 sentences cite no source (marked in the text)");
    expect(text.length_vs_target).toBe("312 words short of 1,000 asked — caps the score at 68.8");
    expect(text.claim_support).toBe("0 of 37 cited sentences not stated by the passage they cite");
    expect(lines.find((l) => l.part === "structure")!.tone).toBe("off");
    expect(lines).toHaveLength(11);
  });

  it("uses the length the customer asked for when the plan clamped it, and says when the job is gone", () => {
    const clamped = { stages: [{ key: "plan", meta: { target_words: 600, clamped: { requested: 400, used: 600 } } }, { key: "score", meta: { body_words: 450 } }] } as unknown as JobResource;
    expect(scoredAt(clamped)).toMatchObject({ asked_words: 400, body_words: 450 });
    const lines = qualityLines({ quality_breakdown: breakdown, language: "en", flesch_score: 60, word_count: 500 }, { sentences: 10, uncited: 0 }, null);
    expect(lines.find((l) => l.part === "length_vs_target")!.text).toBe("500 words");
  });
});

describe("review moves", () => {
  it("offers the lifecycle's moves from each status; published is reached by publishing live", () => {
    expect(reviewMoves("draft").map((m) => m.label)).toEqual(["Submit for review"]);
    expect(reviewMoves("in_review").map((m) => m.label)).toEqual(["Back to draft", "Approve"]);
    expect(reviewMoves("approved").map((m) => m.to)).toEqual(["draft", "in_review"]);
    expect(reviewMoves("published").map((m) => m.to)).toEqual(["draft"]);
  });
});

describe("the articles list", () => {
  const session = { id: "s", role: "org", org_id: "7d0c5e6a-1b2c-4d3e-8f90-a1b2c3d4e5f6", csrf_token: "t", expires_at: "2030-01-01T00:00:00Z" } as never;
  const org = { id: "7d0c5e6a-1b2c-4d3e-8f90-a1b2c3d4e5f6", name: "Acme" };
  const article = {
    id: "0e8f9a1b-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
    object: "article",
    status: "in_review",
    title: 'Bins <script>alert("x")</script>',
    slug: "bins",
    topic: "Compost <b>bins</b>",
    target_keyword: "bins",
    mode: "standard",
    language: "en",
    word_count: 1234,
    quality_score: 88,
    brand_profile_id: null,
    job_id: "1e8f9a1b-2c3d-4e5f-8a9b-0c1d2e3f4a5b",
    created_at: "2026-11-26T10:00:00.000Z",
    updated_at: "2026-11-26T10:00:00.000Z",
  } as const;

  it("shows each article's facts escaped, and pages on within the status filter", () => {
    const page = articlesListPage({ session, org }, [article], "in_review", article.id).text;
    expect(page).toContain("Bins &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(page).toContain("Compost &lt;b&gt;bins&lt;/b&gt;");
    expect(page).toContain('<span class="badge badge-wait">in review</span>');
    expect(page).toContain(">1,234<");
    expect(page).toContain(`/articles?status=in_review&amp;starting_after=${article.id}`);
    expect(page).toMatch(/<a href="[^"]*\/articles\?status=in_review" class="active" aria-current="page">in review<\/a>/);
  });

  it("says when there is nothing of a status", () => {
    expect(articlesListPage({ session, org }, [], "approved").text).toContain("No approved articles.");
  });
});
