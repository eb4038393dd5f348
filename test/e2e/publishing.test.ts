import { randomBytes, randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import type { GeneratedArticle, GeneratedArticleResult } from "../../shared/schemas/articles";
import { ADMIN_TOKEN, type Cluster } from "../support/cluster";
import { startFakeContentful, type FakeContentful } from "../support/fake-cms/contentful";
import { startFakeGhost, type FakeGhost } from "../support/fake-cms/ghost";
import { startFakeSanity, type FakeSanity } from "../support/fake-cms/sanity";
import { startFakeStrapi, type FakeStrapi } from "../support/fake-cms/strapi";
import { startFakeWordPress, type FakeWordPress } from "../support/fake-cms/wordpress";
import { generatedArticle as storedArticle } from "../support/generated-article";
import { client, request } from "../support/http";
import { OpenApiContract } from "../support/openapi-contract";
import type { PlatformProcess } from "../support/platform";
import { startPlatformCluster, type PlatformCluster } from "../support/platform-cluster";
import { TITLE_CARD_PNG } from "../support/title-card";

/**
 * Publishing through our HTTP API to a local fake of each kind that speaks the vendor's wire format
 * and refuses wrong credentials and shapes (test/support/fake-cms).
 */

const WP_PASSWORD = "abcd EFGH 1234 ijkl MNOP 5678";
const STRAPI_TOKEN = `strapi-${randomBytes(16).toString("hex")}`;
const CONTENTFUL_TOKEN = `CFPAT-${randomBytes(16).toString("hex")}`;
const SANITY_TOKEN = `sk${randomBytes(20).toString("hex")}`;
const ENCRYPTION_KEY = `k1:${randomBytes(32).toString("base64")}`;

/** The shared stored-article fixture, with what publishing needs: markdown with emphasis and a list, the offline cover (the 1200 × 630 PNG title card), no derivatives. */
function generatedArticle(orgId: string, overrides: Partial<GeneratedArticle> = {}): GeneratedArticle {
  return storedArticle(orgId, {
    content_markdown: "# Home Composting\n\nComposting turns **kitchen scraps** into soil [1](https://example.org/compost).\n\n## Getting started\n\n- Pick a shady spot.\n- Mix greens and browns.",
    json_ld: { "@context": "https://schema.org", "@type": "Article" },
    image: { alt: "A compost bin", media_type: "image/png", data_base64: TITLE_CARD_PNG.toString("base64"), width: 1200, height: 630 },
    derivatives: {},
    ...overrides,
  });
}

describe("publishing to content systems over HTTP", () => {
  let cluster: Cluster;
  let platform: PlatformProcess;
  let broker: ServiceBroker;
  let newOrg: PlatformCluster["newOrg"];
  let wp: FakeWordPress;
  let ghost: FakeGhost;
  let strapi: FakeStrapi;
  let contentful: FakeContentful;
  let sanity: FakeSanity;
  const admin = (path: string, opts: { method?: string; body?: unknown } = {}) => request(platform.url, path, { token: ADMIN_TOKEN, ...opts });
  let contract: OpenApiContract;

  beforeAll(async () => {
    wp = await startFakeWordPress({ username: "editor", applicationPassword: WP_PASSWORD });
    ghost = await startFakeGhost();
    strapi = await startFakeStrapi({ token: STRAPI_TOKEN, collection: "articles", attributes: ["title", "slug", "content", "description", "cover"] });
    contentful = await startFakeContentful({
      token: CONTENTFUL_TOKEN,
      spaceId: "space1",
      environmentId: "master",
      contentTypeId: "blogPost",
      locale: "en-US",
      fields: ["title", "slug", "body", "excerpt", "coverImage", "seoTitle", "seoDescription", "tags"],
    });
    sanity = await startFakeSanity({ token: SANITY_TOKEN, projectId: "proj1", dataset: "production" });
    ({ cluster, platform, broker, newOrg } = await startPlatformCluster({
      PIPELINE_CONCURRENCY: "0",
      INTEGRATIONS_ENCRYPTION_KEYS: ENCRYPTION_KEY,
      CONTENTFUL_API_BASE_URL: contentful.url,
      CONTENTFUL_UPLOAD_BASE_URL: contentful.url,
      SANITY_API_BASE_URL: sanity.hostTemplate,
      PUBLISH_REQUEST_TIMEOUT_MS: "1500",
      PUBLISH_DEADLINE_MS: "8000",
      PUBLISH_MAX_RETRIES: "2",
    }));
    contract = new OpenApiContract((await request(platform.url, "/v1/openapi.json")).body);
  });

  afterAll(async () => {
    await cluster?.stop();
    await Promise.all([wp, ghost, strapi, contentful, sanity].map((s) => s?.close()));
  });

  /** A saved article, approved through the review lifecycle so it can be published live. */
  async function approvedArticle(orgId: string, api: ReturnType<typeof client>, overrides: Partial<GeneratedArticle> = {}): Promise<string> {
    const { article_id } = await broker.call<GeneratedArticleResult, GeneratedArticle>("articles.saveGenerated", generatedArticle(orgId, overrides));
    for (const status of ["in_review", "approved"]) expect(contract.check("PATCH", "/v1/articles/{id}", await api(`/v1/articles/${article_id}`, { method: "PATCH", body: { status } })).status).toBe(200);
    return article_id;
  }

  async function integration(orgId: string, body: Record<string, unknown>): Promise<string> {
    const res = await admin(`/admin/orgs/${orgId}/integrations`, { method: "POST", body });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** A new organization with an approved article and an integration created from `body`: what most publishing tests start from. */
  async function publishable(body: Record<string, unknown>) {
    const { orgId, api } = await newOrg();
    const articleId = await approvedArticle(orgId, api);
    return { orgId, api, articleId, integrationId: await integration(orgId, body) };
  }

  /**
   * POST /v1/articles/{id}/publish as `api` with `body` (an integration id and as_draft, or anything to validate);
   * every answer, success or error, must be one the OpenAPI document describes.
   */
  const publish = async (api: ReturnType<typeof client>, articleId: string, body: Record<string, unknown>) =>
    contract.check("POST", "/v1/articles/{id}/publish", await api(`/v1/articles/${articleId}/publish`, { method: "POST", body }));

  const wordpressBody = (password = WP_PASSWORD) => ({ kind: "wordpress", name: "Blog", site_url: wp.url + "/", username: "editor", application_password: password });

  describe("integrations", () => {
    it("are created per kind, listed with a masked hint only, tested, and deleted", async () => {
      const { orgId } = await newOrg();
      const created = await admin(`/admin/orgs/${orgId}/integrations`, { method: "POST", body: wordpressBody() });
      expect(created.status).toBe(201);
      expect(created.headers.get("location")).toBe(`/admin/orgs/${orgId}/integrations`);
      expect(created.body).toEqual({
        id: expect.any(String),
        object: "integration",
        org_id: orgId,
        kind: "wordpress",
        name: "Blog",
        settings: { site_url: wp.url, username: "editor" },
        credentials_hint: "••••5678",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const ghostId = await integration(orgId, { kind: "ghost", name: "Ghost", site_url: ghost.url, admin_api_key: ghost.adminApiKey });
      const list = await admin(`/admin/orgs/${orgId}/integrations`);
      expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([ghostId, created.body.id]);
      expect(list.text).not.toContain(WP_PASSWORD);
      expect(list.text).not.toContain(ghost.secret);

      expect((await admin(`/admin/integrations/${created.body.id}/test`, { method: "POST" })).body).toEqual({ object: "integration_test", ok: true, status: 200, message: "authenticated as editor" });
      expect((await admin(`/admin/integrations/${ghostId}/test`, { method: "POST" })).body).toMatchObject({ ok: true, status: 200 });

      const wrong = await integration(orgId, wordpressBody("wrong password 0000"));
      const failed = await admin(`/admin/integrations/${wrong}/test`, { method: "POST" });
      expect(failed.body).toEqual({ object: "integration_test", ok: false, status: 401, message: "incorrect_password: The provided password is an invalid application password." });

      expect((await admin(`/admin/integrations/${wrong}`, { method: "DELETE" })).body).toEqual({ id: wrong, object: "integration", deleted: true });
      expect((await admin(`/admin/integrations/${wrong}`, { method: "DELETE" })).status).toBe(404);
    });

    it("refuses bad bodies with the field named, and unknown organizations", async () => {
      const { orgId } = await newOrg();
      const cases: [Record<string, unknown>, string][] = [
        [{ kind: "blogger", name: "x" }, "kind: must be one of wordpress, ghost, contentful, sanity, strapi"],
        [{ ...wordpressBody(), site_url: "ftp://example.com" }, "site_url: must be an http(s) URL"],
        [{ ...wordpressBody(), application_password: "" }, "application_password"],
        [{ kind: "ghost", name: "g", site_url: ghost.url, admin_api_key: "not-a-key" }, "admin_api_key: must be a Ghost Admin API key"],
        [{ kind: "strapi", name: "s", site_url: strapi.url, api_token: STRAPI_TOKEN, collection: "Articles!" }, "collection"],
        [{ ...wordpressBody(), extra: 1 }, "extra"],
      ];
      for (const [body, message] of cases) {
        const res = await admin(`/admin/orgs/${orgId}/integrations`, { method: "POST", body });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("invalid_request");
        expect(res.body.error.message).toContain(message);
      }
      expect((await admin(`/admin/orgs/${randomUUID()}/integrations`, { method: "POST", body: wordpressBody() })).status).toBe(404);
    });
  });

  describe("WordPress", () => {
    it("publishes, updates the same post on re-publish, uploads the cover once, and records the publication", async () => {
      const { api, articleId, integrationId } = await publishable(wordpressBody());

      const first = await publish(api, articleId, { integration_id: integrationId });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        object: "publish",
        status: "published",
        external_id: expect.any(String),
        external_url: `${wp.url}/home-composting-guide/`,
        integration_id: integrationId,
        kind: "wordpress",
        as_draft: false,
        published_at: expect.any(String),
      });
      const post = wp.posts.get(Number(first.body.external_id));
      expect(post).toMatchObject({ title: "Home Composting: A Practical Guide", slug: "home-composting-guide", status: "publish", excerpt: "How to compost at home, step by step." });
      expect(post.content).toContain("<strong>kitchen scraps</strong>");
      expect([...wp.tags.values()]).toEqual(["home composting"]);
      expect(post.tags).toEqual([...wp.tags.keys()]);
      expect(wp.media.get(post.featured_media)).toMatchObject({ mediaType: "image/png", filename: "home-composting-guide.png", alt: "A compost bin" });
      expect(wp.media.get(post.featured_media)!.bytes.equals(TITLE_CARD_PNG)).toBe(true);

      const article = contract.check("GET", "/v1/articles/{id}", await api(`/v1/articles/${articleId}`));
      expect(article.body.status).toBe("published");
      expect(article.body.publications).toEqual([
        { integration_id: integrationId, kind: "wordpress", external_id: first.body.external_id, external_url: first.body.external_url, status: "published", published_at: first.body.published_at },
      ]);

      await api(`/v1/articles/${articleId}`, { method: "PATCH", body: { title: "Home Composting, Revised" } });
      const again = await publish(api, articleId, { integration_id: integrationId });
      expect(again.status).toBe(200);
      expect(again.body.external_id).toBe(first.body.external_id);
      expect(wp.posts.size).toBe(1);
      expect(wp.media.size).toBe(1);
      expect(wp.posts.get(Number(first.body.external_id)).title).toBe("Home Composting, Revised");
      expect((await api(`/v1/articles/${articleId}`)).body.publications).toHaveLength(1);
    });

    it("publishes as a draft without moving the article's status, from any status", async () => {
      const { orgId, api } = await newOrg();
      const { article_id } = await broker.call<GeneratedArticleResult, GeneratedArticle>("articles.saveGenerated", generatedArticle(orgId));
      const integrationId = await integration(orgId, wordpressBody());

      const live = await publish(api, article_id, { integration_id: integrationId });
      expect(live.status).toBe(400);
      expect(live.body.error.message).toContain("approve it first");
      expect(wp.posts.size).toBeGreaterThanOrEqual(0);

      const draft = await publish(api, article_id, { integration_id: integrationId, as_draft: true });
      expect(draft.status).toBe(200);
      expect(draft.body.as_draft).toBe(true);
      expect(wp.posts.get(Number(draft.body.external_id)).status).toBe("draft");
      const article = (await api(`/v1/articles/${article_id}`)).body;
      expect(article.status).toBe("draft");
      expect(article.publications[0]).toMatchObject({ status: "draft", external_id: draft.body.external_id });
    });

    it("has its cover refused, like WordPress would, when the bytes are not the image they claim to be (502, nothing changes)", async () => {
      const { orgId, api } = await newOrg();
      const notAPng = Buffer.from("GIF89a not really a png").toString("base64");
      const articleId = await approvedArticle(orgId, api, { image: { alt: "Fake", media_type: "image/png", data_base64: notAPng, width: 1200, height: 630 } });
      const integrationId = await integration(orgId, wordpressBody());
      const mediaBefore = wp.media.size;
      const refused = await publish(api, articleId, { integration_id: integrationId });
      expect(refused.status).toBe(502);
      expect(refused.body.error.message).toBe("Publishing to WordPress failed: upstream status 500: rest_upload_sideload_error: Sorry, you are not allowed to upload this file type.");
      expect(wp.media.size).toBe(mediaBefore);
      expect((await api(`/v1/articles/${articleId}`)).body).toMatchObject({ status: "approved", publications: [] });
    });

    it("recreates a post deleted upstream", async () => {
      const { api, articleId, integrationId } = await publishable(wordpressBody());
      const first = await publish(api, articleId, { integration_id: integrationId });
      wp.posts.delete(Number(first.body.external_id));
      const second = await publish(api, articleId, { integration_id: integrationId });
      expect(second.status).toBe(200);
      expect(second.body.external_id).not.toBe(first.body.external_id);
      expect(wp.posts.has(Number(second.body.external_id))).toBe(true);
      expect((await api(`/v1/articles/${articleId}`)).body.publications).toEqual([expect.objectContaining({ external_id: second.body.external_id })]);
    });

    it("makes one post from two concurrent publishes", async () => {
      const { api, articleId, integrationId } = await publishable(wordpressBody());
      const before = wp.posts.size;
      const [a, b] = await Promise.all([1, 2].map(() => publish(api, articleId, { integration_id: integrationId })));
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body.external_id).toBe(b.body.external_id);
      expect(wp.posts.size).toBe(before + 1);
    });

    it("answers 502 publish_failed with the upstream status and reason, and changes nothing", async () => {
      const { orgId, api } = await newOrg();
      const articleId = await approvedArticle(orgId, api);
      const bad = await integration(orgId, wordpressBody("wrong password 0000"));
      const unauthorized = await publish(api, articleId, { integration_id: bad });
      expect(unauthorized.status).toBe(502);
      expect(unauthorized.body.error).toEqual({
        code: "publish_failed",
        message: "Publishing to WordPress failed: upstream status 401: incorrect_password: The provided password is an invalid application password.",
      });

      const good = await integration(orgId, wordpressBody());
      wp.fail({ match: /^POST \/wp-json\/wp\/v2\/posts$/, times: 1, reply: { status: 422, body: { code: "rest_invalid_param", message: "Invalid parameter(s): slug", data: { status: 422 } } } });
      const invalid = await publish(api, articleId, { integration_id: good });
      expect(invalid.status).toBe(502);
      expect(invalid.body.error.message).toBe("Publishing to WordPress failed: upstream status 422: rest_invalid_param: Invalid parameter(s): slug");

      const serverError = { status: 500, body: { code: "internal_server_error", message: "There has been a critical error on this website.", data: { status: 500 } } };
      wp.fail({ match: /^POST \/wp-json\/wp\/v2\/posts$/, times: 3, reply: serverError });
      const down = await publish(api, articleId, { integration_id: good });
      expect(down.status).toBe(502);
      expect(down.body.error.message).toBe("Publishing to WordPress failed: upstream status 500: internal_server_error: There has been a critical error on this website.");

      wp.fail({ match: /^POST \/wp-json\/wp\/v2\/posts$/, times: 1, hang: true });
      const slow = await publish(api, articleId, { integration_id: good });
      expect(slow.status).toBe(502);
      expect(slow.body.error.message).toMatch(/^Publishing to WordPress failed: no answer: timed out: .*no complete response within 1500 ms$/);

      const article = (await api(`/v1/articles/${articleId}`)).body;
      expect(article.status).toBe("approved");
      expect(article.publications).toEqual([]);
    });

    it("retries a 503 after its Retry-After and then succeeds", async () => {
      const { api, articleId, integrationId } = await publishable(wordpressBody());
      const before = wp.requests.length;
      wp.fail({ match: /^POST \/wp-json\/wp\/v2\/posts$/, times: 1, reply: { status: 503, headers: { "retry-after": "1" }, body: { code: "maintenance", message: "Briefly unavailable", data: { status: 503 } } } });
      const res = await publish(api, articleId, { integration_id: integrationId });
      expect(res.status).toBe(200);
      const posts = wp.requests.slice(before).filter((r) => r.method === "POST" && r.path === "/wp-json/wp/v2/posts");
      expect(posts).toHaveLength(2);
    });

    it("refuses an address the URL guard forbids when the integration is created", async () => {
      const { orgId } = await newOrg();
      for (const site_url of ["http://169.254.169.254", "http://10.0.0.8", "http://metadata.google.internal"]) {
        const res = await admin(`/admin/orgs/${orgId}/integrations`, { method: "POST", body: { ...wordpressBody(), site_url } });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^site_url: /);
      }
    });

    it("treats another organization's article or integration as not found, and validates the body", async () => {
      const mine = await newOrg();
      const theirs = await newOrg();
      const myArticle = await approvedArticle(mine.orgId, mine.api);
      const theirIntegration = await integration(theirs.orgId, wordpressBody());
      const theirArticle = await approvedArticle(theirs.orgId, theirs.api);
      const myIntegration = await integration(mine.orgId, wordpressBody());

      const foreignIntegration = await publish(mine.api, myArticle, { integration_id: theirIntegration });
      expect(foreignIntegration.status).toBe(404);
      expect(foreignIntegration.body.error).toEqual({ code: "not_found", message: "No such integration." });
      expect((await publish(mine.api, theirArticle, { integration_id: myIntegration })).status).toBe(404);
      expect((await publish(mine.api, randomUUID(), { integration_id: myIntegration })).status).toBe(404);
      expect((await admin(`/admin/orgs/${mine.orgId}/integrations`)).body.data.map((i: { id: string }) => i.id)).toEqual([myIntegration]);

      for (const body of [{}, { integration_id: "nope" }, { integration_id: myIntegration, as_draft: "yes" }, { integration_id: myIntegration, extra: true }]) {
        const res = await publish(mine.api, myArticle, body);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe("invalid_request");
      }
    });
  });

  describe("Ghost", () => {
    it("publishes with a signed Admin API token, uploads the cover, updates on re-publish, and reports Ghost's errors", async () => {
      const { orgId, api, articleId, integrationId } = await publishable({ kind: "ghost", name: "Ghost", site_url: ghost.url, admin_api_key: ghost.adminApiKey });
      const first = await publish(api, articleId, { integration_id: integrationId });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ kind: "ghost", external_url: `${ghost.url}/home-composting-guide/` });
      const post = ghost.posts.get(first.body.external_id);
      expect(post).toMatchObject({
        title: "Home Composting: A Practical Guide",
        status: "published",
        slug: "home-composting-guide",
        custom_excerpt: "How to compost at home, step by step.",
        meta_title: "Home Composting Guide",
        meta_description: "How to compost at home, step by step.",
        feature_image: `${ghost.url}/content/images/home-composting-guide.png`,
        feature_image_alt: "A compost bin",
        tags: [{ name: "home composting" }],
      });
      expect(post.html).toContain("<h2>Getting started</h2>");
      expect(ghost.images.get("home-composting-guide.png")!.bytes.equals(TITLE_CARD_PNG)).toBe(true);

      const draft = await publish(api, articleId, { integration_id: integrationId, as_draft: true });
      expect(draft.body.external_id).toBe(first.body.external_id);
      expect(ghost.posts.size).toBe(1);
      expect(ghost.posts.get(first.body.external_id).status).toBe("draft");

      ghost.fail({ match: /^PUT /, times: 1, reply: { status: 422, body: { errors: [{ message: "Validation error, cannot edit post.", context: "Slug is already in use", type: "ValidationError" }] } } });
      const refused = await publish(api, articleId, { integration_id: integrationId });
      expect(refused.status).toBe(502);
      expect(refused.body.error.message).toBe("Publishing to Ghost failed: upstream status 422: ValidationError: Validation error, cannot edit post. (Slug is already in use)");

      const wrongKey = await integration(orgId, { kind: "ghost", name: "Ghost", site_url: ghost.url, admin_api_key: `${ghost.keyId}:${"0".repeat(64)}` });
      const unauthorized = await publish(api, articleId, { integration_id: wrongKey });
      expect(unauthorized.status).toBe(502);
      expect(unauthorized.body.error.message).toBe("Publishing to Ghost failed: upstream status 401: UnauthorizedError: Invalid token: invalid signature");
    });
  });

  describe("Strapi", () => {
    it("publishes to a collection, drafts with ?status=draft, uploads the cover, and updates by documentId", async () => {
      const { orgId, api, articleId, integrationId } = await publishable({ kind: "strapi", name: "Strapi", site_url: strapi.url, api_token: STRAPI_TOKEN, collection: "articles" });
      const first = await publish(api, articleId, { integration_id: integrationId, as_draft: true });
      expect(first.status).toBe(200);
      const entry = strapi.entries.get(first.body.external_id);
      expect(entry).toMatchObject({ title: "Home Composting: A Practical Guide", slug: "home-composting-guide", description: "How to compost at home, step by step.", publishedAt: null });
      expect(entry.content).toContain("**kitchen scraps**");
      expect(strapi.files.get(entry.cover)).toMatchObject({ name: "home-composting-guide.png", alternativeText: "A compost bin" });
      expect(first.body.external_url).toBe(`${strapi.url}/api/articles/${first.body.external_id}`);

      const live = await publish(api, articleId, { integration_id: integrationId });
      expect(live.body.external_id).toBe(first.body.external_id);
      expect(strapi.entries.size).toBe(1);
      expect(strapi.files.size).toBe(1);
      expect(strapi.entries.get(first.body.external_id).publishedAt).toEqual(expect.any(String));

      const unknownField = await integration(orgId, {
        kind: "strapi",
        name: "Strapi",
        site_url: strapi.url,
        api_token: STRAPI_TOKEN,
        collection: "articles",
        fields: { title: "headline", slug: null, body: "content", excerpt: null, cover_image: null },
      });
      const invalid = await publish(api, articleId, { integration_id: unknownField });
      expect(invalid.status).toBe(502);
      expect(invalid.body.error.message).toBe("Publishing to Strapi failed: upstream status 400: ValidationError: Invalid key headline");

      const wrongToken = await integration(orgId, { kind: "strapi", name: "Strapi", site_url: strapi.url, api_token: "not-the-token", collection: "articles" });
      const unauthorized = await publish(api, articleId, { integration_id: wrongToken });
      expect(unauthorized.body.error.message).toBe("Publishing to Strapi failed: upstream status 401: UnauthorizedError: Missing or invalid credentials");
    });
  });

  describe("Contentful", () => {
    it("creates a localized entry with rich text, an uploaded and published cover asset, publishes it, and updates with the version", async () => {
      const { orgId, api, articleId, integrationId } = await publishable({
        kind: "contentful",
        name: "Contentful",
        space_id: "space1",
        content_type_id: "blogPost",
        management_token: CONTENTFUL_TOKEN,
        fields: { title: "title", slug: "slug", body: "body", excerpt: "excerpt", meta_title: "seoTitle", meta_description: "seoDescription", cover_image: "coverImage", tags: "tags" },
      });
      const first = await publish(api, articleId, { integration_id: integrationId });
      expect(first.status).toBe(200);
      expect(first.body.external_url).toBe(`https://app.contentful.com/spaces/space1/environments/master/entries/${first.body.external_id}`);
      const entry = contentful.entries.get(first.body.external_id)!;
      expect(entry.sys.publishedVersion).toEqual(expect.any(Number));
      expect(entry.fields.title).toEqual({ "en-US": "Home Composting: A Practical Guide" });
      expect(entry.fields.tags).toEqual({ "en-US": ["home composting"] });
      expect(entry.fields.seoTitle).toEqual({ "en-US": "Home Composting Guide" });
      const body = entry.fields.body["en-US"];
      expect(body.nodeType).toBe("document");
      expect(body.content.map((n: { nodeType: string }) => n.nodeType)).toEqual(["heading-1", "paragraph", "heading-2", "unordered-list"]);
      const assetId = entry.fields.coverImage["en-US"].sys.id;
      const asset = contentful.assets.get(assetId)!;
      expect(asset.sys.publishedVersion).toEqual(expect.any(Number));
      expect(asset.fields.file["en-US"]).toMatchObject({ contentType: "image/png", fileName: "home-composting-guide.png" });
      expect(contentful.uploads.get(asset.fields.file["en-US"].uploadFrom.sys.id)!.equals(TITLE_CARD_PNG)).toBe(true);

      const draft = await publish(api, articleId, { integration_id: integrationId, as_draft: true });
      expect(draft.body.external_id).toBe(first.body.external_id);
      expect(contentful.entries.size).toBe(1);
      expect(contentful.assets.size).toBe(1);
      expect(contentful.entries.get(first.body.external_id)!.sys.publishedVersion).toBeUndefined();

      const unmapped = await integration(orgId, { kind: "contentful", name: "Contentful", space_id: "space1", content_type_id: "blogPost", management_token: CONTENTFUL_TOKEN, locale: "de-DE" });
      const invalid = await publish(api, articleId, { integration_id: unmapped });
      expect(invalid.status).toBe(502);
      expect(invalid.body.error.message).toMatch(/^Publishing to Contentful failed: upstream status 422: ValidationFailed: Validation error \(fields\.file\.de-DE|^Publishing to Contentful failed: upstream status 422: ValidationFailed/);
    });
  });

  describe("Sanity", () => {
    it("writes the document with Portable Text and an image asset, as draft then published, in one document id", async () => {
      const { orgId, api, articleId, integrationId } = await publishable({ kind: "sanity", name: "Sanity", project_id: "proj1", dataset: "production", api_token: SANITY_TOKEN, studio_url: "https://studio.example.com" });
      expect((await admin(`/admin/integrations/${integrationId}/test`, { method: "POST" })).body).toMatchObject({ ok: true, status: 200 });

      const draft = await publish(api, articleId, { integration_id: integrationId, as_draft: true });
      expect(draft.status).toBe(200);
      const id = draft.body.external_id;
      expect(draft.body.external_url).toBe(`https://studio.example.com/intent/edit/id=${id};type=post`);
      expect([...sanity.documents.keys()]).toEqual([`drafts.${id}`]);
      const doc = sanity.documents.get(`drafts.${id}`);
      expect(doc).toMatchObject({ _type: "post", title: "Home Composting: A Practical Guide", slug: { _type: "slug", current: "home-composting-guide" }, tags: ["home composting"] });
      expect(doc.body[0]).toMatchObject({ _type: "block", style: "h1", children: [expect.objectContaining({ _type: "span", text: "Home Composting" })] });
      expect(doc.body.some((b: any) => b.listItem === "bullet")).toBe(true);
      expect(sanity.assets.get(doc.mainImage.asset._ref)!.bytes.equals(TITLE_CARD_PNG)).toBe(true);

      const live = await publish(api, articleId, { integration_id: integrationId });
      expect(live.body.external_id).toBe(id);
      expect([...sanity.documents.keys()]).toEqual([id]);

      const wrong = await integration(orgId, { kind: "sanity", name: "Sanity", project_id: "proj1", dataset: "production", api_token: "wrong-token-123" });
      const unauthorized = await publish(api, articleId, { integration_id: wrong });
      expect(unauthorized.status).toBe(502);
      expect(unauthorized.body.error.message).toBe("Publishing to Sanity failed: upstream status 401: Unauthorized: Session not found");
    });
  });

  describe("every kind", () => {
    it("answers 502 with the status and the vendor's reason after 5xx retries, and on a timeout, changing nothing", async () => {
      const { orgId, api } = await newOrg();
      const articleId = await approvedArticle(orgId, api);
      const kinds = [
        {
          label: "Ghost",
          fake: ghost as { fail: FakeWordPress["fail"] },
          write: /^POST \/ghost\/api\/admin\/posts\/$/,
          error: { errors: [{ message: "Internal server error, cannot save post.", context: null, type: "InternalServerError" }] },
          reason: "InternalServerError: Internal server error, cannot save post.",
          body: { kind: "ghost", name: "Ghost", site_url: ghost.url, admin_api_key: ghost.adminApiKey },
        },
        {
          label: "Strapi",
          fake: strapi,
          write: /^POST \/api\/articles$/,
          error: { data: null, error: { status: 500, name: "InternalServerError", message: "Internal Server Error", details: {} } },
          reason: "InternalServerError: Internal Server Error",
          body: { kind: "strapi", name: "Strapi", site_url: strapi.url, api_token: STRAPI_TOKEN, collection: "articles" },
        },
        {
          label: "Contentful",
          fake: contentful,
          write: /^POST \/spaces\/space1\/environments\/master\/entries$/,
          error: { sys: { type: "Error", id: "ServerError" }, message: "Internal server error" },
          reason: "ServerError: Internal server error",
          body: { kind: "contentful", name: "Contentful", space_id: "space1", content_type_id: "blogPost", management_token: CONTENTFUL_TOKEN },
        },
        {
          label: "Sanity",
          fake: sanity,
          write: /^POST \/proj1\/v2021-06-07\/data\/mutate\/production$/,
          error: { statusCode: 500, error: "Internal Server Error", message: "An internal server error occurred" },
          reason: "Internal Server Error: An internal server error occurred",
          body: { kind: "sanity", name: "Sanity", project_id: "proj1", dataset: "production", api_token: SANITY_TOKEN },
        },
      ];
      for (const kind of kinds) {
        const integrationId = await integration(orgId, kind.body);
        kind.fake.fail({ match: kind.write, times: 3, reply: { status: 500, body: kind.error } });
        const failed = await publish(api, articleId, { integration_id: integrationId });
        expect(failed.status).toBe(502);
        expect(failed.body.error).toEqual({ code: "publish_failed", message: `Publishing to ${kind.label} failed: upstream status 500: ${kind.reason}` });

        kind.fake.fail({ match: kind.write, times: 1, hang: true });
        const slow = await publish(api, articleId, { integration_id: integrationId });
        expect(slow.status).toBe(502);
        expect(slow.body.error.message).toMatch(new RegExp(`^Publishing to ${kind.label} failed: no answer: timed out: .*no complete response within 1500 ms$`));
      }
      const article = (await api(`/v1/articles/${articleId}`)).body;
      expect(article.status).toBe("approved");
      expect(article.publications).toEqual([]);
    });
  });

  describe("credentials", () => {
  it("never show in the process's output (run last, after every publish above)", async () => {
    const secrets = [WP_PASSWORD, ghost.secret, STRAPI_TOKEN, CONTENTFUL_TOKEN, SANITY_TOKEN, ENCRYPTION_KEY.split(":")[1]];
    const output = platform.output();
    for (const secret of secrets) expect(output).not.toContain(secret);
    expect(output).not.toContain(Buffer.from(`editor:${WP_PASSWORD}`).toString("base64"));
    expect(output).toContain("articles");
  });
  });
});
