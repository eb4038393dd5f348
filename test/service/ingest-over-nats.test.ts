import { MongoClient } from "mongodb";
import type { ServiceBroker } from "moleculer";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster, type Cluster } from "../support/cluster";
import { FIXTURE_EXPECTATIONS, FIXTURE_PAGES, FIXTURE_PRIVATE_MARKER, FIXTURE_TEXT_PAGE, startFixtureSite, type FixtureSite } from "../support/fixture-site";
import { client } from "../support/http";
import { waitForJob } from "../support/jobs";
import type { PlatformProcess } from "../support/platform";

const FAST_CRAWL = { CRAWL_PAGE_TIMEOUT_MS: "1500", JOB_LEASE_MS: "2000", JOB_POLL_MS: "200" };

/** Ingestion with the services in separate processes over a real nats-server. */
describe("brand knowledge ingestion over NATS", () => {
  let cluster: Cluster;
  let site: FixtureSite;
  let gateway: PlatformProcess;
  let pipeline: PlatformProcess;
  let broker: ServiceBroker;
  let mongo: MongoClient;
  let org: { orgId: string; key: string };
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    site = await startFixtureSite();
    cluster = await startCluster(FAST_CRAWL);
    await cluster.spawn(backendsExcept("brand-knowledge", "pipeline"));
    await cluster.spawn("brand-knowledge");
    pipeline = await cluster.spawn("pipeline");
    gateway = await cluster.spawn("gateway");
    broker = await cluster.broker();
    mongo = await cluster.mongoClient();
    org = await createOrgWithKey(gateway.url, ADMIN_TOKEN);
    api = client(gateway.url, org.key);
  });

  afterAll(async () => {
    await cluster?.stop();
    await site?.close();
  });

  const chunksDb = () => mongo.db(`${cluster.mongo.prefix}brand-knowledge`).collection("chunks");

  let profileId: string;
  let websiteJob: any;

  it("crawls the fixture website within its rules and indexes what it allows", async () => {
    const created = await api("/v1/brand-profiles", { method: "POST", body: { name: "Kestrel Grove", website_url: `${site.url}/` } });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/v1/brand-profiles/${created.body.id}`);
    expect(created.body).toMatchObject({ object: "brand_profile", name: "Kestrel Grove", website_url: `${site.url}/`, voice_status: "none" });
    expect(created.body.ingest_job_id).toEqual(expect.any(String));
    profileId = created.body.id;

    websiteJob = await waitForJob(gateway.url, org.key, created.body.ingest_job_id);
    expect(websiteJob).toMatchObject({ object: "job", type: "ingest_source", status: "succeeded", error: null, credits_charged: 0 });
    expect(websiteJob.stages.map((s: any) => [s.key, s.status])).toEqual(
      ["crawl", "extract", "chunk", "contextualize", "embed", "index", "refresh"].map((k) => [k, "done"]),
    );
    expect(websiteJob.result.pages).toBe(FIXTURE_EXPECTATIONS.keptPaths.length);
    expect(websiteJob.result.chunks).toBeGreaterThanOrEqual(FIXTURE_EXPECTATIONS.keptPaths.length);
    const crawl = websiteJob.stages[0];
    expect(crawl.meta.skipped_by_reason).toMatchObject({ content_type: 2, robots: 1, timeout: 1, too_large: 1 });

    for (const path of FIXTURE_EXPECTATIONS.neverRequested) expect(site.requests.some((r) => r.startsWith(path))).toBe(false);
    expect(site.offsite.requests).toEqual([]);
    const leaked = await chunksDb().countDocuments({ text: { $regex: FIXTURE_PRIVATE_MARKER } });
    expect(leaked).toBe(0);

    const sources = await api(`/v1/brand-profiles/${profileId}/sources`);
    expect(sources.body.data).toEqual([
      expect.objectContaining({ type: "website", status: "ready", error: null, pages: websiteJob.result.pages, chunks: websiteJob.result.chunks }),
    ]);
    const profile = await api(`/v1/brand-profiles/${profileId}`);
    expect(profile.body).toMatchObject({ voice_status: "ready", sources: 1, chunks: websiteJob.result.chunks });
    expect(profile.body.fact_sheet.facts.length).toBeGreaterThan(3);
    const chunkIds = new Set((await chunksDb().find({ profile_id: profileId }).toArray()).map((c) => c.chunk_id));
    for (const fact of profile.body.fact_sheet.facts) expect(chunkIds.has(fact.chunk_id)).toBe(true);
  });

  it("retrieves the chunk that answers a question in the top 5 for at least 90% of questions", async () => {
    // A fact's answer is a paraphrase: the right chunk is one of its page that carries the answer's
    // anchor (its first number or proper noun), when it has one.
    const questions = [
      ...FIXTURE_PAGES.flatMap((p) => p.facts.map((f) => ({ ...f, path: p.path }))),
      ...FIXTURE_TEXT_PAGE.facts.map((f) => ({ ...f, path: FIXTURE_TEXT_PAGE.path })),
    ];
    const anchorOf = (answer: string) => /\d[\d.,:%]*\d%?|\d%?|[A-Z][a-z]+/.exec(answer)?.[0];
    let found = 0;
    for (const q of questions) {
      const hits = await broker.call<any[], object>("brand-knowledge.retrieve", { org_id: org.orgId, brand_profile_id: profileId, query: q.question, k: 5 });
      expect(hits.length).toBeLessThanOrEqual(5);
      const anchor = anchorOf(q.answer);
      const right = (h: any) => new URL(h.url).pathname === q.path && (!anchor || h.text.includes(anchor));
      if (hits.some(right)) found++;
      else if (process.env.DEBUG_RECALL) process.stdout.write(`MISS ${q.question} => ${q.answer} [${anchor}]\n${hits.map((h) => `   ${h.url} ${h.text.slice(0, 100)}`).join("\n")}\n`);
    }
    const recall = found / questions.length;
    process.stdout.write(`retrieval recall@5 on the fixture site: ${found}/${questions.length} = ${recall.toFixed(3)}\n`);
    expect(recall).toBeGreaterThanOrEqual(0.9);

    const [top] = await broker.call<any[], object>("brand-knowledge.retrieve", { org_id: org.orgId, brand_profile_id: profileId, query: "pricing plans", k: 3 });
    expect(top).toMatchObject({ chunk_id: expect.any(String), url: expect.stringContaining(site.url), title: expect.any(String), heading_path: expect.any(Array) });
  });

  it("a pipeline process killed mid-ingest: a new one finishes the job, with no duplicate chunks", async () => {
    const slowSite = await startFixtureSite({ slowMs: 60_000 });
    try {
      const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Kestrel again", website_url: `${slowSite.url}/` } });
      const jobId = profile.body.ingest_job_id;
      // The crawl waits on /slow for the page timeout: kill the worker while it is there.
      await waitForJob(gateway.url, org.key, jobId, { until: (j) => j.status === "processing" && j.stage === "crawl", timeoutMs: 20000 });
      await pipeline.kill();
      // No pipeline process is left to answer GET /v1/jobs (503): the job waits in its database.
      expect((await api(`/v1/jobs/${jobId}`)).status).toBe(503);
      const stalled = await mongo.db(`${cluster.mongo.prefix}pipeline`).collection("jobs").findOne({ _id: jobId as never });
      expect(stalled).toMatchObject({ status: "processing", stage: "crawl", attempts: 1 });

      pipeline = await cluster.spawn("pipeline");
      const job = await waitForJob(gateway.url, org.key, jobId, { timeoutMs: 60000 });
      if (job.status !== "succeeded") process.stdout.write(`JOB ${JSON.stringify(job, null, 1)}\n`);
      expect(job.status).toBe("succeeded");
      expect(job.stages.every((s: any) => s.status === "done")).toBe(true);
      const record = await mongo.db(`${cluster.mongo.prefix}pipeline`).collection("jobs").findOne({ _id: jobId as never });
      expect(record!.attempts).toBe(2);

      const chunks = await chunksDb().find({ profile_id: profile.body.id }).toArray();
      expect(chunks).toHaveLength(job.result.chunks);
      expect(new Set(chunks.map((c) => c.chunk_id)).size).toBe(chunks.length);
      expect(new Set(chunks.map((c) => c.generation)).size).toBe(1);
    } finally {
      await slowSite.close();
    }
  });

  it("keeps two organizations apart: profiles, sources, jobs and chunks", async () => {
    const other = await createOrgWithKey(gateway.url, ADMIN_TOKEN);
    const otherApi = client(gateway.url, other.key);
    const otherList = await otherApi("/v1/brand-profiles");
    expect(otherList.status).toBe(200);
    expect(otherList.body.data).toEqual([]);
    expect((await otherApi(`/v1/brand-profiles/${profileId}`)).status).toBe(404);
    expect((await otherApi(`/v1/brand-profiles/${profileId}/sources`)).status).toBe(404);
    const foreignSource = await otherApi(`/v1/brand-profiles/${profileId}/sources`, { method: "POST", body: { type: "text", content: "x y z" } });
    expect(foreignSource.status).toBe(404);
    expect((await otherApi(`/v1/jobs/${websiteJob.id}`)).status).toBe(404);
    expect((await otherApi(`/v1/jobs/${websiteJob.id}/cancel`, { method: "POST" })).status).toBe(404);
    await expect(
      broker.call("brand-knowledge.retrieve", { org_id: other.orgId, brand_profile_id: profileId, query: "pricing", k: 5 }),
    ).rejects.toMatchObject({ type: "not_found" });
    const mine = await api("/v1/brand-profiles");
    expect(mine.body.data.map((p: any) => p.id)).toContain(profileId);
  });
});
