import type { MongoClient } from "mongodb";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, startCluster, type Cluster } from "../support/cluster";
import { client, type HttpResult } from "../support/http";
import type { PlatformProcess } from "../support/platform";

/**
 * Every creating route carries an Idempotency-Key (docs/failure-semantics.md#idempotency-keys): the
 * client's or one the gateway assigns, returned on the answer; a retry with it replays the first answer
 * and creates nothing more; the same key with another body is a 400.
 */
describe("idempotent creation on every creating route", () => {
  let cluster: Cluster;
  let platform: PlatformProcess;
  let mongo: MongoClient;

  beforeAll(async () => {
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0", INTEGRATIONS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString("base64")}` });
    platform = await cluster.spawn("gateway,auth,billing,articles,brand-knowledge,pipeline,webhooks");
    mongo = await cluster.mongoClient();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const count = (svc: string, coll: string, filter: object = {}) => mongo.db(`${cluster.mongo.prefix}${svc}`).collection(coll).countDocuments(filter);

  /** Posts without a key, then twice with the key it was given (in parallel), then once with another body. */
  async function replayed(api: ReturnType<typeof client>, path: string, body: object, other: object): Promise<HttpResult> {
    const first = await api(path, { method: "POST", body });
    expect(first.status).toBeLessThan(300);
    const key = first.headers.get("idempotency-key")!;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const retries = await Promise.all([0, 1].map(() => api(path, { method: "POST", body, headers: { "idempotency-key": key } })));
    for (const r of retries) {
      expect({ path, status: r.status, body: r.body }).toEqual({ path, status: first.status, body: first.body });
      expect(r.headers.get("idempotency-key")).toBe(key);
    }
    const misuse = await api(path, { method: "POST", body: other, headers: { "idempotency-key": key } });
    expect({ path, status: misuse.status }).toEqual({ path, status: 400 });
    expect(misuse.body.error.message).toContain("Idempotency-Key");
    return first;
  }

  it("replays webhooks, brand profiles and sources under their key", async () => {
    const { orgId, key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 0 });
    const api = client(platform.url, key);
    await replayed(api, "/v1/webhooks", { url: "http://127.0.0.1:9/hooks" }, { url: "http://127.0.0.1:9/other" });
    expect(await count("webhooks", "endpoints", { org_id: orgId })).toBe(1);

    const profile = await replayed(api, "/v1/brand-profiles", { name: "Acme", website_url: "http://127.0.0.1:9/" }, { name: "Other" });
    expect(await count("brand-knowledge", "brand_profiles", { org_id: orgId })).toBe(1);
    expect(await count("brand-knowledge", "sources", { org_id: orgId })).toBe(1);

    const sources = `/v1/brand-profiles/${profile.body.id}/sources`;
    await replayed(api, sources, { type: "text", content: "Acme sells compost bins." }, { type: "text", content: "Something else." });
    await replayed(api, sources, { type: "url", url: "http://127.0.0.1:9/page" }, { type: "url", url: "http://127.0.0.1:9/other" });
    // The profile's website, the text and the page: each stored once, each with one ingest job.
    expect(await count("brand-knowledge", "sources", { org_id: orgId })).toBe(3);
    expect(await count("pipeline", "jobs", { org_id: orgId })).toBe(3);
  });

  it("replays organizations, credit grants and integrations under their key", async () => {
    const admin = client(platform.url, ADMIN_TOKEN);
    const before = await count("auth", "organizations");
    const org = await replayed(admin, "/admin/orgs", { name: "Keyed", credits: 50 }, { name: "Keyed", credits: 60 });
    expect(await count("auth", "organizations")).toBe(before + 1);
    expect(org.body.credit_balance).toBe(50);
    const grant = await replayed(admin, `/admin/orgs/${org.body.id}/credits`, { amount: 7, reason: "top-up" }, { amount: 8, reason: "top-up" });
    expect(grant.body.credit_balance).toBe(57);
    const ledger = await mongo.db(`${cluster.mongo.prefix}billing`).collection("ledger").find({ org_id: org.body.id, kind: "grant" }).toArray();
    expect(ledger.map((row) => row.amount).sort()).toEqual([50, 7].sort());

    const wordpress = { kind: "wordpress", name: "Blog", site_url: "http://127.0.0.1:9", username: "editor", application_password: "abcd efgh ijkl mnop" };
    await replayed(admin, `/admin/orgs/${org.body.id}/integrations`, wordpress, { ...wordpress, application_password: "qrst uvwx yzab cdef" });
    expect(await count("articles", "integrations", { org_id: org.body.id })).toBe(1);
  });
});
