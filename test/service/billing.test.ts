import { type ServiceSchema, ServiceBroker } from "moleculer";
import { openTestDatabase } from "../support/test-database";
import type { Db } from "mongodb";
import BillingServiceSchema from "../../services/billing/billing.service";
import { billingCollections } from "../../services/billing/store";
import { utcDay } from "../../shared/clock";
import { closeDatabase, databaseFor } from "../../shared/db/client";
import { toHttpError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { call as callContract } from "../../shared/action";
import { BillingActions, type CreditMovementResult, type RefundResult, type UsageReport } from "../../shared/schemas/billing";
import { startNats, type NatsServer } from "../support/nats";

/** Two billing replicas and a caller on a real nats-server, sharing one database: what other services see. */
describe("billing service over NATS", () => {
  let nats: NatsServer;
  let stopMongo: () => Promise<void> = async () => undefined;
  let db: Db;
  let replicas: ServiceBroker[];
  let caller: ServiceBroker;
  const crashedOrg = newId();

  const broker = (nodeID: string) =>
    new ServiceBroker({ nodeID, namespace: `billing-test-${process.pid}`, transporter: nats.url, serializer: "JSON", logger: false, retryPolicy: { enabled: false } });

  async function failure(promise: Promise<unknown>): Promise<ReturnType<typeof toHttpError> & { data?: unknown }> {
    try {
      await promise;
    } catch (err) {
      return { ...toHttpError(err), data: (err as { data?: unknown }).data };
    }
    throw new Error("expected the call to fail");
  }

  const call = <R>(action: string, params: object) => caller.call<R, object>(`billing.${action}`, params);

  async function fundedOrg(credits: number): Promise<string> {
    const org = newId();
    await call("openAccount", { org_id: org, credits });
    return org;
  }

  beforeAll(async () => {
    nats = await startNats();
    stopMongo = await openTestDatabase();
    db = await databaseFor("billing");

    // What a billing process that died between steps 2 and 3 of a debit leaves behind.
    const { accounts, ledger } = billingCollections(db);
    const now = new Date();
    await accounts.insertOne({ _id: crashedOrg, credit_balance: 40, applied: ["crashed-debit"], credits_by_day: {}, created_at: now, updated_at: now });
    await ledger.insertOne({
      _id: newId(),
      reference: "crashed-debit",
      kind: "debit",
      org_id: crashedOrg,
      amount: 10,
      reason: "article",
      state: "pending",
      created_at: now,
      expires_at: new Date(now.getTime() - 1000),
    });

    replicas = [broker("billing-a"), broker("billing-b")];
    for (const r of replicas) r.createService(BillingServiceSchema as ServiceSchema);
    caller = broker("caller");
    await Promise.all([...replicas, caller].map((b) => b.start()));
    await caller.waitForServices("billing", 10000);
  });

  afterAll(async () => {
    await Promise.all([caller, ...(replicas ?? [])].filter(Boolean).map((b) => b.stop()));
    await db?.dropDatabase();
    await closeDatabase();
    await stopMongo();
    await nats?.stop();
  });

  it("finishes at start what a crashed process left between steps", async () => {
    expect(await billingCollections(db).ledger.findOne({ reference: "crashed-debit" })).toMatchObject({ state: "applied" });
    expect(await billingCollections(db).accounts.findOne({ _id: crashedOrg })).toMatchObject({ credit_balance: 40, applied: [] });
    expect(await call("debit", { org_id: crashedOrg, amount: 10, reference: "crashed-debit", reason: "article" })).toEqual({
      credit_balance: 40,
      replayed: true,
    });
  });

  it("opens accounts, grants and reports balances", async () => {
    const org = newId();
    expect(await call("balance", { org_id: org })).toEqual({ credit_balance: 0 });
    expect(await call("openAccount", { org_id: org, credits: 100 })).toEqual({ credit_balance: 100 });
    expect(await call("openAccount", { org_id: org, credits: 100 })).toEqual({ credit_balance: 100 });
    expect(await call("grant", { org_id: org, amount: 20, reason: "promo", reference: `promo-${org}` })).toEqual({ credit_balance: 120, replayed: false });
    expect(await call("grant", { org_id: org, amount: 20, reason: "promo", reference: `promo-${org}` })).toEqual({ credit_balance: 120, replayed: true });
    expect(await call("balance", { org_id: org })).toEqual({ credit_balance: 120 });
  });

  it("reports the balances of several organizations in one call, in the order asked, 0 without an account", async () => {
    const [rich, poor] = [await fundedOrg(300), await fundedOrg(7)];
    const unknown = newId();
    // Order, repeats and unknown organizations in detail: test/unit/billing-ledger.test.ts; here, the call over NATS.
    const reply = await callContract(caller, BillingActions.balances, { org_ids: [poor, unknown, rich] });
    expect(reply.data.map((b) => b.credit_balance)).toEqual([7, 0, 300]);
    expect(await callContract(caller, BillingActions.balances, { org_ids: [] })).toEqual({ object: "list", data: [] });
    for (const [org_ids, message] of [
      [Array.from({ length: 101 }, newId), "org_ids: must hold at most 100 organization ids"],
      [["acme"], "org_ids.0: must be a UUID"],
    ] as const) {
      const err = await failure(call("balances", { org_ids }));
      expect(err.status).toBe(400);
      expect(err.body.error.message).toBe(message);
    }
  });

  it("quotes an article", async () => {
    expect(await call("quote", { mode: "deep_research", image: true, derivatives: [], language: "en-GB" })).toEqual({
      credits: 28,
      breakdown: [
        { component: "mode:deep_research", credits: 25 },
        { component: "image", credits: 3 },
      ],
    });
  });

  it("lets exactly 5 of 12 concurrent debits through two replicas on a balance for 5; the rest are 402 stating needed and available", async () => {
    const org = await fundedOrg(50);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => call<CreditMovementResult>("debit", { org_id: org, amount: 10, reference: `job-${org}-${i}`, reason: "article" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(7);
    for (const { reason } of refused) {
      const http = toHttpError(reason);
      expect(http.status).toBe(402);
      expect(http.body.error).toEqual({
        code: "insufficient_credits",
        message: "Insufficient credits: this operation needs 10 credits and 0 are available.",
      });
      expect((reason as { data?: unknown }).data).toEqual({ needed: 10, available: 0 });
    }
    expect(await call("balance", { org_id: org })).toEqual({ credit_balance: 0 });
  });

  it("debits a reference once and refunds it once", async () => {
    const org = await fundedOrg(30);
    const debit = { org_id: org, amount: 13, reference: `job-${org}`, reason: "article" };
    expect(await call("debit", debit)).toEqual({ credit_balance: 17, replayed: false });
    expect(await call("debit", debit)).toEqual({ credit_balance: 17, replayed: true });
    expect(await call<RefundResult>("refund", { org_id: org, reference: debit.reference })).toEqual({ refunded: 13, credit_balance: 30, replayed: false });
    expect(await call<RefundResult>("refund", { org_id: org, reference: debit.reference })).toEqual({ refunded: 13, credit_balance: 30, replayed: true });
  });

  it("answers 404 for a refund of an unknown debit", async () => {
    const org = await fundedOrg(30);
    const err = await failure(call("refund", { org_id: org, reference: "never-debited" }));
    expect(err.status).toBe(404);
    expect(err.body.error).toEqual({ code: "not_found", message: "No such debit." });
  });

  it("rejects bad params with every problem as `field: problem`", async () => {
    const err = await failure(call("debit", { org_id: "acme", amount: 0, reference: "r", reason: "x", extra: 1 }));
    expect(err.status).toBe(400);
    expect(err.body.error).toEqual({ code: "invalid_request", message: "org_id: must be a UUID; amount: must be at least 1; extra: unknown field" });
  });

  it("reports usage: 30 days by default, today last, with today's requests, tokens and net credits", async () => {
    const org = await fundedOrg(100);
    const today = utcDay(new Date());
    await call("debit", { org_id: org, amount: 25, reference: `a-${org}`, reason: "article" });
    await call("debit", { org_id: org, amount: 10, reference: `b-${org}`, reason: "article" });
    await call("refund", { org_id: org, reference: `b-${org}` });
    await call("recordTokens", { org_id: org, tokens_in: 1200, tokens_out: 450 });
    await call("recordRequests", { counts: [{ org_id: org, day: today, requests: 7 }] });

    const report = await call<UsageReport>("usage", { org_id: org });
    expect(report.object).toBe("usage");
    expect(report.days).toBe(30);
    expect(report.credit_balance).toBe(75);
    expect(report.daily).toHaveLength(30);
    // The UTC day may have turned between the calls above and the report.
    const row = report.daily.find((d) => d.day === today)!;
    expect(row).toEqual({ day: today, credits: 25, requests: 7, tokens_in: 1200, tokens_out: 450 });
    expect(report.daily.map((d) => d.day)).toEqual([...report.daily.map((d) => d.day)].sort());

    expect((await call<UsageReport>("usage", { org_id: org, days: 1000 })).daily).toHaveLength(90);
  });
});
