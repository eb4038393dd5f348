import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import type { GeneratedArticle, GeneratedArticleResult } from "../../shared/schemas/articles";
import { generatedArticle } from "../support/generated-article";
import { ADMIN_TOKEN, type Cluster } from "../support/cluster";
import { request } from "../support/http";
import type { PlatformProcess } from "../support/platform";
import { startPlatformCluster, type PlatformCluster } from "../support/platform-cluster";
import { TITLE_CARD_IMAGE, TITLE_CARD_PNG } from "../support/title-card";
import { startRealWordPress, type RealWordPress } from "../support/wordpress";

/**
 * A real WordPress 6.1 (Debian's files, PHP's built-in server, MariaDB on a private data dir),
 * installed by `npm test` through test/support/ensure-wordpress.sh. The platform publishes,
 * re-publishes and uploads the offline cover (the PNG title card: stock WordPress refuses SVG); the post
 * and its featured media are read back through WordPress's own REST API.
 */


describe("publishing to a real WordPress", () => {
  let wp: RealWordPress;
  let cluster: Cluster;
  let platform: PlatformProcess;
  let broker: ServiceBroker;
  let newOrg: PlatformCluster["newOrg"];

  beforeAll(async () => {
    let started: PlatformCluster;
    [wp, started] = await Promise.all([
      startRealWordPress(),
      startPlatformCluster({ PIPELINE_CONCURRENCY: "0", INTEGRATIONS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}` }),
    ]);
    ({ cluster, platform, broker, newOrg } = started);
    process.stdout.write(`WordPress started from nothing in ${wp.startMs} ms\n`);
  });

  afterAll(async () => {
    await cluster?.stop();
    await wp?.stop();
  });

  it("publishes with the cover as featured media, re-publishes to the same post, and WordPress serves both", async () => {
    const { api, ...org } = await newOrg();
    const generated = generatedArticle(org.orgId, {
      content_markdown: "# Home Composting\n\nComposting turns **kitchen scraps** into soil.\n\n## Getting started\n\nPick a shady spot.",
      image: TITLE_CARD_IMAGE,
      derivatives: {},
    });
    const { article_id } = await broker.call<GeneratedArticleResult, GeneratedArticle>("articles.saveGenerated", generated);
    for (const status of ["in_review", "approved"]) expect((await api(`/v1/articles/${article_id}`, { method: "PATCH", body: { status } })).status).toBe(200);

    const created = await request(platform.url, `/admin/orgs/${org.orgId}/integrations`, {
      method: "POST",
      token: ADMIN_TOKEN,
      body: { kind: "wordpress", name: "Real WordPress", site_url: wp.url, username: wp.username, application_password: wp.applicationPassword },
    });
    expect(created.status).toBe(201);
    const integrationId = created.body.id;
    expect((await request(platform.url, `/admin/integrations/${integrationId}/test`, { method: "POST", token: ADMIN_TOKEN })).body).toMatchObject({ ok: true, status: 200 });

    const first = await api(`/v1/articles/${article_id}/publish`, { method: "POST", body: { integration_id: integrationId } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: "publish", status: "published", kind: "wordpress", external_url: `${wp.url}/home-composting-guide/` });

    const post = await wp.get(`/wp-json/wp/v2/posts/${first.body.external_id}?context=edit`);
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({ status: "publish", slug: "home-composting-guide", title: { raw: "Home Composting: A Practical Guide" } });
    expect(post.body.content.raw).toContain("<strong>kitchen scraps</strong>");
    expect(post.body.excerpt.raw).toBe("How to compost at home, step by step.");
    const tags = await wp.get(`/wp-json/wp/v2/tags?include=${post.body.tags.join(",")}`);
    expect(tags.body.map((t: { name: string }) => t.name)).toEqual(["home composting"]);
    const media = await wp.get(`/wp-json/wp/v2/media/${post.body.featured_media}?context=edit`);
    expect(media.status).toBe(200);
    expect(media.body).toMatchObject({ mime_type: "image/png", alt_text: TITLE_CARD_IMAGE.alt, media_details: expect.objectContaining({ width: 1200, height: 630 }) });
    const bytes = Buffer.from(await (await fetch(media.body.source_url)).arrayBuffer());
    expect(bytes.equals(TITLE_CARD_PNG)).toBe(true);

    expect((await api(`/v1/articles/${article_id}`, { method: "PATCH", body: { title: "Home Composting, Revised" } })).status).toBe(200);
    const again = await api(`/v1/articles/${article_id}/publish`, { method: "POST", body: { integration_id: integrationId } });
    expect(again.status).toBe(200);
    expect(again.body.external_id).toBe(first.body.external_id);
    const revised = await wp.get(`/wp-json/wp/v2/posts/${first.body.external_id}?context=edit`);
    expect(revised.body.title.raw).toBe("Home Composting, Revised");
    expect(revised.body.featured_media).toBe(post.body.featured_media);
    const all = await wp.get("/wp-json/wp/v2/posts?status=publish,draft&context=edit&per_page=100");
    expect(all.body.filter((p: { slug: string }) => p.slug.startsWith("home-composting-guide"))).toHaveLength(1);
    expect((await wp.get("/wp-json/wp/v2/media?per_page=100")).body).toHaveLength(1);

    const draft = await api(`/v1/articles/${article_id}/publish`, { method: "POST", body: { integration_id: integrationId, as_draft: true } });
    expect(draft.status).toBe(200);
    expect((await wp.get(`/wp-json/wp/v2/posts/${first.body.external_id}?context=edit`)).body.status).toBe("draft");

    const article = (await api(`/v1/articles/${article_id}`)).body;
    expect(article.status).toBe("published");
    expect(article.publications).toEqual([expect.objectContaining({ integration_id: integrationId, kind: "wordpress", external_id: first.body.external_id, status: "draft" })]);
  });

  it("answers 502 with WordPress's own reason for a wrong application password", async () => {
    const org = await newOrg();
    const created = await request(platform.url, `/admin/orgs/${org.orgId}/integrations`, {
      method: "POST",
      token: ADMIN_TOKEN,
      body: { kind: "wordpress", name: "Real WordPress", site_url: wp.url, username: wp.username, application_password: "aaaa bbbb cccc dddd eeee ffff" },
    });
    const test = await request(platform.url, `/admin/integrations/${created.body.id}/test`, { method: "POST", token: ADMIN_TOKEN });
    // WordPress's own code and message, passed through (6.1 answers rest_not_logged_in or incorrect_password).
    expect(test.body).toEqual({ object: "integration_test", ok: false, status: 401, message: expect.stringMatching(/^(rest_not_logged_in|incorrect_password): .+/) });
  });
});
