import type { Db } from "mongodb";
import type { ServiceBroker } from "moleculer";
import { randomUUID } from "node:crypto";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster, type Cluster } from "../support/cluster";
import { request } from "../support/http";
import type { PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";

/**
 * The gateways' edge read cache over a real nats-server (docs/request-path.md#edge-read-cache):
 * two gateway processes, the backends in a third; jobs are driven through the pipeline's database
 * (no worker runs them: PIPELINE_CONCURRENCY=0) so that each step is the test's.
 */
describe("edge read cache across two gateways over NATS", () => {
  let cluster: Cluster;
  let gateways: PlatformProcess[];
  let broker: ServiceBroker;
  let pipelineDb: Db;

  beforeAll(async () => {
    // The longest TTL allowed: every step below runs well within it, so only the change notices can explain fresh answers.
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0", USAGE_CACHE_TTL_MS: "2000" });
    await cluster.spawn(backendsExcept());
    gateways = [await cluster.spawn("gateway"), await cluster.spawn("gateway")];
    broker = await cluster.broker();
    await broker.waitForServices(["auth", "billing", "pipeline"], 10_000);
    pipelineDb = (await cluster.mongoClient()).db(`${cluster.env.MONGO_DB_PREFIX}pipeline`);
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  /** The gateway's edge cache lookups so far for `route` and `outcome` (its /metrics with the admin token). */
  async function lookups(gateway: PlatformProcess, route: string, outcome: "hit" | "miss"): Promise<number> {
    const metrics = await request(gateway.url, "/metrics", { token: ADMIN_TOKEN });
    expect(metrics.status).toBe(200);
    const line = metrics.text.split("\n").find((l) => l.startsWith("gateway_edge_cache_lookups_total{") && l.includes(`route="${route}"`) && l.includes(`outcome="${outcome}"`));
    return line ? Number(line.split(" ").pop()) : 0;
  }

  const usage = (g: number, key: string) => request(gateways[g].url, "/v1/usage?days=1", { token: key });
  const getJob = (g: number, key: string, id: string) => request(gateways[g].url, `/v1/jobs/${id}`, { token: key });

  it("a write acknowledged through one gateway is seen by the next usage read through the other, though both had it cached", async () => {
    const { orgId, key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { credits: 100 });
    let balance = 100;
    for (let i = 0; i < 4; i++) {
      const [writer, reader] = [i % 2, (i + 1) % 2];
      // Until the reader holds the report: a gateway that just started stores nothing until billing knows it (notice-reach.ts).
      const hitsBefore = await lookups(gateways[reader], "/v1/usage", "hit");
      await waitFor(async () => {
        expect((await usage(reader, key)).body.credit_balance).toBe(balance);
        return (await lookups(gateways[reader], "/v1/usage", "hit")) > hitsBefore ? true : undefined;
      }, "the reading gateway to answer usage from its cache", 10_000, 20);
      const grant = await request(gateways[writer].url, `/admin/orgs/${orgId}/credits`, { method: "POST", token: ADMIN_TOKEN, body: { amount: 7, reason: "test" } });
      expect(grant.status).toBe(200);
      balance += 7;
      const after = await usage(reader, key);
      expect(after.status).toBe(200);
      expect(after.body.credit_balance).toBe(balance);
    }
    // A debit by another service (billing's action, as articles charges): the daily credits move with the balance.
    await usage(0, key);
    await usage(1, key);
    await broker.call("billing.debit", { org_id: orgId, amount: 5, reference: `test-debit-${randomUUID()}`, reason: "test" });
    for (const g of [0, 1]) {
      const after = await usage(g, key);
      expect(after.body.credit_balance).toBe(balance - 5);
      expect(after.body.daily[0].credits).toBe(5);
    }
  });

  it("a cached usage answer is still authenticated, counted with exact rate-limit headers, and validated", async () => {
    const L = 6;
    const { key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { rate_limit_rpm: L });
    const hitsBefore = await lookups(gateways[0], "/v1/usage", "hit");
    const remaining: string[] = [];
    for (let i = 0; i < L; i++) {
      const r = await usage(0, key);
      expect(r.status).toBe(200);
      expect(r.headers.get("x-ratelimit-limit")).toBe(String(L));
      remaining.push(String(r.headers.get("x-ratelimit-remaining")));
    }
    expect(remaining).toEqual(["5", "4", "3", "2", "1", "0"]);
    expect(await lookups(gateways[0], "/v1/usage", "hit")).toBeGreaterThan(hitsBefore);
    const refused = await usage(0, key);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limit_exceeded");
    const { key: other } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN);
    await usage(0, other);
    const bad = await request(gateways[0].url, "/v1/usage?days=0", { token: other });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: "invalid_request", message: "days: must be at least 1" });
    expect((await request(gateways[0].url, "/v1/usage?days=1", { token: "sk_test_not_a_key" })).status).toBe(401);
  });

  it("a job's changes are seen on every read until it is final; a final job is then served from memory, never to another organization", async () => {
    const { orgId, key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN);
    const { key: otherKey } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN);
    const id = randomUUID();
    await broker.call("pipeline.createJob", { job_id: id, org_id: orgId, type: "ingest_source", input: {}, credits_charged: 0 });
    for (const g of [0, 1]) expect((await getJob(g, key, id)).body.status).toBe("queued");

    const jobs = pipelineDb.collection<{ _id: string }>("jobs");
    await jobs.updateOne({ _id: id }, { $set: { status: "processing", stage: "crawl", "stages.0.status": "running" } });
    for (let step = 1; step <= 3; step++) {
      await jobs.updateOne({ _id: id }, { $set: { "stages.0.meta": { pages_fetched: step } } });
      for (const g of [0, 1]) {
        const r = await getJob(g, key, id);
        expect(r.body.status).toBe("processing");
        expect(r.body.stages[0].meta).toEqual({ pages_fetched: step });
      }
    }

    const missesBefore = await lookups(gateways[0], "/v1/jobs/:id", "miss");
    const hitsBefore = await lookups(gateways[0], "/v1/jobs/:id", "hit");
    await jobs.updateOne({ _id: id }, { $set: { status: "canceled", finished_at: new Date(), cancel_requested_at: new Date() } });
    const final = await getJob(0, key, id);
    expect(final.body.status).toBe("canceled");
    for (let i = 0; i < 3; i++) expect((await getJob(0, key, id)).body).toEqual(final.body);
    expect(await lookups(gateways[0], "/v1/jobs/:id", "miss")).toBe(missesBefore + 1);
    expect(await lookups(gateways[0], "/v1/jobs/:id", "hit")).toBe(hitsBefore + 3);

    // Another organization's key, through the gateway holding the job: indistinguishable from a missing job.
    const foreign = await getJob(0, otherKey, id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    expect((await getJob(0, otherKey, randomUUID())).body).toEqual(foreign.body);
    // Input is still validated before the cache is consulted.
    const bad = await request(gateways[0].url, `/v1/jobs/${id}?expand=stages`, { token: key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
  });
});
