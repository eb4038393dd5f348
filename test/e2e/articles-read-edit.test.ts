import { randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { articleMetrics } from "../../shared/text/metrics";
import type { GeneratedArticle, GeneratedArticleResult } from "../../shared/schemas/articles";
import { generatedArticle } from "../support/generated-article";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, startCluster, type Cluster } from "../support/cluster";
import { client, request } from "../support/http";
import type { PlatformProcess } from "../support/platform";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><script>alert(1)</script><rect width="1200" height="630" fill="#2a6"/></svg>';
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");


/** Reading, editing and media over HTTP; articles are inserted the way the pipeline does it, through `saveGenerated`. */
describe("reading and editing articles over HTTP", () => {
  let cluster: Cluster;
  let platform: PlatformProcess;
  let broker: ServiceBroker;

  beforeAll(async () => {
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0" });
    platform = await cluster.spawn("gateway,auth,billing,articles,brand-knowledge,pipeline,webhooks");
    broker = await cluster.broker();
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  async function newOrg(credits = 0) {
    const org = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits });
    return { ...org, api: client(platform.url, org.key) };
  }

  const save = (article: GeneratedArticle) => broker.call<GeneratedArticleResult, GeneratedArticle>("articles.saveGenerated", article);
  const articleIdOf = async (article: GeneratedArticle) => (await save(article)).article_id;

  it("stores a generated article once per job and returns the job's result", async () => {
    const { orgId, api } = await newOrg();
    const generated = generatedArticle(orgId);
    const result = await save(generated);
    expect(result).toEqual({ article_id: expect.any(String), title: generated.title, word_count: 17, quality_score: 82, citations: 2 });
    expect(await save(generated)).toEqual(result);
    const list = await api("/v1/articles");
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([result.article_id]);
  });

  it("serves the full article, rendered safely, and the format variants", async () => {
    const { orgId, api } = await newOrg();
    const generated = generatedArticle(orgId);
    const id = await articleIdOf(generated);

    const full = await api(`/v1/articles/${id}`);
    expect(full.status).toBe(200);
    expect(full.body).toEqual({
      id,
      object: "article",
      status: "draft",
      mode: "standard",
      language: "en",
      topic: generated.topic,
      target_keyword: generated.target_keyword,
      brand_profile_id: null,
      job_id: generated.job_id,
      title: generated.title,
      slug: generated.slug,
      meta_title: generated.meta_title,
      meta_description: generated.meta_description,
      content_markdown: generated.content_markdown,
      content_html: expect.stringContaining("<h1>Home Composting</h1>"),
      citations: generated.citations,
      title_variants: generated.title_variants,
      faq: generated.faq,
      json_ld: generated.json_ld,
      word_count: 17,
      read_minutes: 1,
      flesch_score: 61.2,
      quality_score: 82,
      quality_breakdown: generated.quality_breakdown,
      derivatives: generated.derivatives,
      image: null,
      publications: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(full.body.content_html).toContain('<a href="https://example.org/compost" rel="noopener noreferrer nofollow">1</a>');
    expect(full.body.content_html).not.toContain("<script");

    const markdown = await api(`/v1/articles/${id}?format=markdown`);
    expect(markdown.body).not.toHaveProperty("content_html");
    expect(markdown.body.content_markdown).toBe(generated.content_markdown);
    const html = await api(`/v1/articles/${id}?format=html`);
    expect(html.body).not.toHaveProperty("content_markdown");
    expect(html.body.content_html).toBe(full.body.content_html);
    const bad = await api(`/v1/articles/${id}?format=pdf`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("format: must be 'markdown' or 'html'");
    expect((await api(`/v1/articles/${id}?fields=all`)).body.error.message).toBe("fields: unknown field");
  });

  it("reports another organization's article, and an unknown one, as not found", async () => {
    const owner = await newOrg();
    const id = await articleIdOf(generatedArticle(owner.orgId));
    const { api } = await newOrg();
    for (const r of [
      await api(`/v1/articles/${id}`),
      await api(`/v1/articles/${id}`, { method: "PATCH", body: { title: "Mine now" } }),
      await api(`/v1/articles/${randomUUID()}`),
      await api("/v1/articles/not-an-id"),
      await api(`/v1/articles?starting_after=${id}`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
    }
    expect((await owner.api(`/v1/articles/${id}`)).body.title).toBe("Home Composting: A Practical Guide");
  });

  it("lists newest first with summaries, a limit capped at 50, and refuses 0 or garbage", async () => {
    const { orgId, api } = await newOrg();
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push(await articleIdOf(generatedArticle(orgId, { title: `Article ${i}` })));
    const newestFirst = [...ids].reverse();

    const first = await api("/v1/articles");
    expect(first.status).toBe(200);
    expect(first.body.object).toBe("list");
    expect(first.body.has_more).toBe(true);
    expect(first.body.data.map((a: { id: string }) => a.id)).toEqual(newestFirst.slice(0, 20));
    expect(first.body.data[0]).toEqual({
      id: ids[51],
      object: "article",
      status: "draft",
      title: "Article 51",
      slug: "home-composting-guide",
      topic: "Composting at home",
      target_keyword: "home composting",
      mode: "standard",
      language: "en",
      word_count: 17,
      quality_score: 82,
      brand_profile_id: null,
      job_id: expect.any(String),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const capped = await api("/v1/articles?limit=500");
    expect(capped.body.data).toHaveLength(50);
    expect(capped.body.has_more).toBe(true);
    const rest = await api(`/v1/articles?limit=50&starting_after=${capped.body.data[49].id}`);
    expect(rest.body.data.map((a: { id: string }) => a.id)).toEqual(newestFirst.slice(50));
    expect(rest.body.has_more).toBe(false);

    for (const [query, message] of [
      ["limit=0", "limit: must be at least 1"],
      ["limit=ten", "limit: must be a whole number"],
      ["limit=-1", "limit: must be a whole number"],
      ["starting_after=nope", "starting_after: must be a UUID"],
    ]) {
      const r = await api(`/v1/articles?${query}`);
      expect([r.status, r.body.error.message]).toEqual([400, message]);
    }
  });

  it("pages with starting_after without repeating or losing items while new articles arrive", async () => {
    const { orgId, api } = await newOrg();
    const original: string[] = [];
    for (let i = 0; i < 7; i++) original.unshift(await articleIdOf(generatedArticle(orgId, { title: `Original ${i}` })));

    const seen: string[] = [];
    let cursor: string | undefined;
    let hasMore = true;
    while (hasMore) {
      const page = await api(`/v1/articles?limit=3${cursor ? `&starting_after=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((a: { id: string }) => a.id));
      hasMore = page.body.has_more;
      cursor = seen[seen.length - 1];
      await save(generatedArticle(orgId, { title: "Arrived while paging" }));
    }
    expect(seen).toEqual(original);
    expect((await api("/v1/articles?limit=50")).body.data).toHaveLength(7 + 3);
  });

  describe("PATCH", () => {
    it("refuses an empty body and out-of-bound fields, naming them", async () => {
      const { orgId, api } = await newOrg();
      const id = await articleIdOf(generatedArticle(orgId));
      const empty = await api(`/v1/articles/${id}`, { method: "PATCH", body: {} });
      expect([empty.status, empty.body.error.message]).toEqual([400, "body: must contain at least one of title, content_markdown, meta_title, meta_description, status"]);
      const noBody = await api(`/v1/articles/${id}`, { method: "PATCH" });
      expect(noBody.status).toBe(400);
      const tooLong = await api(`/v1/articles/${id}`, {
        method: "PATCH",
        body: { title: "t".repeat(301), content_markdown: "m".repeat(200_001), meta_title: "m".repeat(201), meta_description: "d".repeat(501), status: "archived", slug: "x" },
      });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.message.split("; ").sort()).toEqual(
        [
          "content_markdown: must be at most 200000 characters",
          "meta_description: must be at most 500 characters",
          "meta_title: must be at most 200 characters",
          "slug: unknown field",
          "status: must be one of draft, in_review, approved, published",
          "title: must be at most 300 characters",
        ].sort(),
      );
      // A code block: the longest markdown allowed, with no prose to measure.
      const longest = `\`\`\`\n${"x".repeat(200_000 - 8)}\n\`\`\``;
      expect(longest).toHaveLength(200_000);
      const atTheBounds = await api(`/v1/articles/${id}`, {
        method: "PATCH",
        body: { title: "t".repeat(300), content_markdown: longest, meta_title: "m".repeat(200), meta_description: "d".repeat(500) },
      });
      expect(atTheBounds.status).toBe(200);
      expect(atTheBounds.body).toMatchObject({ title: "t".repeat(300), word_count: 0, read_minutes: 1 });
      expect(atTheBounds.body.content_html.startsWith("<pre><code>xxx")).toBe(true);
    });

    it("re-renders new markdown and recomputes its metrics, free of charge", async () => {
      const { orgId, api } = await newOrg(30);
      const id = await articleIdOf(generatedArticle(orgId));
      const before = await api(`/v1/articles/${id}`);
      const markdown =
        "## Rewritten\n\nShort sentences help. Readers skim. They like lists.\n\n- [Guide](https://example.com/guide)\n- [Contact](mailto:hi@example.com)\n\n<img src=x onerror=alert(1)>\n\n[bad](javascript:alert(1))";
      const patched = await api(`/v1/articles/${id}`, { method: "PATCH", body: { content_markdown: markdown, title: "Rewritten guide", meta_description: "" } });
      expect(patched.status).toBe(200);
      const metrics = articleMetrics(markdown, "en");
      expect(patched.body).toMatchObject({ title: "Rewritten guide", meta_description: "", content_markdown: markdown, ...metrics, status: "draft", slug: "home-composting-guide" });
      expect(metrics.word_count).not.toBe(before.body.word_count);
      expect(patched.body.content_html).toContain("<h2>Rewritten</h2>");
      expect(patched.body.content_html).toContain('<a href="https://example.com/guide" rel="noopener noreferrer nofollow">Guide</a>');
      expect(patched.body.content_html).toContain('<a href="mailto:hi@example.com">Contact</a>');
      expect(patched.body.content_html).toContain("<p>&lt;img src=x onerror=alert(1)&gt;</p>");
      expect(patched.body.content_html).not.toMatch(/<img|<[^>]+\son\w+=|href="javascript/);
      expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.body.updated_at));
      expect(await api(`/v1/articles/${id}`)).toMatchObject({ body: patched.body });
      expect((await api("/v1/usage?days=1")).body.credit_balance).toBe(30);
    });

    it("moves the status along the lifecycle and refuses other moves naming from and to", async () => {
      const { orgId, api } = await newOrg();
      const id = await articleIdOf(generatedArticle(orgId));
      const move = (status: string) => api(`/v1/articles/${id}`, { method: "PATCH", body: { status } });

      const skip = await move("published");
      expect([skip.status, skip.body.error.message]).toEqual([400, "status: an article cannot move from draft to published (from draft it can move to in_review)"]);
      for (const status of ["in_review", "draft", "in_review", "approved", "published"]) {
        const r = await move(status);
        expect([status, r.status, r.body.status]).toEqual([status, 200, status]);
      }
      const back = await move("approved");
      expect([back.status, back.body.error.message]).toEqual([400, "status: an article cannot move from published to approved (from published it can move to draft)"]);
      expect((await move("published")).status).toBe(200);
      expect((await move("draft")).body.status).toBe("draft");
    });
  });

  describe("media", () => {
    it("serves a stored SVG cover publicly, with headers under which it cannot run script", async () => {
      const { orgId, api } = await newOrg();
      const generated = generatedArticle(orgId, {
        image: { alt: "A compost bin", media_type: "image/svg+xml", data_base64: Buffer.from(SVG).toString("base64"), width: 1200, height: 630 },
      });
      const id = await articleIdOf(generated);
      const { image } = (await api(`/v1/articles/${id}`)).body;
      const mediaPath = new URL(image.url).pathname;
      expect(image).toEqual({ url: `http://localhost:${new URL(platform.url).port}${mediaPath}`, alt: "A compost bin", media_type: "image/svg+xml", width: 1200, height: 630 });
      expect(mediaPath).toMatch(/^\/media\/[0-9a-f-]{36}$/);
      expect(await save(generated)).toMatchObject({ article_id: id });

      const res = await fetch(platform.url + mediaPath);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/svg+xml");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; style-src 'unsafe-inline'");
      expect(await res.text()).toBe(SVG);
    });

    it("serves raster bytes unchanged, and 404 for anything that is not a stored id", async () => {
      const { orgId, api } = await newOrg();
      const id = await articleIdOf(
        generatedArticle(orgId, { image: { alt: "Pixel", media_type: "image/png", data_base64: PNG.toString("base64"), width: 1, height: 1 } }),
      );
      const article = (await api(`/v1/articles/${id}`)).body;
      const mediaPath = new URL(article.image.url).pathname;
      // The JSON-LD and the HTML name the cover (its alt text escaped as an attribute).
      expect(article.json_ld).toEqual({ ...generatedArticle(orgId).json_ld, image: { "@type": "ImageObject", url: article.image.url, contentUrl: article.image.url, encodingFormat: "image/png", width: 1, height: 1, caption: "Pixel" } });
      expect(article.content_html.startsWith(`<figure class="article-cover"><img src="${article.image.url}" alt="Pixel" width="1" height="1"></figure>\n<h1>`)).toBe(true);
      const res = await fetch(platform.url + mediaPath);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("content-security-policy")).toBeNull();
      expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);

      for (const path of [`/media/${randomUUID()}`, "/media/not-an-id", `/media/${id}`]) {
        const missing = await request(platform.url, path);
        expect([path, missing.status, missing.body?.error?.code]).toEqual([path, 404, "not_found"]);
      }
    });
  });
});
