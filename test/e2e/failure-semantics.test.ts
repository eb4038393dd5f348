import type { MongoClient } from "mongodb";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, startCluster, type Cluster } from "../support/cluster";
import { client, request } from "../support/http";
import type { PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";

/**
 * docs/failure-semantics.md over separate processes on a real nats-server: the pipeline process is
 * SIGKILLed; reads that need it answer 503 with retry-after once it is noticed, readiness names it,
 * and every accepting endpoint either changes nothing or accepts for good and rolls forward when
 * the pipeline is back (no job, charge or source is lost or doubled).
 */
describe("failure semantics with the pipeline process killed", () => {
  let cluster: Cluster;
  let core: PlatformProcess;
  let pipeline: PlatformProcess;
  let mongo: MongoClient;

  beforeAll(async () => {
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0" });
    pipeline = await cluster.spawn("pipeline");
    core = await cluster.spawn("gateway,auth,billing,articles,brand-knowledge,webhooks");
    mongo = await cluster.mongoClient();
  });
  afterAll(async () => {
    await cluster?.stop();
  });

  const db = (svc: string) => mongo.db(`${cluster.mongo.prefix}${svc}`);
  const jobIds = async (orgId: string) => (await db("pipeline").collection("jobs").find({ org_id: orgId }).toArray()).map((j) => String(j._id)).sort();

  it("answers 503 with retry-after, says what is missing, accepts for good what it acknowledged, and rolls it forward", async () => {
    const { orgId, key } = await createOrgWithKey(core.url, ADMIN_TOKEN, { credits: 100 });
    const api = client(core.url, key);
    const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Acme" } });
    const before = await api("/v1/articles", { method: "POST", body: { topic: "Composting at home" } });
    expect(before.status).toBe(202);
    expect((await api(`/v1/jobs/${before.body.id}`)).status).toBe(200);

    const killedAt = Date.now();
    await pipeline.kill();
    let slowest = 0;
    const unavailable = await waitFor(
      async () => {
        const started = Date.now();
        const r = await api(`/v1/jobs/${before.body.id}`);
        slowest = Math.max(slowest, Date.now() - started);
        return r.status === 503 ? r : undefined;
      },
      "a 503 for a job read once the pipeline is gone",
      20000,
      100,
    );
    const detectedMs = Date.now() - killedAt;
    expect(unavailable.body.error.code).toBe("service_unavailable");
    expect(unavailable.headers.get("retry-after")).toMatch(/^\d+$/);
    const started = Date.now();
    expect((await api(`/v1/jobs/${before.body.id}`)).status).toBe(503);
    const knownDeadMs = Date.now() - started;
    process.stdout.write(`[measure] pipeline SIGKILL → first 503 on GET /v1/jobs/{id}: ${detectedMs} ms (slowest single request ${slowest} ms); once noticed: ${knownDeadMs} ms\n`);

    const ready = await request(core.url, "/readyz");
    expect(ready.status).toBe(503);
    expect(ready.body.missing).toContain("service:pipeline: no live instance of the pipeline service");

    // Articles: the debit is applied and the request recorded, so the answer is 202 (not a 503 after a charge).
    const plain = await api("/v1/articles", { method: "POST", body: { topic: "Rainwater harvesting" } });
    expect(plain.status).toBe(202);
    const keyed = await api("/v1/articles", { method: "POST", body: { topic: "Seed saving" }, headers: { "idempotency-key": "outage-1" } });
    expect(keyed.status).toBe(202);
    const retryStarted = Date.now();
    const retry = await api("/v1/articles", { method: "POST", body: { topic: "Seed saving" }, headers: { "idempotency-key": "outage-1" } });
    process.stdout.write(`[measure] Idempotency-Key retry during the outage answered ${retry.status} in ${Date.now() - retryStarted} ms\n`);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ ...keyed.body, replayed: true });
    const charged = before.body.credits_charged + plain.body.credits_charged + keyed.body.credits_charged;

    // Sources and a profile with its website: stored, acknowledged, their ingest jobs queued later.
    const source = await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", content: "Acme was founded in 2015 and sells compost bins." } });
    expect(source.status).toBe(202);
    const withSite = await api("/v1/brand-profiles", { method: "POST", body: { name: "Site brand", website_url: "http://127.0.0.1:9/" } });
    expect(withSite.status).toBe(201);
    expect(withSite.body.ingest_job_id).toEqual(expect.any(String));

    // Back: every acknowledged job exists, each once; one debit per article; the balance is the ledger's.
    pipeline = await cluster.spawn("pipeline");
    const expected = [before.body.id, plain.body.id, keyed.body.id, source.body.ingest_job_id, withSite.body.ingest_job_id].sort();
    await waitFor(async () => ((await jobIds(orgId)).length === expected.length ? true : undefined), "the acknowledged jobs to be created", 20000, 100);
    expect(await jobIds(orgId)).toEqual(expected);
    const ledger = await db("billing").collection("ledger").find({ org_id: orgId, state: "applied" }).toArray();
    const debits = ledger.filter((row) => row.kind === "debit");
    expect(debits.map((d) => d.reference).sort()).toEqual([before.body.id, plain.body.id, keyed.body.id].sort());
    const account = await db("billing").collection("accounts").findOne({ _id: orgId as never });
    expect(account?.credit_balance).toBe(100 - charged);
    expect(ledger.reduce((sum, row) => sum + (row.kind === "debit" ? -row.amount : row.amount), 0)).toBe(account?.credit_balance);
    expect((await api(`/v1/jobs/${plain.body.id}`)).status).toBe(200);
    expect((await request(core.url, "/readyz")).status).toBe(200);
  });

  it("reads an acknowledged article job as queued even before the sweeper created it", async () => {
    const { orgId, key } = await createOrgWithKey(core.url, ADMIN_TOKEN, { credits: 100 });
    const api = client(core.url, key);
    // What an acceptance while the pipeline was unreachable leaves: the request accepted and paid, no job yet.
    const jobId = "5f2b6a4e-2222-4222-8222-222222222222";
    const input = { topic: "Seed saving", target_keyword: "Seed saving", mode: "standard", language: "en", target_words: 1600, image: false, derivatives: [] };
    const now = new Date();
    await db("articles").collection("article_requests").insertOne({
      _id: jobId as never,
      org_id: orgId,
      idempotency_key: null,
      body_hash: "h",
      input,
      stages: ["recon", "plan", "research", "draft", "edit", "seo", "score"],
      credits: 10,
      state: "accepted",
      charged: false,
      ack: { id: jobId, object: "job", type: "article", status: "queued", credits_charged: 10, replayed: false, links: { self: `/v1/jobs/${jobId}` } },
      created_at: now,
      updated_at: now,
      expires_at: new Date(now.getTime() + 3600_000),
    });
    const job = await api(`/v1/jobs/${jobId}`);
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ id: jobId, type: "article", status: "queued", credits_charged: 10 });
    expect(await db("articles").collection("article_requests").findOne({ _id: jobId as never })).toMatchObject({ state: "queued" });
    const debits = await db("billing").collection("ledger").find({ org_id: orgId, kind: "debit", state: "applied" }).toArray();
    expect(debits.map((d) => [d.reference, d.amount])).toEqual([[jobId, 10]]);
    expect((await api("/v1/jobs/5f2b6a4e-3333-4333-8333-333333333333")).status).toBe(404);
  });
});
