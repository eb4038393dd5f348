import type { Db } from "mongodb";
import { useServiceDatabase } from "../support/test-database";
import { chargeArticle, debitCredits, getBalance, getBalances, grantCredits, openAccount, recoverPendingLedger, refundDebit } from "../../services/billing/ledger";
import { BILLING_COLLECTIONS, billingCollections, type LedgerRow } from "../../services/billing/store";
import { recordRequests, recordTokens, usageReport } from "../../services/billing/usage";
import type { Clock } from "../../shared/clock";
import { type ApiError, InsufficientCreditsError, NotFoundError, ValidationError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import { UsageParams } from "../../shared/schemas/billing";
import { parseOrThrow } from "../../shared/validation";

/** The embedded server in memory, or the real MongoDB at MONGO_URL: the same cases must pass on both. */
let db: Db;
useServiceDatabase("billing", BILLING_COLLECTIONS, (opened) => (db = opened));

const c = () => billingCollections(db);

async function fundedOrg(credits: number): Promise<string> {
  const org = newId();
  await openAccount(db, { org_id: org, credits });
  return org;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    return err as ApiError;
  }
  throw new Error("expected the call to fail");
}

function fixedClock(iso: string): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return { now: () => now, set: (next) => (now = new Date(next)) };
}

describe("accounts and grants", () => {
  it("opens an account once: the initial grant is not repeated", async () => {
    const org = newId();
    expect(await openAccount(db, { org_id: org, credits: 100 })).toEqual({ credit_balance: 100 });
    expect(await openAccount(db, { org_id: org, credits: 100 })).toEqual({ credit_balance: 100 });
    expect(await openAccount(db, { org_id: org, credits: 500 })).toEqual({ credit_balance: 100 });
    expect(await c().ledger.countDocuments({ org_id: org })).toBe(1);
  });

  it("opens an account with no credits", async () => {
    const org = newId();
    expect(await openAccount(db, { org_id: org, credits: 0 })).toEqual({ credit_balance: 0 });
    expect(await c().accounts.findOne({ _id: org })).toMatchObject({ credit_balance: 0, applied: [] });
  });

  it("reports 0 for an organization without an account", async () => {
    expect(await getBalance(db, newId())).toEqual({ credit_balance: 0 });
  });

  it("grants idempotently by reference, and every time without one", async () => {
    const org = await fundedOrg(0);
    expect(await grantCredits(db, { org_id: org, amount: 40, reason: "promo", reference: "promo-1" })).toEqual({ credit_balance: 40, replayed: false });
    expect(await grantCredits(db, { org_id: org, amount: 40, reason: "promo", reference: "promo-1" })).toEqual({ credit_balance: 40, replayed: true });
    await grantCredits(db, { org_id: org, amount: 5, reason: "top-up" });
    expect(await grantCredits(db, { org_id: org, amount: 5, reason: "top-up" })).toEqual({ credit_balance: 50, replayed: false });
  });

  it("creates the account on a first grant", async () => {
    const org = newId();
    expect(await grantCredits(db, { org_id: org, amount: 7, reason: "welcome" })).toEqual({ credit_balance: 7, replayed: false });
  });
});

describe("balances of several organizations", () => {
  it("reads them at once, in the order asked, duplicates repeated, 0 for an organization without an account", async () => {
    const [a, b] = [await fundedOrg(40), await fundedOrg(0)];
    await grantCredits(db, { org_id: b, amount: 5, reason: "promo" });
    const none = newId();
    expect(await getBalances(db, [b, none, a, b])).toEqual({
      object: "list",
      data: [
        { org_id: b, credit_balance: 5 },
        { org_id: none, credit_balance: 0 },
        { org_id: a, credit_balance: 40 },
        { org_id: b, credit_balance: 5 },
      ],
    });
    for (const org of [a, b, none]) expect((await getBalances(db, [org])).data[0].credit_balance).toBe((await getBalance(db, org)).credit_balance);
    expect(await getBalances(db, [])).toEqual({ object: "list", data: [] });
  });
});

describe("debits", () => {
  it("lets exactly as many concurrent debits through as the balance covers", async () => {
    const org = await fundedOrg(50);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => debitCredits(db, { org_id: org, amount: 10, reference: `job-${org}-${i}`, reason: "article" })),
    );
    const succeeded = results.filter((r) => r.status === "fulfilled");
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as ApiError);

    expect(succeeded).toHaveLength(5);
    expect(failed).toHaveLength(7);
    for (const err of failed) {
      expect(err).toBeInstanceOf(InsufficientCreditsError);
      expect(err.code).toBe(402);
      expect(err.message).toBe("Insufficient credits: this operation needs 10 credits and 0 are available.");
      expect(err.data).toEqual({ needed: 10, available: 0 });
    }
    expect(await getBalance(db, org)).toEqual({ credit_balance: 0 });
    // A refused debit leaves nothing behind: no ledger row, no marker.
    expect(await c().ledger.countDocuments({ org_id: org, kind: "debit" })).toBe(5);
    expect(await c().ledger.countDocuments({ org_id: org, state: "pending" })).toBe(0);
    expect((await c().accounts.findOne({ _id: org }))?.applied).toEqual([]);
  });

  it("states needed and available credits, and lets the refused reference succeed once credits exist", async () => {
    const org = await fundedOrg(12);
    const err = await rejection(debitCredits(db, { org_id: org, amount: 25, reference: "job-a", reason: "article" }));
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect(err.message).toMatch(/needs 25 credits and 12 are available/);
    expect(await c().ledger.findOne({ reference: "job-a" })).toBeNull();

    await grantCredits(db, { org_id: org, amount: 20, reason: "top-up" });
    expect(await debitCredits(db, { org_id: org, amount: 25, reference: "job-a", reason: "article" })).toEqual({ credit_balance: 7, replayed: false });
  });

  it("refuses a debit for an organization without an account", async () => {
    const err = await rejection(debitCredits(db, { org_id: newId(), amount: 1, reference: newId(), reason: "article" }));
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect(err.data).toEqual({ needed: 1, available: 0 });
  });

  it("debits a reference once: a repeat is a replay", async () => {
    const org = await fundedOrg(100);
    const reference = `job-${newId()}`;
    expect(await debitCredits(db, { org_id: org, amount: 10, reference, reason: "article" })).toEqual({ credit_balance: 90, replayed: false });
    expect(await debitCredits(db, { org_id: org, amount: 10, reference, reason: "article" })).toEqual({ credit_balance: 90, replayed: true });
    expect(await c().ledger.findOne({ reference })).toMatchObject({ state: "applied", kind: "debit", amount: 10, balance_after: 90 });
  });

  it("debits a reference once when the same request arrives concurrently", async () => {
    const org = await fundedOrg(100);
    const reference = `job-${newId()}`;
    const results = await Promise.all(Array.from({ length: 6 }, () => debitCredits(db, { org_id: org, amount: 30, reference, reason: "article" })));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await getBalance(db, org)).toEqual({ credit_balance: 70 });
  });

  it("answers 400 when a reference is reused for another movement", async () => {
    const org = await fundedOrg(100);
    const reference = `job-${newId()}`;
    await debitCredits(db, { org_id: org, amount: 10, reference, reason: "article" });
    const err = await rejection(debitCredits(db, { org_id: org, amount: 11, reference, reason: "article" }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.code).toBe(400);
    expect(err.message).toBe(`reference: '${reference}' was already used for a different credit movement`);
    expect(await getBalance(db, org)).toEqual({ credit_balance: 90 });
  });
});

describe("refunds", () => {
  it("refunds a debit exactly once", async () => {
    const org = await fundedOrg(100);
    await debitCredits(db, { org_id: org, amount: 28, reference: "job-r", reason: "article" });
    expect(await refundDebit(db, { org_id: org, reference: "job-r" })).toEqual({ refunded: 28, credit_balance: 100, replayed: false });
    expect(await refundDebit(db, { org_id: org, reference: "job-r" })).toEqual({ refunded: 28, credit_balance: 100, replayed: true });
    expect(await c().ledger.findOne({ reference: "refund:job-r" })).toMatchObject({ kind: "refund", amount: 28, refund_of: "job-r", state: "applied" });
  });

  it("refunds once under concurrent requests", async () => {
    const org = await fundedOrg(50);
    await debitCredits(db, { org_id: org, amount: 10, reference: `job-${org}`, reason: "article" });
    const results = await Promise.all(Array.from({ length: 5 }, () => refundDebit(db, { org_id: org, reference: `job-${org}` })));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await getBalance(db, org)).toEqual({ credit_balance: 50 });
  });

  it("answers 404 for an unknown reference, another organization's debit, or a grant", async () => {
    const org = await fundedOrg(100);
    const other = await fundedOrg(100);
    await debitCredits(db, { org_id: other, amount: 10, reference: `job-${other}`, reason: "article" });

    for (const reference of ["no-such-debit", `job-${other}`, `initial:${org}`]) {
      const err = await rejection(refundDebit(db, { org_id: org, reference }));
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.code).toBe(404);
      expect(err.message).toBe("No such debit.");
    }
    expect(await getBalance(db, org)).toEqual({ credit_balance: 100 });
    expect(await getBalance(db, other)).toEqual({ credit_balance: 90 });
  });
});

describe("crash recovery", () => {
  /** A pending row as step 1 leaves it, already past its deadline unless told otherwise. */
  function pendingRow(org: string, reference: string, amount: number, expiresInMs = -1000): LedgerRow {
    const now = new Date();
    return { _id: newId(), reference, kind: "debit", org_id: org, amount, reason: "article", state: "pending", created_at: now, expires_at: new Date(now.getTime() + expiresInMs) };
  }

  /** What step 2 does to the account. */
  async function applyStep2ByHand(org: string, reference: string, amount: number): Promise<void> {
    await c().accounts.updateOne({ _id: org }, { $inc: { credit_balance: -amount }, $push: { applied: reference } });
  }

  it("removes a row whose caller died after step 1, and the reference works afterwards", async () => {
    const org = await fundedOrg(30);
    await c().ledger.insertOne(pendingRow(org, `crash1-${org}`, 10));

    const report = await recoverPendingLedger(db);
    expect(report.removed).toBeGreaterThanOrEqual(1);
    expect(await c().ledger.findOne({ reference: `crash1-${org}` })).toBeNull();
    expect(await getBalance(db, org)).toEqual({ credit_balance: 30 });

    expect(await debitCredits(db, { org_id: org, amount: 10, reference: `crash1-${org}`, reason: "article" })).toEqual({ credit_balance: 20, replayed: false });
  });

  it("finishes a row whose caller died after step 2, without charging twice", async () => {
    const org = await fundedOrg(30);
    const reference = `crash2-${org}`;
    await c().ledger.insertOne(pendingRow(org, reference, 10));
    await applyStep2ByHand(org, reference, 10);

    const report = await recoverPendingLedger(db);
    expect(report.finished).toBeGreaterThanOrEqual(1);
    expect(await c().ledger.findOne({ reference })).toMatchObject({ state: "applied" });
    expect(await c().accounts.findOne({ _id: org })).toMatchObject({ credit_balance: 20, applied: [] });

    expect(await debitCredits(db, { org_id: org, amount: 10, reference, reason: "article" })).toEqual({ credit_balance: 20, replayed: true });
  });

  it("finishes a row whose caller died after step 3", async () => {
    const org = await fundedOrg(30);
    const reference = `crash3-${org}`;
    await c().ledger.insertOne({ ...pendingRow(org, reference, 10), state: "applied" });
    await applyStep2ByHand(org, reference, 10);

    const report = await recoverPendingLedger(db);
    expect(report.finished).toBeGreaterThanOrEqual(1);
    expect(await c().accounts.findOne({ _id: org })).toMatchObject({ credit_balance: 20, applied: [] });
    expect(await debitCredits(db, { org_id: org, amount: 10, reference, reason: "article" })).toEqual({ credit_balance: 20, replayed: true });
  });

  it("leaves rows still within their deadline alone", async () => {
    const org = await fundedOrg(30);
    const reference = `inflight-${org}`;
    await c().ledger.insertOne(pendingRow(org, reference, 10, 60_000));
    await recoverPendingLedger(db);
    expect(await c().ledger.findOne({ reference })).toMatchObject({ state: "pending" });
    await c().ledger.deleteOne({ reference });
  });

  it("lets a repeat finish an interrupted movement at once when the balance already changed", async () => {
    const org = await fundedOrg(30);
    const reference = `repeat2-${org}`;
    await c().ledger.insertOne(pendingRow(org, reference, 10, 60_000));
    await applyStep2ByHand(org, reference, 10);

    expect(await debitCredits(db, { org_id: org, amount: 10, reference, reason: "article" })).toEqual({ credit_balance: 20, replayed: true });
    expect(await c().ledger.findOne({ reference })).toMatchObject({ state: "applied" });
    expect((await c().accounts.findOne({ _id: org }))?.applied).toEqual([]);
  });

  it("lets a repeat wait out an interrupted movement that never reached the balance, then apply its own", async () => {
    const org = await fundedOrg(30);
    const reference = `repeat1-${org}`;
    await c().ledger.insertOne(pendingRow(org, reference, 10, 300));

    expect(await debitCredits(db, { org_id: org, amount: 10, reference, reason: "article" })).toEqual({ credit_balance: 20, replayed: false });
    expect(await c().ledger.countDocuments({ reference })).toBe(1);
  });
});

describe("usage report", () => {
  it("reports 30 days by default, oldest first, ending today, zeros where nothing happened", async () => {
    const org = await fundedOrg(10);
    const clock = fixedClock("2025-03-10T12:00:00Z");
    const report = await usageReport(db, parseOrThrow(UsageParams, { org_id: org }), clock);
    expect(report.object).toBe("usage");
    expect(report.days).toBe(30);
    expect(report.credit_balance).toBe(10);
    expect(report.daily).toHaveLength(30);
    expect(report.daily[0]).toEqual({ day: "2025-02-09", credits: 0, requests: 0, tokens_in: 0, tokens_out: 0 });
    expect(report.daily[29].day).toBe("2025-03-10");
    expect(report.daily.every((d) => d.credits === 0 && d.requests === 0 && d.tokens_in === 0 && d.tokens_out === 0)).toBe(true);
  });

  it("caps the window at 90 days", async () => {
    const report = await usageReport(db, parseOrThrow(UsageParams, { org_id: newId(), days: 365 }), fixedClock("2025-03-10T00:00:00Z"));
    expect(report.days).toBe(90);
    expect(report.daily).toHaveLength(90);
    expect(report.daily[89].day).toBe("2025-03-10");
    expect(report.credit_balance).toBe(0);
  });

  it("sums requests and tokens, and reports credits net of refunds per day of the balance change", async () => {
    const org = await fundedOrg(200);
    const clock = fixedClock("2025-03-08T09:00:00Z");

    await debitCredits(db, { org_id: org, amount: 10, reference: `u1-${org}`, reason: "article" }, clock);
    await debitCredits(db, { org_id: org, amount: 25, reference: `u2-${org}`, reason: "article" }, clock);
    await refundDebit(db, { org_id: org, reference: `u1-${org}` }, clock);
    await recordTokens(db, { org_id: org, tokens_in: 1000, tokens_out: 300 }, clock);
    await recordTokens(db, { org_id: org, tokens_in: 500, tokens_out: 200 }, clock);

    clock.set("2025-03-09T23:59:59Z");
    await refundDebit(db, { org_id: org, reference: `u2-${org}` }, clock);

    clock.set("2025-03-10T08:00:00Z");
    await debitCredits(db, { org_id: org, amount: 13, reference: `u3-${org}`, reason: "article" }, clock);
    await recordRequests(db, {
      counts: [
        { org_id: org, day: "2025-03-08", requests: 4 },
        { org_id: org, day: "2025-03-10", requests: 2 },
        { org_id: org, day: "2025-03-10", requests: 3 },
      ],
    });
    await recordRequests(db, { counts: [{ org_id: org, day: "2025-03-08", requests: 1 }] });
    await recordRequests(db, { counts: [] });

    const report = await usageReport(db, { org_id: org, days: 4 }, clock);
    expect(report).toEqual({
      object: "usage",
      days: 4,
      credit_balance: 187,
      daily: [
        { day: "2025-03-07", credits: 0, requests: 0, tokens_in: 0, tokens_out: 0 },
        { day: "2025-03-08", credits: 25, requests: 5, tokens_in: 1500, tokens_out: 500 },
        { day: "2025-03-09", credits: -25, requests: 0, tokens_in: 0, tokens_out: 0 },
        { day: "2025-03-10", credits: 13, requests: 5, tokens_in: 0, tokens_out: 0 },
      ],
    });
  });

  it("does not count grants as usage", async () => {
    const clock = fixedClock("2025-03-10T10:00:00Z");
    const org = newId();
    await openAccount(db, { org_id: org, credits: 50 }, clock);
    await grantCredits(db, { org_id: org, amount: 5, reason: "promo" }, clock);
    const report = await usageReport(db, { org_id: org, days: 1 }, clock);
    expect(report.daily).toEqual([{ day: "2025-03-10", credits: 0, requests: 0, tokens_in: 0, tokens_out: 0 }]);
    expect(report.credit_balance).toBe(55);
  });

  it("drops daily credit entries far older than the report window", async () => {
    const org = await fundedOrg(100);
    const clock = fixedClock("2024-01-01T10:00:00Z");
    await debitCredits(db, { org_id: org, amount: 10, reference: `old-${org}`, reason: "article" }, clock);
    clock.set("2024-12-31T10:00:00Z");
    await debitCredits(db, { org_id: org, amount: 10, reference: `new-${org}`, reason: "article" }, clock);
    expect((await c().accounts.findOne({ _id: org }))?.credits_by_day).toEqual({ "2024-12-31": 10 });
  });
});

describe("charging an article", () => {
  const article = { mode: "deep_research" as const, image: true, derivatives: ["linkedin"], language: "de" };

  it("prices the article and debits that price in one call; a repeat of the reference is replayed", async () => {
    const org = await fundedOrg(100);
    const reference = newId();
    const first = await chargeArticle(db, { org_id: org, reference, reason: "article job", article });
    expect(first).toMatchObject({ credits: 36, credit_balance: 64, replayed: false });
    expect(first.breakdown.map((p) => p.component)).toEqual(["mode:deep_research", "image", "derivatives", "non_english_language"]);
    expect(await chargeArticle(db, { org_id: org, reference, reason: "article job", article })).toMatchObject({ credits: 36, credit_balance: 64, replayed: true });
    expect((await c().ledger.find({ org_id: org, kind: "debit" }).toArray()).map((r) => [r.reference, r.amount])).toEqual([[reference, 36]]);
  });

  it("refuses a price the balance cannot cover, charging nothing", async () => {
    const org = await fundedOrg(20);
    const err = await rejection(chargeArticle(db, { org_id: org, reference: newId(), reason: "article job", article }));
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect(err.data).toEqual({ needed: 36, available: 20 });
    expect((await getBalance(db, org)).credit_balance).toBe(20);
  });
});
