import type { MongoClient } from "mongodb";
import { createOrgWithKey } from "../support/admin";
import { restartableNats, type Restartable } from "../support/chaos";
import { ADMIN_TOKEN, startCluster, type Cluster } from "../support/cluster";
import { client, type HttpResult } from "../support/http";
import type { PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";

/**
 * No double charge from an ambiguous answer (docs/failure-semantics.md#idempotency-keys), over separate
 * processes on a real nats-server: two gateways, the core (auth, billing, articles, …) in its own process.
 * 30 concurrent `POST /v1/articles` without an Idempotency-Key; the core is SIGKILLed after 6 answers and
 * restarted. Every 5xx is retried the way it says: `outcome_unknown` with the key it returned, anything
 * else (`service_unavailable`: not sent, nothing changed) as a new request. In the end each intended article
 * is one job and one debit.
 */
describe("ambiguous answers when the core process dies during concurrent creations", () => {
  let cluster: Cluster;
  let gateways: PlatformProcess[];
  let mongo: MongoClient;
  let coreProcess: PlatformProcess;
  const CORE = "auth,billing,articles,brand-knowledge,webhooks";

  beforeAll(async () => {
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0" });
    await cluster.spawn("pipeline");
    coreProcess = await cluster.spawn(CORE);
    gateways = [await cluster.spawn("gateway"), await cluster.spawn("gateway")];
    mongo = await cluster.mongoClient();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const retries: Record<string, number> = {};
  const db = (svc: string) => mongo.db(`${cluster.mongo.prefix}${svc}`);

  it("retrying each 5xx as it says gives one job and one charge per intended article", async () => {
    const { orgId, key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { credits: 10_000, rate_limit_rpm: 100_000 });
    const apis = gateways.map((g) => client(g.url, key));
    // Warm both gateways' admission (key record and window units) so that the outage hits the creations themselves.
    for (const api of apis) expect((await api("/v1/usage?days=1")).status).toBe(200);

    const N = 30;
    const bodies = Array.from({ length: N }, (_, i) => ({ topic: `Composting at home, part ${i + 1}` }));
    let answered = 0;
    let killed: Promise<void> | undefined;
    const first = await Promise.all(
      bodies.map(async (body, i) => {
        const r = await apis[i % 2]("/v1/articles", { method: "POST", body });
        if (++answered === 6) killed = coreProcess.kill();
        return r;
      }),
    );
    await killed;
    const codes = first.map((r) => (r.status >= 500 ? `${r.status} ${r.body.error.code}` : String(r.status)));
    const count = (c: string) => codes.filter((x) => x === c).length;
    process.stdout.write(`[measure] first answers: ${JSON.stringify(Object.fromEntries([...new Set(codes)].map((c) => [c, count(c)])))}\n`);
    // Every answer says which case it is and carries its key.
    for (const r of first) {
      expect([202, 503]).toContain(r.status);
      expect(r.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
      if (r.status === 503) expect(["service_unavailable", "outcome_unknown"]).toContain(r.body.error.code);
    }
    expect(codes.filter((c) => c.startsWith("5")).length).toBeGreaterThan(0);

    await cluster.spawn(CORE);
    const final = await Promise.all(first.map((r, i) => settle(apis[i % 2], bodies[i], r, retries)));
    process.stdout.write(`[measure] retries: ${JSON.stringify(retries)}, replayed: ${final.filter((r) => r.body.replayed).length}\n`);
    const ids = final.map((r) => r.body.id as string);
    expect(new Set(ids).size).toBe(N);

    // One job per intended article, one debit per job, nothing else charged. (A job the pipeline could not take
    // when its article was accepted is created by recovery shortly after.)
    const jobs = await waitFor(async () => {
      const found = await db("pipeline").collection("jobs").find({ org_id: orgId }).toArray();
      return found.length >= ids.length ? found : undefined;
    }, "every accepted article's job", 60_000, 250).catch(async () => db("pipeline").collection("jobs").find({ org_id: orgId }).toArray());
    expect(jobs.map((j) => String(j._id)).sort()).toEqual([...ids].sort());
    const debits = await db("billing").collection("ledger").find({ org_id: orgId, kind: "debit" }).toArray();
    expect(debits.filter((d) => d.state === "applied").map((d) => d.reference).sort()).toEqual([...ids].sort());
    const account = await db("billing").collection("accounts").findOne({ _id: orgId as never });
    const charged = final.reduce((sum, r) => sum + (r.body.credits_charged as number), 0);
    expect(account?.credit_balance).toBe(10_000 - charged);
    // No request left half-done for a sweeper to charge later.
    const requests = await db("articles").collection("article_requests").find({ org_id: orgId }).toArray();
    expect(requests.map((r) => String(r._id)).sort()).toEqual([...ids].sort());
  });

});

/**
 * The second case: a 3-second NATS outage (nats-server SIGKILLed and started again on its port)
 * during 30 concurrent creations without keys. Requests NATS swallowed are answered `outcome_unknown`;
 * retried as the answers say, each intended article is one job and one debit.
 */
describe("ambiguous answers across a NATS restart during concurrent creations", () => {
  let cluster: Cluster;
  let nats: Restartable;
  let gateways: PlatformProcess[];
  let mongo: MongoClient;
  const retries: Record<string, number> = {};

  beforeAll(async () => {
    nats = await restartableNats();
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0", NATS_URL: nats.url });
    await cluster.spawn("pipeline");
    await cluster.spawn("auth,billing,articles,brand-knowledge,webhooks");
    gateways = [await cluster.spawn("gateway"), await cluster.spawn("gateway")];
    mongo = await cluster.mongoClient();
  });
  afterAll(async () => {
    await cluster?.stop();
    await nats?.stop();
  });

  it("retrying each 5xx as it says gives one job and one charge per intended article", async () => {
    const { orgId, key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { credits: 10_000, rate_limit_rpm: 100_000 });
    const apis = gateways.map((g) => client(g.url, key));
    for (const api of apis) expect((await api("/v1/usage?days=1")).status).toBe(200);

    const bodies = Array.from({ length: 30 }, (_, i) => ({ topic: `Rainwater harvesting, part ${i + 1}` }));
    let answered = 0;
    let outage: Promise<void> | undefined;
    const started = Date.now();
    const first = await Promise.all(
      bodies.map(async (body, i) => {
        const r = await apis[i % 2]("/v1/articles", { method: "POST", body });
        if (++answered === 6) outage = nats.kill().then(() => new Promise((resolve) => setTimeout(resolve, 3000))).then(() => nats.start());
        return r;
      }),
    );
    await outage;
    const codes = first.map((r) => (r.status >= 500 ? `${r.status} ${r.body.error.code}` : String(r.status)));
    process.stdout.write(`[measure] NATS restart, first answers in ${Date.now() - started} ms: ${JSON.stringify(Object.fromEntries([...new Set(codes)].map((c) => [c, codes.filter((x) => x === c).length])))}\n`);
    const settling = Date.now();
    // The outage was met: some first answers are the ambiguous 5xx the retries below must settle.
    expect(codes.some((c) => c.startsWith("5"))).toBe(true);
    for (const r of first) expect(r.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);

    const final = await Promise.all(first.map((r, i) => settle(apis[i % 2], bodies[i], r, retries)));
    process.stdout.write(`[measure] NATS restart, retries in ${Date.now() - settling} ms: ${JSON.stringify(retries)}\n`);
    const ids = final.map((r) => r.body.id as string);
    expect(new Set(ids).size).toBe(30);
    const db = (svc: string) => mongo.db(`${cluster.mongo.prefix}${svc}`);
    // An article accepted while the pipeline could not be reached has its job created by recovery, shortly after.
    const jobs = await waitFor(async () => {
      const found = await db("pipeline").collection("jobs").find({ org_id: orgId }).toArray();
      return found.length >= ids.length ? found : undefined;
    }, "every accepted article's job", 60_000, 250).catch(async () => db("pipeline").collection("jobs").find({ org_id: orgId }).toArray());
    expect(jobs.map((j) => String(j._id)).sort()).toEqual([...ids].sort());
    const debits = await db("billing").collection("ledger").find({ org_id: orgId, kind: "debit", state: "applied" }).toArray();
    expect(debits.map((d) => d.reference).sort()).toEqual([...ids].sort());
    const requests = await db("articles").collection("article_requests").find({ org_id: orgId }).toArray();
    expect(requests.map((r) => String(r._id)).sort()).toEqual([...ids].sort());
  });
});

/**
 * Retries one creation the way its answers say until it is acknowledged: after `outcome_unknown`, with
 * the key that answer returned, and with that key from then on (a later "not sent" answer is about the
 * retry only); after `service_unavailable` to a request with no outcome pending, as a new request.
 */
async function settle(api: ReturnType<typeof client>, body: Record<string, unknown>, answer: HttpResult, retries: Record<string, number>): Promise<HttpResult> {
  let r = answer;
  let pending: string | undefined;
  return waitFor(
    async () => {
      if (r.status === 202 || r.status === 200) return r;
      expect(r.status).toBe(503);
      if (r.body.error.code === "outcome_unknown") pending = r.headers.get("idempotency-key")!;
      r = await api("/v1/articles", { method: "POST", body, headers: pending ? { "idempotency-key": pending } : {} });
      const outcome = `${pending ? "with key" : "without"}: ${r.status >= 500 ? r.body.error.code : r.status}`;
      retries[outcome] = (retries[outcome] ?? 0) + 1;
      if (pending) expect(r.headers.get("idempotency-key")).toBe(pending);
      return r.status === 202 || r.status === 200 ? r : undefined;
    },
    "an acknowledgement after retries",
    60_000,
    500,
  );
}
