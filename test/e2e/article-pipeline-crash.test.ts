import { MongoClient } from "mongodb";
import type { ServiceBroker } from "moleculer";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, startCluster, type Cluster } from "../support/cluster";
import { articleModelResponder, startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai";
import { startFakeSearxng, type FakeSearxng } from "../support/fake-searxng";
import { client } from "../support/http";
import { waitForJob } from "../support/jobs";
import type { PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";

/**
 * Article jobs survive a pipeline process killed mid-draft: services in separate processes over a real
 * nats-server. After the kill the test reads the job from its database and the balance through the broker:
 * the gateway would route some reads to the dead node until its heartbeat times out (15 s).
 */
describe("article pipeline: a worker killed during the draft", () => {
  let cluster: Cluster;
  let model: FakeOpenAI;
  let search: FakeSearxng;
  let gateway: PlatformProcess;
  let first: PlatformProcess;
  let broker: ServiceBroker;
  let mongo: MongoClient;
  let pipelineEnv: Record<string, string>;

  beforeAll(async () => {
    // Every model answer takes 300 ms, a section's 2 s more: the draft (its sections written side by side) runs
    // long enough to be interrupted.
    const responder = articleModelResponder();
    model = await startFakeOpenAI({
      delayMs: 300,
      chat: async (request, n) => {
        if (request.messages[0]?.content.startsWith("You write one section")) await new Promise((r) => setTimeout(r, 2000));
        return responder(request, n);
      },
    });
    search = await startFakeSearxng();
    cluster = await startCluster({ JOB_LEASE_MS: "1500", JOB_POLL_MS: "200" });
    pipelineEnv = { LLM_BASE_URL: model.baseURL, LLM_MODEL: "gpt-test", LLM_MAX_RETRIES: "0", SEARCH_PROVIDER: "searxng", SEARXNG_URL: search.url };
    await cluster.spawn("auth,billing,articles,brand-knowledge,webhooks");
    first = await cluster.spawn("pipeline", pipelineEnv);
    // The gateway is ready once every service it routes to answers, the pipeline included.
    gateway = await cluster.spawn("gateway");
    broker = await cluster.broker();
    mongo = await cluster.mongoClient();
  });
  afterAll(async () => {
    await cluster?.stop();
    await model?.close();
    await search?.close();
  });

  it("finishes the job on a new worker, charging once and saving one article", async () => {
    const { orgId, key } = await createOrgWithKey(gateway.url, ADMIN_TOKEN, { credits: 100 });
    const api = client(gateway.url, key);
    const balance = async () => (await broker.call<{ credit_balance: number }, object>("billing.balance", { org_id: orgId })).credit_balance;
    const before = await balance();

    const created = await api("/v1/articles", { method: "POST", body: { topic: "Route planning for field service teams", target_keyword: "route planning", target_words: 800 } });
    expect(created.status).toBe(202);
    await waitForJob(gateway.url, key, created.body.id, { until: (j) => j.status === "processing" && j.stages.some((s: { key: string; status: string }) => s.key === "draft" && s.status === "running"), timeoutMs: 30000 });
    await first.kill();
    const callsBeforeRestart = model.chatRequests().length;

    await cluster.spawn("pipeline", pipelineEnv);
    const jobs = mongo.db(`${cluster.mongo.prefix}pipeline`).collection("jobs");
    const job = await waitFor(
      async () => {
        const doc = await jobs.findOne({ _id: created.body.id as never });
        return doc && ["succeeded", "failed"].includes(doc.status) && doc.finalize?.refund !== "pending" ? doc : undefined;
      },
      "the article job to end",
      45000,
      100,
    );
    // The new worker ran the draft again from its start; the stages before it stayed done.
    expect(model.chatRequests().length).toBeGreaterThan(callsBeforeRestart);
    expect(job.attempts).toBe(2);
    expect(job.stages.slice(0, 3).every((s: { status: string }) => s.status === "done")).toBe(true);

    const articles = await mongo.db(`${cluster.mongo.prefix}articles`).collection("articles").find({ org_id: orgId }).toArray();
    if (job.status === "succeeded") {
      expect(job.stages.every((s: { status: string }) => s.status === "done")).toBe(true);
      expect(articles.map((a) => a._id)).toEqual([job.result.article_id]);
      expect(await balance()).toBe(before - created.body.credits_charged);
    } else {
      expect(articles).toHaveLength(0);
      expect(await balance()).toBe(before);
    }
  });
});
