import { randomUUID } from "node:crypto";
import { MongoClient } from "mongodb";
import { createOrgWithKey } from "../support/admin";
import { restartableMongo, restartableNats, type Restartable } from "../support/chaos";
import { ADMIN_TOKEN } from "../support/cluster";
import { pageAsMarkdown, ROUTE_PLANNING_PAGES } from "../support/fake-searxng";
import { request, type HttpResult } from "../support/http";
import { waitForJob } from "../support/jobs";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

const KINDS = ["auth", "billing", "articles", "brand-knowledge", "pipeline", "webhooks"] as const;
const TERMINAL = new Set(["succeeded", "failed", "canceled"]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Chaos over loopback (docs/failure-semantics.md): every service in its own process, two gateways,
 * a persistent embedded database and nats-server. During mixed traffic each kind of process is
 * killed with SIGKILL and started again, then the database, then NATS is restarted. Afterwards:
 * no acknowledged write is lost, no charge is doubled, every job ends, every job's webhook is
 * delivered under one webhook-id, and the balance equals the ledger.
 */
describe("chaos: kill -9 every kind of process during traffic", () => {
  let nats: Restartable;
  let mongoServer: Restartable;
  let mongo: MongoClient;
  let receiver: WebhookReceiver;
  const gateways: PlatformProcess[] = [];
  const services = new Map<string, PlatformProcess>();
  const prefix = `chaos${process.pid}_`;
  let env: Record<string, string>;

  const spawnKind = (kind: string) =>
    spawnPlatform({ env: { ...env, SERVICES: kind, ...(kind === "pipeline" ? { PIPELINE_CONCURRENCY: "2" } : {}) } });

  beforeAll(async () => {
    nats = await restartableNats();
    mongoServer = await restartableMongo(tempDir("chaos-mongo"));
    receiver = await startWebhookReceiver();
    env = {
      NATS_URL: nats.url,
      MONGO_URL: mongoServer.url,
      MONGO_DB_PREFIX: prefix,
      ADMIN_TOKEN,
      LOG_LEVEL: "warn",
      PIPELINE_CONCURRENCY: "0",
      JOB_LEASE_MS: "3000",
      JOB_POLL_MS: "200",
      JOB_MAX_ATTEMPTS: "6",
      WEBHOOK_RETRY_DELAYS_MS: "300,600,1200,2400,4000,6000",
      WEBHOOK_POLL_MS: "200",
      WEBHOOK_TIMEOUT_MS: "3000",
    };
    for (const kind of KINDS) services.set(kind, await spawnKind(kind));
    gateways.push(await spawnKind("gateway"), await spawnKind("gateway"));
    mongo = await MongoClient.connect(mongoServer.url);
  });

  afterAll(async () => {
    if (process.env.DEBUG_CHAOS) for (const p of [...gateways, ...services.values()]) process.stdout.write(`--- ${p.url}\n${p.output().slice(-3000)}\n`);
    await mongo?.close();
    await Promise.all([...gateways, ...services.values()].map((p) => p.stop()));
    await receiver?.close();
    await mongoServer?.stop();
    await nats?.stop();
  });

  it("loses no acknowledged write, doubles no charge, ends every job, delivers every webhook once per id, and keeps the balance equal to the ledger", async () => {
    const { orgId, key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { credits: 100000, rate_limit_rpm: 100000 });
    const auth = { authorization: `Bearer ${key}` };
    const hook = await request(gateways[0].url, "/v1/webhooks", { method: "POST", headers: auth, body: { url: receiver.url, events: ["job.succeeded", "job.failed"] } });
    expect(hook.status).toBe(201);
    const profile = await request(gateways[0].url, "/v1/brand-profiles", { method: "POST", headers: auth, body: { name: "Chaos compost" } });
    expect(profile.status).toBe(201);
    const profileId = profile.body.id as string;
    // A profile with enough brand evidence for the offline writer: articles on it succeed.
    const grounded = await request(gateways[0].url, "/v1/brand-profiles", { method: "POST", headers: auth, body: { name: "Field Ops Guides", ingest_website: false } });
    const groundedId = grounded.body.id as string;
    for (const pages of [ROUTE_PLANNING_PAGES.slice(0, 3), ROUTE_PLANNING_PAGES.slice(3)]) {
      const added = await request(gateways[0].url, `/v1/brand-profiles/${groundedId}/sources`, { method: "POST", headers: auth, body: { type: "text", title: "Guide", content: pages.map(pageAsMarkdown).join("\n\n") } });
      expect(added.status).toBe(202);
      expect((await waitForJob(gateways[0].url, key, added.body.ingest_job_id, { timeoutMs: 60000 })).status).toBe("succeeded");
    }

    // --- traffic ---------------------------------------------------------------------------
    const acknowledgedJobs = new Set<string>();
    const acknowledgedSources = new Set<string>();
    let sourceAttemptsWithoutAnswer = 0;
    const statuses = new Map<number, number>();
    const serverErrors: string[] = [];
    /** 4xx answers: only a job read in the moment between an article's acceptance and its job's creation may be one (a 404). */
    const clientErrors: string[] = [];
    let gatewayTurn = 0;
    let running = true;
    /** The slowest answer seen while each disruption was under way (measured, reported, not asserted). */
    let phase = "warm-up";
    const slowest = new Map<string, number>();

    async function send(path: string, opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<HttpResult | null> {
      const live = gateways.filter((g) => g.child.exitCode === null && g.child.signalCode === null);
      const gw = live[gatewayTurn++ % live.length] ?? gateways[0];
      const sentIn = phase;
      const started = Date.now();
      try {
        const r = await request(gw.url, path, { ...opts, headers: { ...auth, ...opts.headers } });
        slowest.set(sentIn, Math.max(slowest.get(sentIn) ?? 0, Date.now() - started));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status >= 500 && r.status !== 503) serverErrors.push(`${opts.method ?? "GET"} ${path} → ${r.status} ${r.text.slice(0, 200)}`);
        if (r.status >= 400 && r.status < 500) clientErrors.push(`${opts.method ?? "GET"} ${path.split("/").slice(0, 3).join("/")} → ${r.status} ${r.body?.error?.code}`);
        return r;
      } catch {
        return null; // the connection died with its gateway: no answer
      }
    }

    /** An article with an Idempotency-Key, retried until a definitive answer: the client pattern the docs ask for. */
    async function article(n: number): Promise<void> {
      const idempotencyKey = `chaos-${n}-${randomUUID()}`;
      // A few articles on the grounded profile (writing one takes seconds of CPU), the rest quick to fail and refund.
      const body =
        n % 20 === 0 && groundedArticles++ < 3
          ? { topic: "Route planning for field service teams", target_keyword: "route planning", brand_profile_id: groundedId, target_words: 600 }
          : { topic: `Composting at home, part ${n}`, ...(n % 3 === 0 ? { brand_profile_id: profileId } : {}) };
      const giveUp = Date.now() + 45000;
      while (Date.now() < giveUp) {
        const r = await send("/v1/articles", { method: "POST", body, headers: { "idempotency-key": idempotencyKey } });
        if (r && (r.status === 202 || r.status === 200)) {
          acknowledgedJobs.add(r.body.id);
          return;
        }
        if (r && r.status < 500 && r.status !== 429) throw new Error(`article refused: ${r.status} ${r.text}`);
        await sleep(300);
      }
    }

    async function source(n: number): Promise<void> {
      const r = await send(`/v1/brand-profiles/${profileId}/sources`, { method: "POST", body: { type: "text", title: `Note ${n}`, content: `Compost note ${n}: turn the pile every week and keep it moist.` } });
      if (r?.status === 202) acknowledgedSources.add(r.body.id);
      else if (!r || r.status >= 500) sourceAttemptsWithoutAnswer++;
    }

    async function read(): Promise<void> {
      const ids = [...acknowledgedJobs];
      if (ids.length) await send(`/v1/jobs/${ids[ids.length - 1]}`);
      else await send("/v1/usage?days=1");
    }

    let n = 0;
    let groundedArticles = 0;
    const clients = Array.from({ length: 3 }, async () => {
      while (running) {
        const i = n++;
        const roll = i % 10;
        if (roll < 4) await article(i);
        else if (roll < 6) await source(i);
        else await read();
        await sleep(150);
      }
    });

    // --- chaos -----------------------------------------------------------------------------
    const events: string[] = [];
    await sleep(2000);
    const targets = ["gateway", ...KINDS];
    for (const kind of targets) {
      const started = Date.now();
      phase = kind;
      if (kind === "gateway") {
        await gateways[0].kill();
        gateways[0] = await spawnKind("gateway");
      } else {
        await services.get(kind)!.kill();
        services.set(kind, await spawnKind(kind));
      }
      events.push(`${kind} killed and back in ${Date.now() - started} ms`);
      await sleep(1500);
    }
    // The servers: down for `downMs`, then traffic runs on for `settleMs` before the next one.
    for (const [name, label, server, downMs, settleMs] of [
      ["database", "database", mongoServer, 1000, 2500],
      ["nats", "NATS", nats, 2000, 3000],
    ] as const) {
      const started = Date.now();
      phase = name;
      await server.kill();
      await sleep(downMs);
      await server.start();
      events.push(`${label} killed, back in ${Date.now() - started} ms`);
      await sleep(settleMs);
    }
    running = false;
    await Promise.all(clients);
    process.stdout.write(`[chaos] ${events.join("; ")}\n[chaos] answers by status: ${JSON.stringify(Object.fromEntries(statuses))} (4xx: ${JSON.stringify(clientErrors)}); articles acknowledged: ${acknowledgedJobs.size}; sources acknowledged: ${acknowledgedSources.size}\n[chaos] slowest answer (ms) to a request sent while each disruption was under way: ${JSON.stringify(Object.fromEntries(slowest))}\n`);

    // --- checks ----------------------------------------------------------------------------
    const db = (svc: string) => mongo.db(`${prefix}${svc}`);
    expect(serverErrors).toEqual([]);
    for (const e of clientErrors) expect(e).toBe("GET /v1/jobs → 404 not_found");
    expect(acknowledgedJobs.size).toBeGreaterThan(5);

    // Every job ends; every acknowledged article is a job (roll-forward included).
    let progress = "";
    const jobs = await waitFor(
      async () => {
        const all = await db("pipeline").collection("jobs").find({ org_id: orgId }).toArray();
        const ids = new Set(all.map((j) => String(j._id)));
        const missing = [...acknowledgedJobs].filter((id) => !ids.has(id));
        const open = all.filter((j) => !TERMINAL.has(j.status));
        const requests = missing.length ? await db("articles").collection("article_requests").find({ _id: { $in: missing as never[] } }).toArray() : [];
        progress = `missing jobs ${JSON.stringify(missing)} (requests: ${JSON.stringify(requests.map((r) => [r._id, r.state, r.charged]))}); unfinished ${JSON.stringify(open.map((j) => ({ id: j._id, type: j.type, status: j.status, stage: j.stage, attempts: j.attempts, unreachable_retries: j.unreachable_retries, lease: j.lease, run_after: j.run_after, updated_at: j.updated_at })))}`;
        return missing.length === 0 && open.length === 0 ? all : undefined;
      },
      "every acknowledged job to exist and end",
      150000,
      250,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; ${progress}`);
    });
    const articleJobs = jobs.filter((j) => j.type === "article");
    // A succeeded job's article is saved (the pipeline's last write), once.
    const succeeded = articleJobs.filter((j) => j.status === "succeeded");
    expect(succeeded.length).toBeGreaterThan(0);
    const articles = await db("articles").collection("articles").find({ org_id: orgId }).toArray();
    for (const j of succeeded) expect(articles.filter((a) => a.job_id === String(j._id))).toHaveLength(1);

    // No acknowledged source is lost; any other source belongs to a request that got no answer or a 5xx.
    const sources = await db("brand-knowledge").collection("sources").find({ org_id: orgId, profile_id: profileId }).toArray();
    const sourceIds = new Set(sources.map((s) => String(s._id)));
    for (const id of acknowledgedSources) expect(sourceIds.has(id)).toBe(true);
    expect(sources.length - acknowledgedSources.size).toBeLessThanOrEqual(sourceAttemptsWithoutAnswer);

    // Money: one debit per article job at most, none without a job, at most one refund per debit, and the balance is the ledger's sum.
    // A movement cut off between its balance change and its row's "applied" (billing killed, or its database) is
    // finished by billing's recovery once the row's deadline passed (PENDING_TTL_MS, then a recovery round: at most a minute apart):
    // the sums are read once no row is pending.
    await waitFor(
      async () => ((await db("billing").collection("ledger").countDocuments({ org_id: orgId, state: "pending" })) === 0 ? true : undefined),
      "every pending ledger row to be decided by recovery",
      90000,
      250,
    );
    const ledger = await db("billing").collection("ledger").find({ org_id: orgId, state: "applied" }).toArray();
    const debits = ledger.filter((r) => r.kind === "debit");
    const refunds = ledger.filter((r) => r.kind === "refund");
    const articleIds = new Set(articleJobs.map((j) => String(j._id)));
    expect(new Set(debits.map((d) => d.reference)).size).toBe(debits.length);
    for (const d of debits) expect(articleIds.has(d.reference)).toBe(true);
    for (const id of acknowledgedJobs) expect(debits.some((d) => d.reference === id)).toBe(true);
    expect(new Set(refunds.map((r) => r.refund_of)).size).toBe(refunds.length);
    const failedIds = new Set(articleJobs.filter((j) => j.status !== "succeeded").map((j) => String(j._id)));
    for (const r of refunds) expect(failedIds.has(r.refund_of)).toBe(true);
    const account = await db("billing").collection("accounts").findOne({ _id: orgId as never });
    const sum = ledger.reduce((acc, r) => acc + (r.kind === "debit" ? -r.amount : r.amount), 0);
    expect(account?.credit_balance).toBe(sum);
    expect(await db("billing").collection("ledger").countDocuments({ org_id: orgId, state: "pending" })).toBe(0);

    // Webhooks: each article job's outcome is delivered, under exactly one webhook-id per job.
    const idsByJob = await waitFor(
      () => {
        const byJob = new Map<string, Set<string>>();
        for (const r of receiver.requests) {
          const body = JSON.parse(r.rawBody) as { type: string; data: { id: string } };
          if (!byJob.has(body.data.id)) byJob.set(body.data.id, new Set());
          byJob.get(body.data.id)!.add(r.headers["webhook-id"]);
        }
        return articleJobs.every((j) => byJob.has(String(j._id))) ? byJob : undefined;
      },
      "every article job's webhook",
      60000,
      250,
    );
    for (const j of articleJobs) expect(idsByJob.get(String(j._id))!.size).toBe(1);
    const duplicates = receiver.requests.length - [...idsByJob.values()].reduce((a, s) => a + s.size, 0);
    process.stdout.write(
      `[chaos] jobs: ${articleJobs.length} articles (${articleJobs.filter((j) => j.status === "succeeded").length} succeeded), ${jobs.length - articleJobs.length} ingests; debits ${debits.length}, refunds ${refunds.length}; webhook requests ${receiver.requests.length} (${duplicates} repeated deliveries of an id)\n`,
    );
  }, 300_000);
});
