import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { client, request } from "../support/http";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";

/** The whole platform in one process on its embedded defaults, driven over HTTP. */
describe("platform foundation over HTTP", () => {
  let platform: PlatformProcess;
  let admin: ReturnType<typeof client>;

  beforeAll(async () => {
    platform = await spawnPlatform({ env: { ADMIN_TOKEN, DATA_DIR: tempDir("e2e-foundation"), EMBEDDED_MONGO_IN_MEMORY: "true" } });
    admin = client(platform.url, ADMIN_TOKEN);
  });
  afterAll(() => platform?.stop());

  describe("authentication", () => {
    it("answers a missing, malformed, unknown and revoked key with the same 401", async () => {
      const { key, keyId } = await createOrgWithKey(platform.url, ADMIN_TOKEN);
      expect((await admin(`/admin/keys/${keyId}`, { method: "DELETE" })).status).toBe(200);
      const unknown = `svc_test_${"A".repeat(43)}`;
      const answers = await Promise.all([
        request(platform.url, "/v1/usage"),
        request(platform.url, "/v1/usage", { token: "not-a-key" }),
        request(platform.url, "/v1/usage", { token: unknown }),
        request(platform.url, "/v1/usage", { token: key }),
      ]);
      const shape = (r: (typeof answers)[number]) => {
        const headers = [...r.headers.entries()].filter(([name]) => !["date", "x-request-id"].includes(name));
        return JSON.stringify({ status: r.status, text: r.text, headers });
      };
      expect(answers[0].status).toBe(401);
      expect(answers[0].body).toEqual({ error: { code: "invalid_api_key", message: expect.stringContaining("bearer") } });
      for (const a of answers) expect(shape(a)).toBe(shape(answers[0]));
    });

    it("keeps the admin token and API keys apart", async () => {
      const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN);
      expect((await request(platform.url, "/admin/orgs", { method: "POST", body: { name: "x" } })).status).toBe(401);
      const withKey = await request(platform.url, "/admin/orgs", { method: "POST", token: key, body: { name: "x" } });
      expect(withKey.status).toBe(401);
      expect(withKey.body.error.code).toBe("invalid_admin_token");
      const adminOnApi = await request(platform.url, "/v1/usage", { token: ADMIN_TOKEN });
      expect(adminOnApi.status).toBe(401);
      expect(adminOnApi.body.error.code).toBe("invalid_api_key");
    });
  });

  describe("rate limit", () => {
    it("counts down in headers and answers 429 with retry-after from the real reset", async () => {
      const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { rate_limit_rpm: 3 });
      const api = client(platform.url, key);
      const before = Math.floor(Date.now() / 1000);
      const ok = [];
      for (let i = 0; i < 3; i++) ok.push(await api("/v1/usage?days=1"));
      expect(ok.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(ok.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["2", "1", "0"]);
      expect(ok.every((r) => r.headers.get("x-ratelimit-limit") === "3")).toBe(true);
      const reset = Number(ok[0].headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(before + 59);
      expect(reset).toBeLessThanOrEqual(before + 62);

      const limited = await api("/v1/usage?days=1");
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe("rate_limit_exceeded");
      const retryAfter = limited.headers.get("retry-after")!;
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(reset - Math.floor(Date.now() / 1000) + 1);
      expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(limited.headers.get("x-ratelimit-reset")).toBe(String(reset));
    });
  });

  describe("error envelope", () => {
    let api: ReturnType<typeof client>;
    beforeAll(async () => {
      api = client(platform.url, (await createOrgWithKey(platform.url, ADMIN_TOKEN)).key);
    });

    const expectEnvelope = (r: { status: number; body: any; headers: Headers }, status: number, code: string) => {
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ error: { code, message: expect.any(String) } });
      expect(r.headers.get("content-type")).toMatch(/^application\/json/);
      expect(r.headers.get("x-request-id")).toBeTruthy();
    };

    it("400 lists every problem as field: problem", async () => {
      const r = await api("/v1/usage?days=abc&color=red");
      expectEnvelope(r, 400, "invalid_request");
      expect(r.body.error.message).toContain("days: must be a whole number");
      expect(r.body.error.message).toContain("color: unknown field");
      const body = await admin("/admin/orgs", { method: "POST", body: { credits: -1, extra: true } });
      expectEnvelope(body, 400, "invalid_request");
      expect(body.body.error.message.split("; ")).toEqual(
        expect.arrayContaining(["name: is required", "credits: must be at least 0", "extra: unknown field"]),
      );
    });

    it("malformed JSON, a wrong content type and an oversized body are 4xx in the envelope", async () => {
      expectEnvelope(await admin("/admin/orgs", { method: "POST", rawBody: '{"name": ', headers: { "content-type": "application/json" } }), 400, "invalid_request");
      expectEnvelope(await admin("/admin/orgs", { method: "POST", rawBody: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415, "unsupported_media_type");
      const huge = JSON.stringify({ name: "x".repeat(3 * 1024 * 1024) });
      expectEnvelope(await admin("/admin/orgs", { method: "POST", rawBody: huge, headers: { "content-type": "application/json" } }), 413, "payload_too_large");
    });

    it("an unknown route is 404 and a wrong method is 405 with Allow", async () => {
      expectEnvelope(await api("/v1/nothing-here"), 404, "not_found");
      expectEnvelope(await request(platform.url, "/elsewhere"), 404, "not_found");
      const wrong = await api("/v1/usage", { method: "DELETE" });
      expectEnvelope(wrong, 405, "method_not_allowed");
      expect(wrong.headers.get("allow")).toBe("GET");
    });

    it("an unknown or malformed resource id is 404", async () => {
      expectEnvelope(await admin("/admin/orgs/5f2b6a4e-1111-4111-8111-111111111111/keys"), 404, "not_found");
      expectEnvelope(await admin("/admin/orgs/not-a-uuid/keys"), 404, "not_found");
      expectEnvelope(await admin("/admin/keys/5f2b6a4e-1111-4111-8111-111111111111", { method: "DELETE" }), 404, "not_found");
    });

    it("bad input changes nothing", async () => {
      const before = (await admin("/admin/orgs", { method: "POST", body: { name: "counted" } })).body;
      await admin(`/admin/orgs/${before.id}/credits`, { method: "POST", body: { amount: 0, reason: "" } });
      await admin(`/admin/orgs/${before.id}/credits`, { method: "POST", body: { amount: "5", reason: "x" } });
      const keys = await admin(`/admin/orgs/${before.id}/keys`, { method: "POST", body: { mode: "prod" } });
      expect(keys.status).toBe(400);
      const list = await admin(`/admin/orgs/${before.id}/keys`);
      expect(list.body.data).toEqual([]);
      const grant = await admin(`/admin/orgs/${before.id}/credits`, { method: "POST", body: { amount: 1, reason: "check" } });
      expect(grant.body.credit_balance).toBe(1);
    });
  });

  describe("admin API", () => {
    it("creates organizations and keys, lists keys without secrets, revokes and grants", async () => {
      const org = await admin("/admin/orgs", { method: "POST", body: { name: "Acme", credits: 50 } });
      expect(org.status).toBe(201);
      expect(org.body).toEqual({ id: expect.any(String), object: "organization", name: "Acme", credit_balance: 50, created_at: expect.any(String) });

      const created = await admin(`/admin/orgs/${org.body.id}/keys`, { method: "POST", body: { mode: "live", rate_limit_rpm: 120 } });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ object: "api_key", mode: "live", rate_limit_rpm: 120 });
      expect(created.body.key).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
      expect(created.body.display).toBe(`${created.body.key.slice(0, 12)}...${created.body.key.slice(-4)}`);

      expect((await request(platform.url, "/v1/usage", { token: created.body.key })).status).toBe(200);
      const listed = await waitFor(async () => {
        const r = await admin(`/admin/orgs/${org.body.id}/keys`);
        return r.body.data[0]?.last_used_at ? r : undefined;
      }, "last_used_at to be recorded", 15000, 250);
      expect(listed.status).toBe(200);
      expect(listed.body.object).toBe("list");
      const item = listed.body.data[0];
      expect(item).toMatchObject({ id: created.body.id, display: created.body.display, revoked_at: null });
      expect(listed.text).not.toContain(created.body.key);
      expect(item).not.toHaveProperty("key");
      expect(item).not.toHaveProperty("key_hash");

      const grant = await admin(`/admin/orgs/${org.body.id}/credits`, { method: "POST", body: { amount: 25, reason: "top-up" } });
      expect(grant.status).toBe(200);
      expect(grant.body.credit_balance).toBe(75);
      const usage = await request(platform.url, "/v1/usage?days=1", { token: created.body.key });
      expect(usage.body.credit_balance).toBe(75);
    });

    it("rotation: a new key and the old one are both valid until the old is revoked", async () => {
      const { orgId, key: oldKey, keyId: oldId } = await createOrgWithKey(platform.url, ADMIN_TOKEN);
      const fresh = await admin(`/admin/orgs/${orgId}/keys`, { method: "POST", body: { mode: "test" } });
      expect((await request(platform.url, "/v1/usage", { token: oldKey })).status).toBe(200);
      expect((await request(platform.url, "/v1/usage", { token: fresh.body.key })).status).toBe(200);
      await admin(`/admin/keys/${oldId}`, { method: "DELETE" });
      expect((await request(platform.url, "/v1/usage", { token: oldKey })).status).toBe(401);
      expect((await request(platform.url, "/v1/usage", { token: fresh.body.key })).status).toBe(200);
    });
  });

  describe("usage", () => {
    it("reports the balance and the authenticated requests of the day, with zero days", async () => {
      const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 40 });
      const api = client(platform.url, key);
      for (let i = 0; i < 5; i++) expect((await api("/v1/usage?days=3")).status).toBe(200);
      const report = await waitFor(async () => {
        const r = await api("/v1/usage?days=3");
        return r.body.daily.at(-1).requests >= 5 ? r : undefined;
      }, "request counts to reach usage", 15000, 200);
      expect(report.body).toMatchObject({ object: "usage", days: 3, credit_balance: 40 });
      expect(report.body.daily).toHaveLength(3);
      const today = new Date().toISOString().slice(0, 10);
      expect(report.body.daily.at(-1)).toMatchObject({ day: today, credits: 0, tokens_in: 0, tokens_out: 0 });
      expect(report.body.daily[0]).toEqual({ day: expect.any(String), credits: 0, requests: 0, tokens_in: 0, tokens_out: 0 });
      expect((await api("/v1/usage")).body.days).toBe(30);
      expect((await api("/v1/usage?days=500")).body.days).toBe(90);
      expect((await api("/v1/usage?days=0")).status).toBe(400);
    });
  });

  describe("request ids and health", () => {
    it("puts x-request-id on every response and in the request's log line", async () => {
      const r = await request(platform.url, "/v1/usage", { headers: { "x-request-id": "trace-abc-123" } });
      expect(r.headers.get("x-request-id")).toBe("trace-abc-123");
      const generated = await request(platform.url, "/nope");
      expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      const unsafe = await request(platform.url, "/healthz", { headers: { "x-request-id": "x".repeat(300) } });
      expect(unsafe.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      await waitFor(() => (platform.output().includes('"req_id":"trace-abc-123"') ? true : undefined), "the access log line");
    });

    it("serves liveness and readiness", async () => {
      expect((await request(platform.url, "/healthz")).body).toEqual({ status: "ok" });
      const ready = await request(platform.url, "/readyz");
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toMatchObject({ "db:auth": true, "db:billing": true, "service:auth": true, "service:billing": true });
    });

    it("never logs keys or tokens", async () => {
      const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN);
      await request(platform.url, "/v1/usage", { token: key });
      expect(platform.output()).not.toContain(key);
      expect(platform.output()).not.toContain(ADMIN_TOKEN);
    });
  });
});
