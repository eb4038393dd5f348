import { randomUUID } from "node:crypto";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { client, request } from "../support/http";
import { OpenApiContract } from "../support/openapi-contract";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'";

/** The served OpenAPI document against the real platform's answers, and the docs page that renders it. */
describe("OpenAPI document and docs page", () => {
  let platform: PlatformProcess;
  let contract: OpenApiContract;
  let api: ReturnType<typeof client>;
  let admin: ReturnType<typeof client>;

  beforeAll(async () => {
    // No pipeline worker: article jobs stay queued, nothing but the HTTP answers is exercised.
    platform = await spawnPlatform({ env: { ADMIN_TOKEN, DATA_DIR: tempDir("e2e-openapi"), EMBEDDED_MONGO_IN_MEMORY: "true", PIPELINE_CONCURRENCY: "0" } });
    admin = client(platform.url, ADMIN_TOKEN);
    const doc = await request(platform.url, "/v1/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.headers.get("content-type")).toMatch(/^application\/json/);
    expect(doc.body.openapi).toBe("3.1.0");
    contract = new OpenApiContract(doc.body);
    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 100 });
    api = client(platform.url, key);
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it("serves the document without an API key, while /v1 routes still need one", async () => {
    const withBadKey = await request(platform.url, "/v1/openapi.json", { token: "not-a-key" });
    expect(withBadKey.status).toBe(200);
    expect(contract.check("GET", "/v1/articles", await request(platform.url, "/v1/articles")).status).toBe(401);
  });

  it("lists organizations newest first, paged by starting_after (GET /admin/orgs)", async () => {
    for (const name of ["Paged A", "Paged B", "Paged C"]) await admin("/admin/orgs", { method: "POST", body: { name, credits: 7 } });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = contract.check("GET", "/admin/orgs", await admin(`/admin/orgs?limit=2${cursor ? `&starting_after=${cursor}` : ""}`));
      expect(page.status).toBe(200);
      expect(page.body.object).toBe("list");
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      for (const org of page.body.data) expect(org).toEqual({ id: expect.any(String), object: "organization", name: expect.any(String), credit_balance: expect.any(Number), created_at: expect.any(String) });
      seen.push(...page.body.data.map((o: { id: string }) => o.id));
      if (!page.body.has_more) break;
      cursor = page.body.data[page.body.data.length - 1].id;
    }
    const all = (await admin("/admin/orgs?limit=100")).body.data;
    expect(seen).toEqual(all.map((o: { id: string }) => o.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(all.slice(0, 3).map((o: { name: string; credit_balance: number }) => [o.name, o.credit_balance])).toEqual([["Paged C", 7], ["Paged B", 7], ["Paged A", 7]]);
    expect(contract.check("GET", "/admin/orgs", await admin(`/admin/orgs?starting_after=${randomUUID()}`)).status).toBe(404);
    expect(contract.check("GET", "/admin/orgs", await admin("/admin/orgs?limit=0")).status).toBe(400);
    expect(contract.check("GET", "/admin/orgs", await request(platform.url, "/admin/orgs", { token: "wrong" })).status).toBe(401);
  });

  it("matches the platform's success answers: 201, 202, 200 replay, 200 lists and reads", async () => {
    const org = contract.check("POST", "/admin/orgs", await admin("/admin/orgs", { method: "POST", body: { name: "Contract org", credits: 5 } }));
    expect(org.status).toBe(201);
    expect(contract.check("GET", "/admin/orgs/{org_id}/keys", await admin(`/admin/orgs/${org.body.id}/keys`)).status).toBe(200);

    const profile = contract.check("POST", "/v1/brand-profiles", await api("/v1/brand-profiles", { method: "POST", body: { name: "Contract brand", ingest_website: false } }));
    expect(profile.status).toBe(201);
    const source = contract.check(
      "POST",
      "/v1/brand-profiles/{id}/sources",
      await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", content: "Contract sells kayaks." } }),
    );
    expect(source.status).toBe(202);

    const key = randomUUID();
    const create = () => api("/v1/articles", { method: "POST", body: { topic: "Composting at home" }, headers: { "idempotency-key": key } });
    const first = contract.check("POST", "/v1/articles", await create());
    expect(first.status).toBe(202);
    const replay = contract.check("POST", "/v1/articles", await create());
    expect(replay.status).toBe(200);

    const list = contract.check("GET", "/v1/brand-profiles", await api("/v1/brand-profiles"));
    expect(list.status).toBe(200);
    expect(list.body.object).toBe("list");
    const articles = contract.check("GET", "/v1/articles", await api("/v1/articles?limit=5"));
    expect(articles.status).toBe(200);
    expect(replay.body.id).toBe(first.body.id);
    expect(contract.check("GET", "/v1/jobs/{id}", await api(`/v1/jobs/${first.body.id}`)).status).toBe(200);
    expect(contract.check("GET", "/v1/usage", await api("/v1/usage")).status).toBe(200);
    expect(contract.check("GET", "/v1/webhooks", await api("/v1/webhooks")).status).toBe(200);
  });

  it("matches the success answers of the other routes: profiles, sources, cancel, keys, credits, dashboard links, integrations", async () => {
    const profile = contract.check("POST", "/v1/brand-profiles", await api("/v1/brand-profiles", { method: "POST", body: { name: "Every route brand", ingest_website: false } }));
    const source = contract.check(
      "POST",
      "/v1/brand-profiles/{id}/sources",
      await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", title: "Kayaks", content: "Every route sells kayaks." } }),
    );
    expect(contract.check("GET", "/v1/brand-profiles/{id}", await api(`/v1/brand-profiles/${profile.body.id}`)).status).toBe(200);
    expect(contract.check("GET", "/v1/brand-profiles/{id}/sources", await api(`/v1/brand-profiles/${profile.body.id}/sources`)).body.data).toHaveLength(1);
    const detail = contract.check("GET", "/v1/brand-profiles/{id}/sources/{source_id}", await api(`/v1/brand-profiles/${profile.body.id}/sources/${source.body.id}`));
    expect(detail.body.content).toBe("Every route sells kayaks.");
    const job = contract.check("POST", "/v1/articles", await api("/v1/articles", { method: "POST", body: { topic: "Kayak care in winter" } }));
    const canceled = contract.check("POST", "/v1/jobs/{id}/cancel", await api(`/v1/jobs/${job.body.id}/cancel`, { method: "POST" }));
    expect(canceled.body).toMatchObject({ id: job.body.id, status: "canceled" });

    const org = contract.check("POST", "/admin/orgs", await admin("/admin/orgs", { method: "POST", body: { name: "Every route org" } }));
    const key = contract.check("POST", "/admin/orgs/{org_id}/keys", await admin(`/admin/orgs/${org.body.id}/keys`, { method: "POST", body: { mode: "test" } }));
    expect(key.status).toBe(201);
    expect(contract.check("DELETE", "/admin/keys/{key_id}", await admin(`/admin/keys/${key.body.id}`, { method: "DELETE" })).body.revoked_at).toEqual(expect.any(String));
    const credits = contract.check("POST", "/admin/orgs/{org_id}/credits", await admin(`/admin/orgs/${org.body.id}/credits`, { method: "POST", body: { amount: 5, reason: "contract" } }));
    expect(credits.body).toMatchObject({ object: "credit_grant", amount: 5, credit_balance: 5 });
    expect(contract.check("POST", "/admin/orgs/{org_id}/dashboard-links", await admin(`/admin/orgs/${org.body.id}/dashboard-links`, { method: "POST" })).status).toBe(201);

    const integration = contract.check(
      "POST",
      "/admin/orgs/{org_id}/integrations",
      await admin(`/admin/orgs/${org.body.id}/integrations`, {
        method: "POST",
        body: { kind: "wordpress", name: "Nowhere", site_url: "http://127.0.0.1:9/", username: "editor", application_password: "abcd efgh ijkl mnop qrst uvwx" },
      }),
    );
    expect(integration.status).toBe(201);
    expect(contract.check("GET", "/admin/orgs/{org_id}/integrations", await admin(`/admin/orgs/${org.body.id}/integrations`)).body.data).toHaveLength(1);
    const tested = contract.check("POST", "/admin/integrations/{id}/test", await admin(`/admin/integrations/${integration.body.id}/test`, { method: "POST" }));
    expect(tested.body).toMatchObject({ object: "integration_test", ok: false });
    expect(contract.check("DELETE", "/admin/integrations/{id}", await admin(`/admin/integrations/${integration.body.id}`, { method: "DELETE" })).body).toEqual({
      id: integration.body.id,
      object: "integration",
      deleted: true,
    });
  });

  it("matches the platform's error answers: 400, 401, 404", async () => {
    const invalid = contract.check("POST", "/v1/brand-profiles", await api("/v1/brand-profiles", { method: "POST", body: { name: "" } }));
    expect(invalid.status).toBe(400);
    const badQuery = contract.check("GET", "/v1/articles", await api("/v1/articles?limit=abc"));
    expect(badQuery.status).toBe(400);
    const noKey = contract.check("GET", "/v1/usage", await request(platform.url, "/v1/usage", { token: "wrong" }));
    expect(noKey.status).toBe(401);
    const noAdmin = contract.check("GET", "/admin/orgs/{org_id}/keys", await request(platform.url, `/admin/orgs/${randomUUID()}/keys`, { token: "wrong" }));
    expect(noAdmin.status).toBe(401);
    const missing = contract.check("GET", "/v1/articles/{id}", await api(`/v1/articles/${randomUUID()}`));
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("notices a response the document does not describe", async () => {
    const res = await api(`/v1/articles/${randomUUID()}`);
    expect(() => contract.check("GET", "/v1/articles/{id}", { ...res, status: 418 })).toThrow(/not documented/);
    expect(() => contract.check("GET", "/v1/articles/{id}", { ...res, body: { error: { code: "teapot" } } })).toThrow(/does not match/);
    const noHeaders = new Headers(res.headers);
    noHeaders.delete("x-ratelimit-remaining");
    expect(() => contract.check("GET", "/v1/articles/{id}", { ...res, headers: noHeaders })).toThrow(/x-ratelimit-remaining is missing/);
  });

  it("serves /docs and its assets from this origin under a strict CSP", async () => {
    const page = await request(platform.url, "/docs");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain(CSP);
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const refs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThanOrEqual(3);
    for (const ref of refs) {
      expect(ref).toMatch(/^\/docs\/assets\//);
      const asset = await fetch(platform.url + ref);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("content-security-policy")).toContain(CSP);
      expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const init = await request(platform.url, "/docs/assets/docs-init.js");
    expect(init.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(init.text).toContain('"/v1/openapi.json"');
    const bundle = await fetch(`${platform.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(Number(bundle.headers.get("content-length"))).toBeGreaterThan(100_000);
  });

  it("serves no other file than its assets", async () => {
    for (const path of ["/docs/assets/package.json", "/docs/assets/index.html", "/docs/assets/..%2Fpackage.json", "/docs/assets/%2e%2e%2f%2e%2e%2fpackage.json"]) {
      const res = await request(platform.url, path);
      expect([400, 404]).toContain(res.status);
      expect(res.body.error.code).toMatch(/^(not_found|invalid_request)$/);
    }
  });
});
