import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { articleModelResponder, misbehavingArticleResponder, startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai";
import { pageAsMarkdown, ROUTE_PLANNING_PAGES } from "../support/fake-searxng";
import { client } from "../support/http";
import { waitForJob } from "../support/jobs";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";

const ARTICLE = { topic: "Route planning for field service teams", target_keyword: "route planning", target_words: 800, derivatives: ["x_thread", "linkedin", "newsletter"] };
const INVENTED = "Route planning cut fuel bills by 97% for every team in 2019.";
const FABRICATED = "https://fabricated.example/route-study";
const OFF_TOPIC = "Sourdough bread needs a starter fed with flour and water for a week before the first bake.";

/**
 * The model path on a brand profile made of the twelve field-service guides pasted as text (no web research; the
 * sections get only passages about them, and three pages left a misbehaving model's article under the length floor):
 * a model that writes from the evidence it is handed gets an article; one that misbehaves gets its invention,
 * its fabricated address and its off-topic section removed, is asked again once when it answers in another
 * language, and fails the job (credits back) when it keeps doing so. Its own "supported" verdicts count for
 * nothing the quotes do not confirm.
 */
describe("article pipeline: a misbehaving model on pasted sources", () => {
  let platform: PlatformProcess;
  let model: FakeOpenAI;
  let api: ReturnType<typeof client>;
  let key: string;
  let profileId: string;

  beforeAll(async () => {
    model = await startFakeOpenAI({ chat: articleModelResponder() });
    platform = await spawnPlatform({
      env: {
        ADMIN_TOKEN,
        DATA_DIR: tempDir("e2e-article-misbehaving"),
        EMBEDDED_MONGO_IN_MEMORY: "true",
        JOB_POLL_MS: "200",
        LLM_BASE_URL: model.baseURL,
        LLM_API_KEY: "sk-test-misbehaving",
        LLM_MODEL: "gpt-test",
        LLM_MAX_RETRIES: "0",
      },
    });
    ({ key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 500 }));
    api = client(platform.url, key);
    profileId = (await api("/v1/brand-profiles", { method: "POST", body: { name: "Field Ops Guides" } })).body.id;
    for (const page of ROUTE_PLANNING_PAGES) {
      const source = await api(`/v1/brand-profiles/${profileId}/sources`, { method: "POST", body: { type: "text", title: page.title, content: pageAsMarkdown(page) } });
      expect(source.status).toBe(202);
      expect((await waitForJob(platform.url, key, source.body.ingest_job_id)).status).toBe("succeeded");
    }
  });
  afterAll(async () => {
    await platform?.stop();
    await model?.close();
  });

  const balance = async () => (await api("/v1/usage?days=1")).body.credit_balance as number;

  it("writes an article from the pasted guide when the model writes from its evidence", async () => {
    model.setChat(articleModelResponder());
    const created = await api("/v1/articles", { method: "POST", body: { ...ARTICLE, brand_profile_id: profileId } });
    const job = await waitForJob(platform.url, key, created.body.id);
    expect(job.error).toBeNull();
    expect(job.status).toBe("succeeded");
    const article = (await api(`/v1/articles/${job.result.article_id}`)).body;
    // Pasted text without an address is named by its source id, never linked; the API shows its text.
    for (const citation of article.citations) {
      expect(citation.url).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
      expect(citation.quote.length).toBeGreaterThan(20);
    }
    expect(article.content_markdown).not.toMatch(/urn:uuid|\/v1\/brand-profiles/);
    const source = await api(`/v1/brand-profiles/${profileId}/sources/${article.citations[0].url.slice("urn:uuid:".length)}`);
    expect(source.status).toBe(200);
    expect(source.body.content).toContain(article.citations[0].quote.split(/\s+/).slice(0, 6).join(" "));
  });

  it("removes the invented claim, the fabricated address and the off-topic section, and asks again once for the language", async () => {
    model.setChat(
      misbehavingArticleResponder({
        inventedClaim: INVENTED,
        fabricatedAddress: FABRICATED,
        offTopicSection: { heading: "Arrival windows customers trust", text: OFF_TOPIC },
        wrongLanguage: "once",
        approveEverything: true,
      }),
    );
    const from = model.chatRequests().length;
    const created = await api("/v1/articles", { method: "POST", body: { ...ARTICLE, brand_profile_id: profileId } });
    const job = await waitForJob(platform.url, key, created.body.id);
    expect(job.error).toBeNull();
    expect(job.status).toBe("succeeded");

    const asked = model.chatRequests().slice(from).map((r) => String(r.body.messages[0]?.content ?? ""));
    expect(asked.filter((system) => system.includes("Write in English only"))).toHaveLength(1);
    const edit = job.stages.find((s: { key: string }) => s.key === "edit").meta;
    expect(edit.removed_unsupported).toBeGreaterThanOrEqual(1);
    // The section about something else goes: its passages do not hold it, whatever the model says of its own citation.
    expect(edit.removed).toEqual(expect.arrayContaining([expect.objectContaining({ claim: OFF_TOPIC, reason: expect.stringMatching(/^(unsupported|off_topic)$/) })]));

    const article = (await api(`/v1/articles/${job.result.article_id}`)).body;
    const everything = JSON.stringify(article);
    expect(everything).not.toContain("97%");
    expect(everything).not.toContain("fabricated.example");
    expect(everything).not.toContain("Sourdough");
    expect(everything).not.toContain("Routenplanung");
    // Every address anywhere in the article is one of the profile's sources (and it cites some).
    expect(article.citations.length).toBeGreaterThan(0);
    const addresses = everything.match(/https?:\/\/[^\s"')\]]+/g) ?? [];
    for (const address of addresses.filter((a) => !a.includes("/media/") && !a.startsWith("https://schema.org"))) {
      expect(address).toMatch(new RegExp(`/v1/brand-profiles/${profileId}/sources/[0-9a-f-]{36}`));
    }
  });

  it("fails the job and gives the credits back when the model keeps answering in another language", async () => {
    model.setChat(misbehavingArticleResponder({ wrongLanguage: "always" }));
    const before = await balance();
    const created = await api("/v1/articles", { method: "POST", body: { ...ARTICLE, brand_profile_id: profileId } });
    expect(created.body.credits_charged).toBe(13);
    const job = await waitForJob(platform.url, key, created.body.id);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^Writing the draft failed: The model wrote the section .+ in de twice, not in English \(en\)\.$/);
    expect(await balance()).toBe(before);
  });
});
