import { MongoClient } from "mongodb";
import type { ServiceBroker } from "moleculer";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, startCluster, type Cluster } from "../support/cluster";
import { client, type HttpResult } from "../support/http";
import type { PlatformProcess } from "../support/platform";

/**
 * POST /v1/articles over HTTP against the platform on a real nats-server. No pipeline worker
 * runs (PIPELINE_CONCURRENCY=0): jobs stay queued, so balances only move by what creation does.
 */
describe("creating article jobs over HTTP", () => {
  let cluster: Cluster;
  let platform: PlatformProcess;
  let broker: ServiceBroker;
  let mongo: MongoClient;
  const admin = () => client(platform.url, ADMIN_TOKEN);

  beforeAll(async () => {
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0" });
    platform = await cluster.spawn("gateway,auth,billing,articles,brand-knowledge,pipeline,webhooks");
    broker = await cluster.broker();
    mongo = await cluster.mongoClient();
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  async function newOrg(credits: number) {
    const org = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits });
    return { ...org, api: client(platform.url, org.key) };
  }

  const balanceOf = async (orgId: string) => (await broker.call<{ credit_balance: number }, object>("billing.balance", { org_id: orgId })).credit_balance;
  const jobsOf = (orgId: string) => mongo.db(`${cluster.mongo.prefix}pipeline`).collection("jobs").find({ org_id: orgId }).toArray();
  const post = (api: ReturnType<typeof client>, body: unknown, key?: string) =>
    api("/v1/articles", { method: "POST", body, headers: key === undefined ? {} : { "idempotency-key": key } });
  const problems = (r: HttpResult) => {
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_request");
    return (r.body.error.message as string).split("; ");
  };

  it("names every invalid field and charges nothing", async () => {
    const { orgId, api } = await newOrg(100);
    const bad = await post(api, { topic: "abc", target_words: 399, language: "en-GB-oxendict", derivatives: ["linkedin", "tiktok"], image: "yes", color: "red" });
    const named = problems(bad);
    expect(named).toEqual(
      expect.arrayContaining([
        "color: unknown field",
        "topic: must be at least 4 characters",
        "target_words: must be at least 400",
        "language: must be at most 12 characters",
        "derivatives.1: must be one of x_thread, linkedin, newsletter",
      ]),
    );
    expect(named.filter((p) => p.startsWith("image: "))).toHaveLength(1);
    expect(named).toHaveLength(6);
    expect(problems(await post(api, { topic: "Composting at home", target_words: 4001 }))).toEqual(["target_words: must be at most 4000"]);
    expect(problems(await post(api, { topic: "x".repeat(501), target_keyword: "k".repeat(201) })).sort()).toEqual([
      "target_keyword: must be at most 200 characters",
      "topic: must be at most 500 characters",
    ]);
    expect(problems(await post(api, {}))).toEqual(["topic: is required"]);
    expect(problems(await post(api, { topic: "Composting at home" }, "caf\u00e9"))).toEqual(["Idempotency-Key: must be 1 to 255 printable ASCII characters"]);
    expect(problems(await post(api, { topic: "Composting at home" }, "k".repeat(256)))).toEqual(["Idempotency-Key: must be 1 to 255 printable ASCII characters"]);
    expect(await balanceOf(orgId)).toBe(100);
    expect(await jobsOf(orgId)).toEqual([]);
  });

  it("acknowledges a queued job whose charge is billing's quote, with target_keyword defaulting to the topic", async () => {
    const { orgId, api } = await newOrg(100);
    const body = { topic: "Composting at home", mode: "deep_research", image: true, derivatives: ["linkedin"], language: "de" };
    const quote = await broker.call<{ credits: number }, object>("billing.quote", { mode: "deep_research", image: true, derivatives: ["linkedin"], language: "de" });
    expect(quote.credits).toBe(36);

    const created = await post(api, body);
    expect(created.status).toBe(202);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: "job",
      type: "article",
      status: "queued",
      credits_charged: 36,
      replayed: false,
      links: { self: `/v1/jobs/${created.body.id}` },
    });
    expect(await balanceOf(orgId)).toBe(64);

    const job = await api(created.body.links.self);
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ id: created.body.id, type: "article", status: "queued", credits_charged: 36 });
    expect(job.body.stages.map((s: { key: string }) => s.key)).toEqual(["recon", "plan", "research", "draft", "edit", "seo", "score", "image", "derivatives"]);
    const [stored] = await jobsOf(orgId);
    expect(stored.input).toEqual({ ...body, target_keyword: "Composting at home", target_words: 1600 });
  });

  it("answers 402 stating needed and available with no job; the same Idempotency-Key works after a credit grant", async () => {
    const { orgId, api } = await newOrg(5);
    const refused = await post(api, { topic: "Composting at home" }, "after-grant");
    expect(refused.status).toBe(402);
    expect(refused.body.error).toEqual({ code: "insufficient_credits", message: "Insufficient credits: this operation needs 10 credits and 5 are available." });
    expect(await jobsOf(orgId)).toEqual([]);

    const grant = await admin()(`/admin/orgs/${orgId}/credits`, { method: "POST", body: { amount: 20, reason: "top-up" } });
    expect(grant.status).toBe(200);
    const created = await post(api, { topic: "Composting at home" }, "after-grant");
    expect(created.status).toBe(202);
    expect(created.body.replayed).toBe(false);
    expect(await balanceOf(orgId)).toBe(15);
    expect((await jobsOf(orgId)).map((j) => j._id)).toEqual([created.body.id]);
  });

  it("turns 50 identical concurrent requests with one Idempotency-Key into one job and one debit", async () => {
    const { orgId, api } = await newOrg(100);
    const body = { topic: "Composting at home", image: true };
    const answers = await Promise.all(Array.from({ length: 50 }, () => post(api, body, "fifty-at-once")));
    const ids = new Set(answers.map((a) => a.body.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.status === 202 && a.body.replayed === false)).toHaveLength(1);
    const replays = answers.filter((a) => a.status === 200);
    expect(replays).toHaveLength(49);
    for (const r of replays) expect(r.body).toEqual({ ...answers.find((a) => a.status === 202)!.body, replayed: true });
    expect(await balanceOf(orgId)).toBe(87);
    expect((await jobsOf(orgId)).map((j) => j._id)).toEqual([...ids]);

    const later = await post(api, { image: true, topic: "Composting at home", mode: "standard" }, "fifty-at-once");
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ id: [...ids][0], replayed: true });
  });

  it("assigns an Idempotency-Key when the client sends none, returns it, and replays a retry that sends it", async () => {
    const { orgId, api } = await newOrg(100);
    const body = { topic: "Composting at home" };
    const first = await post(api, body);
    expect(first.status).toBe(202);
    const assigned = first.headers.get("idempotency-key");
    expect(assigned).toMatch(/^[0-9a-f-]{36}$/);
    const retry = await post(api, body, assigned!);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ ...first.body, replayed: true });
    expect(retry.headers.get("idempotency-key")).toBe(assigned);
    // Another request without a key is another article, under another key.
    const second = await post(api, body);
    expect(second.headers.get("idempotency-key")).not.toBe(assigned);
    expect((await jobsOf(orgId)).map((j) => j._id).sort()).toEqual([first.body.id, second.body.id].sort());
    expect(await balanceOf(orgId)).toBe(80);
    // A client's key is echoed, on errors too.
    const refused = await post(api, { topic: "x" }, "client-key-1");
    expect(refused.status).toBe(400);
    expect(refused.headers.get("idempotency-key")).toBe("client-key-1");
  });

  it("refuses the same Idempotency-Key with another body, and scopes keys to the organization", async () => {
    const first = await newOrg(100);
    expect((await post(first.api, { topic: "Composting at home" }, "shared-key")).status).toBe(202);
    const conflict = await post(first.api, { topic: "Composting in winter" }, "shared-key");
    expect(problems(conflict)).toEqual(["Idempotency-Key: was already used with a different request body (use a new key for a different request)"]);
    expect(await balanceOf(first.orgId)).toBe(90);

    const second = await newOrg(100);
    const elsewhere = await post(second.api, { topic: "Composting in winter" }, "shared-key");
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.body.replayed).toBe(false);
  });

  it("lets exactly 5 of 20 concurrent requests through on a balance for 5", async () => {
    const { orgId, api } = await newOrg(50);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(api, { topic: `Composting at home, part ${i}` })));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 402);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect(r.body.error.code).toBe("insufficient_credits");
    expect(await balanceOf(orgId)).toBe(0);
    expect((await jobsOf(orgId)).map((j) => j._id).sort()).toEqual(answers.filter((a) => a.status === 202).map((a) => a.body.id).sort());
  });

  it("answers 404 for another organization's brand profile, before any charge", async () => {
    const owner = await newOrg(10);
    const profile = await owner.api("/v1/brand-profiles", { method: "POST", body: { name: "Kestrel Grove", ingest_website: false } });
    expect(profile.status).toBe(201);

    const { orgId, api } = await newOrg(100);
    const refused = await post(api, { topic: "Composting at home", brand_profile_id: profile.body.id }, "foreign-profile");
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe("not_found");
    expect(await balanceOf(orgId)).toBe(100);
    expect(await jobsOf(orgId)).toEqual([]);

    const own = await owner.api("/v1/articles", { method: "POST", body: { topic: "Composting at home", brand_profile_id: profile.body.id } });
    expect(own.status).toBe(202);
    expect((await jobsOf(owner.orgId))[0].input.brand_profile_id).toBe(profile.body.id);
  });
});
