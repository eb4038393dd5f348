import { Bm25Index } from "../../shared/text/bm25";
import type { CompleteFn } from "../../shared/llm/types";
import type { RetrievedChunk } from "../../shared/schemas/brand";
import type { StageCallParams } from "../../shared/schemas/jobs";
import type { BrandProfileView } from "../../services/pipeline/article/brief/recon";
import { ARTICLE_STAGE_KEYS, buildGeneratedArticle, runArticleStage, type ArticleStageDeps } from "../../services/pipeline/article/stages";
import type { Evidence } from "../../services/pipeline/article/types";
import { JOB_TYPE_SPECS } from "../../shared/job-types";
import { ROUTE_PLANNING_PAGES } from "../support/fake-searxng";

const BRAND_ID = "9b0c7a52-3f0e-4a53-9d59-0d6f7d6b2a11";
const JOB_ID = "6b0c7a52-3f0e-4a53-9d59-0d6f7d6b2a11";
const ORG_ID = "7b0c7a52-3f0e-4a53-9d59-0d6f7d6b2a11";
const SAMPLE = "src-sample";

/** The guides as a brand's knowledge base (one chunk per section), plus a writing sample retrieval also returns. */
const CHUNKS: RetrievedChunk[] = [
  ...ROUTE_PLANNING_PAGES.flatMap((page, p) =>
    page.sections.map((s, i) => ({ chunk_id: `c${p}-${i}`, source_id: `src-${p}`, url: `https://guides.example${page.path}`, title: page.title, heading_path: [s.heading], ordinal: i, text: s.paragraphs.join("\n"), context: "", score: 0 })),
  ),
  { chunk_id: "sample", source_id: SAMPLE, url: null, title: "How we write", heading_path: [], ordinal: 0, text: "We write about route planning for field service teams in short, concrete sentences every day.", context: "", score: 0 },
];
const INDEX = Bm25Index.fromTexts(CHUNKS.map((c) => ({ id: c.chunk_id, text: `${c.heading_path.join(" ")} ${c.text}` })));

function fakeDeps(over: Partial<ArticleStageDeps> = {}) {
  const progress: Record<string, unknown>[] = [];
  const tokens: [number, number][] = [];
  const deps: ArticleStageDeps = {
    modelRetries: 0,
    fetchDocument: async () => Promise.reject(new Error("no web in this test")),
    retrieve: async (_id, query, k) => INDEX.search(query, k).map((h) => ({ ...CHUNKS.find((c) => c.chunk_id === h.id)!, score: h.score })),
    getProfile: async () => ({ id: BRAND_ID, name: "Dispatch Co", description: null, website_url: "https://dispatch.example", voice_profile: null, fact_sheet: null }) as BrandProfileView,
    listSources: async () => [{ id: SAMPLE, type: "writing_sample" }, { id: "src-0", type: "text" }],
    termStats: async (_id, terms) => ({ chunks: INDEX.size, df: Object.fromEntries(terms.map(({ term }) => [term, INDEX.documentFrequency(term)])) }),
    sourceAddress: (_profileId, sourceId) => `urn:uuid:${sourceId}`,
    recordTokens: async (i, o) => void tokens.push([i, o]),
    reportProgress: async (meta) => void progress.push(meta),
    now: () => new Date("2025-01-01T00:00:00Z"),
    ...over,
  };
  return { deps, progress, tokens };
}

async function runStages(deps: ArticleStageDeps, input: Record<string, unknown>, stages: string[]) {
  let state: Record<string, unknown> = {};
  const metas: Record<string, Record<string, unknown>> = {};
  for (const [i, stage] of stages.entries()) {
    const call: StageCallParams = { job_id: JOB_ID, org_id: ORG_ID, type: "article", stage, stage_index: i, fence: 1, input, state };
    const out = await runArticleStage(deps, call);
    state = { ...state, ...out.state };
    metas[stage] = out.meta ?? {};
  }
  return { state, metas };
}

const ALL = ["recon", "plan", "research", "draft", "edit", "seo", "score", "image", "derivatives"];
const INPUT = { topic: "Route planning for field service teams", target_keyword: "route planning", brand_profile_id: BRAND_ID, target_words: 1000, image: true, derivatives: ["x_thread", "linkedin", "newsletter"] };

describe("the article stages", () => {
  it("declares the job type's stages in the spec's order, each handled here", () => {
    expect(JOB_TYPE_SPECS.article!.stages.map((s) => s.key)).toEqual(ALL);
    expect(JOB_TYPE_SPECS.article!.stages.every((s) => s.action === "pipeline.articleStage" && s.label.length > 0)).toBe(true);
    expect(JOB_TYPE_SPECS.article!.complete).toBe("pipeline.completeArticle");
    expect(ARTICLE_STAGE_KEYS.sort()).toEqual([...ALL].sort());
  });

  it("run offline end to end into a valid GeneratedArticle whose citations are quotes of the evidence", async () => {
    const { deps, progress } = fakeDeps();
    const { state, metas } = await runStages(deps, INPUT, ALL);
    expect(metas.recon).toMatchObject({ decided_by: "rules", intent: "informational", brand: "Dispatch Co" });
    expect(metas.plan).toMatchObject({ sections: 5, body_sections: 3, target_words: 1000, planned_by: "rules" });
    expect(metas.research).toMatchObject({ search: "none", web_passages: 0 });
    expect(metas.draft).toMatchObject({ writer: "extractive", dropped_citations: 0 });
    expect(metas.edit).toMatchObject({ checked_by: "offline", removed_unsupported: 0 });
    expect(metas.image).toMatchObject({ by: "title-card", media_type: "image/png" });
    expect(progress.some((p) => "sections_written" in p)).toBe(true);
    expect(progress.some((p) => "brand_passages" in p)).toBe(true);

    // Writing samples teach the voice; they are never evidence.
    const evidence = state.evidence as Evidence[];
    expect(evidence.some((e) => e.chunk_id === "sample")).toBe(false);

    const article = buildGeneratedArticle({ job_id: JOB_ID, org_id: ORG_ID, input: INPUT, state });
    expect(article).toMatchObject({ job_id: JOB_ID, brand_profile_id: BRAND_ID, mode: "standard", language: "en", target_keyword: "route planning", slug: "route-planning" });
    expect(article.citations.length).toBeGreaterThan(10);
    for (const c of article.citations) expect(evidence.some((e) => e.url === c.url && e.quote.includes(c.claim))).toBe(true);
    expect(article.quality_score).toBe(metas.score.quality_score);
    expect(article.derivatives?.x_thread?.length).toBeGreaterThan(1);
    expect(article.image?.media_type).toBe("image/png");
  });

  it("reports a clamped target in the plan's meta", async () => {
    const { deps } = fakeDeps();
    const { metas } = await runStages(deps, { ...INPUT, target_words: 400 }, ["recon", "plan"]);
    expect(metas.plan).toMatchObject({ target_words: 600, clamped: { requested: 400, used: 600 } });
  });

  it("says in the research meta how many sources deep research read, and how many queries it asked per section", async () => {
    const { deps } = fakeDeps();
    const { state, metas } = await runStages(deps, { ...INPUT, mode: "deep_research" }, ["recon", "plan", "research"]);
    const brandSources = new Set((state.evidence as Evidence[]).filter((e) => e.origin === "brand").map((e) => e.url));
    expect(brandSources.size).toBeGreaterThan(0);
    expect(metas.research).toMatchObject({ depth: "deep_research", queries_per_section: 3, sources_read: brandSources.size, pages_fetched: 0 });
    const standard = await runStages(fakeDeps().deps, INPUT, ["recon", "plan", "research"]);
    expect(standard.metas.research).toMatchObject({ depth: "standard", queries_per_section: 1 });
  });

  it("refuses an unknown stage and stages run out of order", async () => {
    const { deps } = fakeDeps();
    const call = (stage: string): StageCallParams => ({ job_id: JOB_ID, org_id: ORG_ID, type: "article", stage, stage_index: 0, fence: 1, input: INPUT, state: {} });
    await expect(runArticleStage(deps, call("publish"))).rejects.toThrow('unknown article stage "publish"');
    await expect(runArticleStage(deps, call("draft"))).rejects.toThrow("the job state has no brief: stages ran out of order");
  });

  it("falls back to rules when the model's answer is not the JSON asked for, and still meters it", async () => {
    const complete: CompleteFn = async () => ({ text: "Sure! The intent is probably informational.", tokensIn: 120, tokensOut: 9 });
    const { deps, tokens } = fakeDeps({ complete });
    const { metas } = await runStages(deps, INPUT, ["recon"]);
    expect(metas.recon).toMatchObject({ decided_by: "rules", model_calls: 1, tokens_in: 120, tokens_out: 9 });
    expect(tokens).toEqual([[120, 9]]);
  });

  it("fails the stage with the model's failure when the model cannot be reached", async () => {
    const complete: CompleteFn = async () => {
      throw new Error("socket hang up");
    };
    const { deps } = fakeDeps({ complete, modelRetries: 2 });
    await expect(runStages(deps, INPUT, ["recon"])).rejects.toThrow("The model request failed: socket hang up");
  });
});
