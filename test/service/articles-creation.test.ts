import { Errors, type ServiceSchema, ServiceBroker } from "moleculer";
import { openTestDatabase } from "../support/test-database";
import type { Db } from "mongodb";
import ArticlesServiceSchema from "../../services/articles/articles.service";
import { articleStages, type CreationDeps } from "../../services/articles/create-article";
import { hashArticleRequest } from "../../services/articles/idempotency";
import { recoverStrandedRequests, STRANDED_AFTER_MS } from "../../services/articles/recovery";
import { articleCollections, type ArticleRequestDoc } from "../../services/articles/store";
import BillingServiceSchema from "../../services/billing/billing.service";
import { systemClock } from "../../shared/clock";
import { closeDatabase, databaseFor } from "../../shared/db/client";
import { NotFoundError, toHttpError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { ARTICLE_MODES, type ArticleJobInput, type JobAcknowledgement } from "../../shared/schemas/articles";
import type { Quote } from "../../shared/schemas/billing";
import { startNats, type NatsServer } from "../support/nats";
import { waitFor } from "../support/wait";

interface RecordedJob {
  job_id: string;
  org_id: string;
  type: string;
  input: ArticleJobInput;
  credits_charged: number;
  stages: string[];
}

/**
 * The articles service with the real billing service on a real nats-server; the pipeline and
 * brand knowledge are stand-ins that record what they are asked, so that a crash between the
 * debit and the job can be staged precisely.
 */
describe("articles service: creation, pricing and crash recovery", () => {
  let nats: NatsServer;
  let stopMongo: () => Promise<void> = async () => undefined;
  let db: Db;
  let articlesNode: ServiceBroker;
  let caller: ServiceBroker;
  const jobs = new Map<string, RecordedJob>();
  const profiles = new Map<string, string>();
  let pipelineDown = false;

  const broker = (nodeID: string) =>
    new ServiceBroker({ nodeID, namespace: `articles-test-${process.pid}`, transporter: nats.url, serializer: "JSON", logger: false, retryPolicy: { enabled: false } });

  const call = <R>(action: string, params: object) => caller.call<R, object>(action, params);
  const balance = async (org: string) => (await call<{ credit_balance: number }>("billing.balance", { org_id: org })).credit_balance;
  const deps = (): CreationDeps => ({ db, clock: systemClock, call: (action, params) => caller.call(action, params), idempotencyTtlMs: 24 * 3600_000 });
  const requests = () => articleCollections(db).requests;

  async function fundedOrg(credits: number): Promise<string> {
    const org = newId();
    await call("billing.openAccount", { org_id: org, credits });
    return org;
  }

  async function failure(promise: Promise<unknown>) {
    try {
      await promise;
    } catch (err) {
      return toHttpError(err);
    }
    throw new Error("expected the call to fail");
  }

  /** What a process that died after recording a request (and maybe after debiting it) leaves behind. */
  async function strandedRequest(org: string, opts: { key?: string; credits?: number } = {}): Promise<ArticleRequestDoc> {
    const input: ArticleJobInput = { topic: "Rainwater harvesting", target_keyword: "Rainwater harvesting", mode: "standard", language: "en", target_words: 1600, image: true, derivatives: [] };
    const longAgo = new Date(Date.now() - 2 * STRANDED_AFTER_MS);
    const request: ArticleRequestDoc = {
      _id: newId(),
      org_id: org,
      idempotency_key: opts.key ?? null,
      body_hash: hashArticleRequest(input),
      input,
      stages: articleStages(input),
      credits: opts.credits ?? 13,
      state: "charging",
      ack: null,
      created_at: longAgo,
      updated_at: longAgo,
    };
    await requests().insertOne(request);
    return request;
  }

  beforeAll(async () => {
    nats = await startNats();
    stopMongo = await openTestDatabase();
    db = await databaseFor("articles");

    articlesNode = broker("articles-node");
    articlesNode.createService(BillingServiceSchema as ServiceSchema);
    articlesNode.createService(ArticlesServiceSchema as ServiceSchema);
    caller = broker("caller");
    caller.createService({
      name: "pipeline",
      actions: {
        createJob(ctx) {
          if (pipelineDown) throw new Errors.MoleculerRetryableError("pipeline unavailable", 503, "service_unavailable");
          const params = ctx.params as RecordedJob;
          if (!jobs.has(params.job_id)) jobs.set(params.job_id, params);
          return { id: params.job_id, object: "job", type: "article", status: "queued", credits_charged: jobs.get(params.job_id)!.credits_charged };
        },
      },
    });
    caller.createService({
      name: "brand-knowledge",
      actions: {
        getProfile(ctx) {
          const { org_id, id } = ctx.params as { org_id: string; id: string };
          if (profiles.get(id) !== org_id) throw new NotFoundError("brand profile");
          return { id, object: "brand_profile" };
        },
      },
    });
    await Promise.all([articlesNode.start(), caller.start()]);
    await caller.waitForServices(["articles", "billing"], 10000);
  });

  afterAll(async () => {
    await Promise.all([caller, articlesNode].filter(Boolean).map((b) => b.stop()));
    await db?.dropDatabase();
    await closeDatabase();
    await stopMongo();
    await nats?.stop();
  });

  beforeEach(() => {
    pipelineDown = false;
  });

  it("charges exactly billing's quote for every combination, and the job carries the same credits, stages and input", async () => {
    const org = await fundedOrg(10_000);
    let expectedBalance = 10_000;
    for (const mode of ARTICLE_MODES) {
      for (const image of [false, true]) {
        for (const derivatives of [[], ["x_thread", "newsletter"]]) {
          for (const language of ["en-GB", "de"]) {
            const quote = await call<Quote>("billing.quote", { mode, image, derivatives, language });
            const ack = await call<JobAcknowledgement>("articles.create", { org_id: org, topic: "Rainwater harvesting", mode, image, derivatives, language });
            expectedBalance -= quote.credits;
            expect([mode, image, derivatives, language, ack.credits_charged]).toEqual([mode, image, derivatives, language, quote.credits]);
            expect(await balance(org)).toBe(expectedBalance);
            expect(jobs.get(ack.id)).toEqual({
              job_id: ack.id,
              org_id: org,
              type: "article",
              credits_charged: quote.credits,
              stages: articleStages({ image, derivatives: derivatives as ArticleJobInput["derivatives"] }),
              input: { topic: "Rainwater harvesting", target_keyword: "Rainwater harvesting", mode, image, derivatives, language, target_words: 1600 },
            });
          }
        }
      }
    }
  });

  it("checks the brand profile before charging: another organization's is a 404 and costs nothing", async () => {
    const org = await fundedOrg(100);
    const other = newId();
    const profile = newId();
    profiles.set(profile, other);
    const refused = await failure(call("articles.create", { org_id: org, topic: "Rainwater harvesting", brand_profile_id: profile }));
    expect(refused.status).toBe(404);
    expect(await balance(org)).toBe(100);
    expect(await requests().countDocuments({ org_id: org })).toBe(0);

    profiles.set(profile, org);
    const ack = await call<JobAcknowledgement>("articles.create", { org_id: org, topic: "Rainwater harvesting", brand_profile_id: profile });
    expect(jobs.get(ack.id)?.input.brand_profile_id).toBe(profile);
  });

  it("leaves neither a request nor a job behind a 402", async () => {
    const org = await fundedOrg(9);
    const jobsBefore = jobs.size;
    const refused = await failure(call("articles.create", { org_id: org, topic: "Rainwater harvesting", idempotency_key: "k-402" }));
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe("Insufficient credits: this operation needs 10 credits and 9 are available.");
    expect(jobs.size).toBe(jobsBefore);
    expect(await requests().countDocuments({ org_id: org })).toBe(0);
  });

  it("recovers a request stranded after its debit: the job is created and nothing is charged twice", async () => {
    const org = await fundedOrg(50);
    const stranded = await strandedRequest(org, { key: "crashed-after-debit" });
    await call("billing.debit", { org_id: org, amount: stranded.credits, reference: stranded._id, reason: `article job ${stranded._id}` });
    expect(await balance(org)).toBe(37);

    const report = await recoverStrandedRequests(deps(), new Date(Date.now() - STRANDED_AFTER_MS));
    expect(report).toEqual({ queued: 1, dropped: 0, failed: 0 });
    expect(await balance(org)).toBe(37);
    expect(jobs.get(stranded._id)).toMatchObject({ org_id: org, credits_charged: 13, stages: stranded.stages, input: stranded.input });
    const recovered = await requests().findOne({ _id: stranded._id });
    expect(recovered).toMatchObject({ state: "queued", ack: { id: stranded._id, status: "queued", credits_charged: 13, replayed: false } });
    expect(recovered!.expires_at!.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    // The client's retry with its key gets the recovered job.
    const retry = await call<JobAcknowledgement>("articles.create", { org_id: org, idempotency_key: "crashed-after-debit", ...stranded.input });
    expect(retry).toMatchObject({ id: stranded._id, replayed: true, credits_charged: 13 });
    expect(await balance(org)).toBe(37);
  });

  it("rolls a request stranded before its debit forward when the credits are there", async () => {
    const org = await fundedOrg(50);
    const stranded = await strandedRequest(org);
    const report = await recoverStrandedRequests(deps(), new Date(Date.now() - STRANDED_AFTER_MS));
    expect(report).toEqual({ queued: 1, dropped: 0, failed: 0 });
    expect(await balance(org)).toBe(37);
    expect(jobs.has(stranded._id)).toBe(true);
  });

  it("drops a stranded request whose debit is refused, and frees its key", async () => {
    const org = await fundedOrg(5);
    const stranded = await strandedRequest(org, { key: "crashed-before-debit" });
    const report = await recoverStrandedRequests(deps(), new Date(Date.now() - STRANDED_AFTER_MS));
    expect(report).toEqual({ queued: 0, dropped: 1, failed: 0 });
    expect(await requests().findOne({ _id: stranded._id })).toBeNull();
    expect(jobs.has(stranded._id)).toBe(false);
    expect(await balance(org)).toBe(5);

    await call("billing.grant", { org_id: org, amount: 20, reason: "top-up" });
    const ack = await call<JobAcknowledgement>("articles.create", { org_id: org, idempotency_key: "crashed-before-debit", topic: "Rainwater harvesting" });
    expect(ack).toMatchObject({ replayed: false, credits_charged: 10 });
    expect(ack.id).not.toBe(stranded._id);
    expect(await balance(org)).toBe(15);
  });

  it("leaves a request still in progress to its own process", async () => {
    const org = await fundedOrg(50);
    const inProgress = await strandedRequest(org);
    await requests().updateOne({ _id: inProgress._id }, { $set: { updated_at: new Date() } });
    await recoverStrandedRequests(deps(), new Date(Date.now() - STRANDED_AFTER_MS));
    expect(await requests().findOne({ _id: inProgress._id })).toMatchObject({ state: "charging" });
    expect(await balance(org)).toBe(50);
    await requests().deleteOne({ _id: inProgress._id });
  });

  it("acknowledges a paid request whose job could not be created (202, roll-forward), replays it at once, and recovery creates the job", async () => {
    const org = await fundedOrg(50);
    pipelineDown = true;
    const accepted = await call<JobAcknowledgement>("articles.create", { org_id: org, topic: "Rainwater harvesting", idempotency_key: "pipeline-down" });
    expect(accepted).toMatchObject({ object: "job", status: "queued", credits_charged: 10, replayed: false });
    expect(await balance(org)).toBe(40);
    expect(await requests().findOne({ _id: accepted.id })).toMatchObject({ state: "accepted", charged: true, credits: 10 });
    expect(jobs.has(accepted.id)).toBe(false);

    // The retry gets the final answer at once (no waiting on the request), and charges nothing more.
    const started = Date.now();
    const retry = await call<JobAcknowledgement>("articles.create", { org_id: org, idempotency_key: "pipeline-down", topic: "Rainwater harvesting" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(retry).toEqual({ ...accepted, replayed: true });
    expect(await balance(org)).toBe(40);

    pipelineDown = false;
    expect(await recoverStrandedRequests(deps(), new Date(Date.now() - STRANDED_AFTER_MS))).toEqual({ queued: 1, dropped: 0, failed: 0 });
    expect(jobs.get(accepted.id)).toMatchObject({ org_id: org, credits_charged: 10 });
    expect(await requests().findOne({ _id: accepted.id })).toMatchObject({ state: "queued" });
    expect(await balance(org)).toBe(40);
  });

  it("answers 503 with nothing changed when billing has no live instance, and the same key then succeeds", async () => {
    const org = await fundedOrg(50);
    const billing = articlesNode.getLocalService("billing")!;
    await articlesNode.destroyService(billing);
    try {
      const refused = await failure(call("articles.create", { org_id: org, topic: "Rainwater harvesting", idempotency_key: "billing-down" }));
      expect(refused.status).toBe(503);
      expect(await requests().countDocuments({ org_id: org })).toBe(0);
    } finally {
      articlesNode.createService(BillingServiceSchema as ServiceSchema);
      await waitFor(() => balance(org).then(() => true), "billing back");
    }
    expect(await balance(org)).toBe(50);
    const ack = await call<JobAcknowledgement>("articles.create", { org_id: org, topic: "Rainwater harvesting", idempotency_key: "billing-down" });
    expect(ack).toMatchObject({ replayed: false, credits_charged: 10 });
    expect(await balance(org)).toBe(40);
    expect(jobs.has(ack.id)).toBe(true);
  });

  it("settles a request a crash left charging as soon as its key is retried, without waiting for recovery", async () => {
    const org = await fundedOrg(50);
    const stranded = await strandedRequest(org, { key: "crashed-mid-request" });
    await requests().updateOne({ _id: stranded._id }, { $set: { updated_at: new Date() } });
    const retry = await call<JobAcknowledgement>("articles.create", { org_id: org, idempotency_key: "crashed-mid-request", ...stranded.input });
    expect(retry).toMatchObject({ id: stranded._id, credits_charged: 13, replayed: false });
    expect(jobs.has(stranded._id)).toBe(true);
    expect(await balance(org)).toBe(37);
    const again = await call<JobAcknowledgement>("articles.create", { org_id: org, idempotency_key: "crashed-mid-request", ...stranded.input });
    expect(again).toEqual({ ...retry, replayed: true });
    expect(await balance(org)).toBe(37);
  });
});
