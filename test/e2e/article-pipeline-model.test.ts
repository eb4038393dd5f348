import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { articleModelResponder, startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai";
import { ROUTE_PLANNING_PAGES, startFakeSearxng, type FakeSearxng } from "../support/fake-searxng";
import { client } from "../support/http";
import { waitForJob } from "../support/jobs";
import { jobEventSource } from "../support/sse";
import { waitFor } from "../support/wait";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";

const UNSUPPORTED = "Route planning was invented on the Moon in 1802 by a crew of astronauts.";
const ARTICLE = { topic: "Route planning for field service teams", target_keyword: "route planning", target_words: 800 };

/** The platform with the model writer (a fake OpenAI-compatible server) and web research (a fake SearxNG and its site). */
describe("article pipeline: model writer and web research over HTTP", () => {
  let platform: PlatformProcess;
  let model: FakeOpenAI;
  let search: FakeSearxng;

  beforeAll(async () => {
    model = await startFakeOpenAI({ chat: articleModelResponder() });
    search = await startFakeSearxng();
    platform = await spawnPlatform({
      env: {
        ADMIN_TOKEN,
        DATA_DIR: tempDir("e2e-article-model"),
        EMBEDDED_MONGO_IN_MEMORY: "true",
        JOB_POLL_MS: "200",
        LLM_BASE_URL: model.baseURL,
        LLM_API_KEY: "sk-test-article",
        LLM_MODEL: "gpt-test",
        LLM_MAX_RETRIES: "2",
        SEARCH_PROVIDER: "searxng",
        SEARXNG_URL: search.url,
      },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await model?.close();
    await search?.close();
  });

  async function newOrg() {
    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 100 });
    const api = client(platform.url, key);
    const usage = async () => (await api("/v1/usage?days=1")).body;
    return { key, api, usage };
  }

  it("meters every model call's tokens and researches the web through the guard", async () => {
    const { key, api, usage } = await newOrg();
    const from = model.requests.length;
    const created = await api("/v1/articles", { method: "POST", body: ARTICLE });
    expect(created.status).toBe(202);
    const job = await waitForJob(platform.url, key, created.body.id);
    expect(job.error).toBeNull();
    expect(job.status).toBe("succeeded");

    const calls = model.requests.slice(from).filter((r) => r.path === "/v1/chat/completions");
    expect(calls.length).toBeGreaterThanOrEqual(7);
    expect(calls.every((c) => c.authorization === "Bearer sk-test-article" && c.body.model === "gpt-test")).toBe(true);
    const today = (await usage()).daily.at(-1);
    expect(today.tokens_in).toBe(calls.reduce((n, c) => n + c.usage!.prompt_tokens, 0));
    expect(today.tokens_out).toBe(calls.reduce((n, c) => n + c.usage!.completion_tokens, 0));

    const meta = Object.fromEntries(job.stages.map((s: any) => [s.key, s.meta]));
    expect(meta.recon).toMatchObject({ decided_by: "model", model_calls: 1 });
    expect(meta.plan).toMatchObject({ planned_by: "model" });
    expect(meta.draft).toMatchObject({ writer: "model" });
    expect(meta.edit).toMatchObject({ checked_by: "model", removed_unsupported: 0 });
    expect(meta.seo).toMatchObject({ by: "model" });
    expect(meta.research.web_passages).toBeGreaterThan(5);
    expect(meta.research.pages_failed).toBeGreaterThan(0);
    expect(search.searches.every((s) => s.format === "json" && s.language === "en")).toBe(true);

    // Every citation points at a page of the site, and its claim is text of that page.
    const article = (await api(`/v1/articles/${job.result.article_id}`)).body;
    expect(article.citations.length).toBeGreaterThan(5);
    for (const citation of article.citations) {
      const page = ROUTE_PLANNING_PAGES.find((p) => citation.url === `${search.siteUrl}${p.path}`);
      expect(page).toBeDefined();
      expect(page!.sections.flatMap((s) => s.paragraphs).join(" ")).toContain(citation.claim);
    }
    expect(article.title).toContain("Route planning");
  });

  it("removes a claim its evidence does not support", async () => {
    model.setChat(articleModelResponder({ unsupportedClaim: UNSUPPORTED }));
    try {
      const { key, api } = await newOrg();
      const created = await api("/v1/articles", { method: "POST", body: ARTICLE });
      const job = await waitForJob(platform.url, key, created.body.id);
      expect(job.status).toBe("succeeded");
      const written = model.chatRequests().some((r) => typeof r.body.messages[1]?.content === "string" && r.body.messages[1].content.includes("CLAIM: Route planning was invented on the Moon"));
      expect(written).toBe(true);
      const edit = job.stages.find((s: any) => s.key === "edit").meta;
      expect(edit.removed_unsupported).toBeGreaterThanOrEqual(1);
      expect(edit.removed).toEqual(expect.arrayContaining([expect.objectContaining({ claim: UNSUPPORTED, reason: "unsupported" })]));
      const article = (await api(`/v1/articles/${job.result.article_id}`)).body;
      expect(article.content_markdown).not.toContain("Moon");
      expect(JSON.stringify(article)).not.toContain("astronauts");
    } finally {
      model.setChat(articleModelResponder());
    }
  });

  it("fails the job when the model keeps answering 500, and restores the balance exactly", async () => {
    model.setChat(() => ({ status: 500, headers: { "retry-after-ms": "5" } }));
    try {
      const { key, api, usage } = await newOrg();
      const before = (await usage()).credit_balance;
      const from = model.requests.length;
      const created = await api("/v1/articles", { method: "POST", body: ARTICLE });
      expect(created.body.credits_charged).toBe(10);
      const job = await waitForJob(platform.url, key, created.body.id);
      expect(job.status).toBe("failed");
      expect(job.error).toBe("Understanding the topic and brand failed: The model request failed after 2 retries: 500 Internal Server Error");
      expect(model.requests.slice(from).filter((r) => r.path === "/v1/chat/completions")).toHaveLength(3);
      expect((await usage()).credit_balance).toBe(before);
    } finally {
      model.setChat(articleModelResponder());
    }
  });

  // Last in this file: the 429s pause the platform's new model calls for a second each.
  it("fails the job when the model keeps answering 429, after waiting what Retry-After asks, and restores the balance exactly", async () => {
    model.setChat(() => ({ status: 429, headers: { "retry-after": "1" } }));
    try {
      const { key, api, usage } = await newOrg();
      const before = (await usage()).credit_balance;
      const from = model.requests.length;
      const created = await api("/v1/articles", { method: "POST", body: ARTICLE });
      expect(created.body.credits_charged).toBe(10);
      const job = await waitForJob(platform.url, key, created.body.id);
      expect(job.status).toBe("failed");
      expect(job.error).toBe("Understanding the topic and brand failed: The model request failed after 2 retries: 429 Rate limit reached");
      const calls = model.requests.slice(from).filter((r) => r.path === "/v1/chat/completions");
      expect(calls).toHaveLength(3);
      // Each retry came after the second the provider asked for (generous bound: timers and scheduling).
      for (let i = 1; i < calls.length; i++) expect(calls[i].receivedAt - calls[i - 1].answeredAt!).toBeGreaterThanOrEqual(900);
      expect((await usage()).credit_balance).toBe(before);
    } finally {
      model.setChat(articleModelResponder());
    }
  });

  it("writes the sections side by side, the search metadata beside them, and the live events show both stages running", async () => {
    model.setDelay(400);
    try {
      const { key, api } = await newOrg();
      const from = model.requests.length;
      const created = await api("/v1/articles", { method: "POST", body: ARTICLE });
      const events = jobEventSource(`${platform.url}/v1/jobs/${created.body.id}/events`, key);
      const job = await waitForJob(platform.url, key, created.body.id);
      expect(job.status).toBe("succeeded");
      await waitFor(() => (events.events.some((e) => e.event === "job.succeeded") ? true : undefined), "the final event");
      events.close();

      // Every section's call was made before the first of them was answered: one round trip for the draft.
      // (A thin section the edit researches again and rewrites comes after the draft's end: not counted.)
      const draftEnded = Date.parse(job.stages.find((s: any) => s.key === "draft").endedAt);
      const sectionCalls = model.requests
        .slice(from)
        .filter((r) => r.body?.messages?.[0]?.content.startsWith("You write one section") && r.receivedAt <= draftEnded);
      // One call per section the outline gave passages to (a section with none is not written).
      const outlineSize = job.stages.find((s: any) => s.key === "plan").meta.sections;
      expect(sectionCalls.length).toBe(outlineSize - job.stages.find((s: any) => s.key === "draft").meta.empty_sections.length);
      expect(sectionCalls.length).toBeGreaterThan(2);
      const firstAnswer = Math.min(...sectionCalls.map((c) => c.answeredAt!));
      expect(sectionCalls.every((c) => c.receivedAt < firstAnswer)).toBe(true);
      // Each passage went to one section only.
      const cited = sectionCalls.map((c) => [...String(c.body.messages[1].content).matchAll(/^\[(e\d+)\]/gm)].map((m) => m[1]));
      expect(cited.every((ids) => ids.length > 0)).toBe(true);
      expect(new Set(cited.flat()).size).toBe(cited.flat().length);

      const stage = (key: string) => job.stages.find((s: any) => s.key === key);
      expect(Date.parse(stage("seo").startedAt)).toBeLessThan(Date.parse(stage("draft").endedAt));
      const overlapping = events.events.filter((e) => e.data.stages?.filter((s: any) => s.status === "running").length >= 2);
      expect(overlapping.length).toBeGreaterThan(0);
      expect(overlapping.some((e) => ["draft", "seo"].every((k) => e.data.stages.find((s: any) => s.key === k).status === "running"))).toBe(true);
    } finally {
      model.setDelay(0);
    }
  });
});
