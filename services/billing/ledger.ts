import { isDuplicateKeyError } from "../../shared/db/duplicate-key";
import { creditsDebited, creditsRefunded } from "../../shared/metrics";
import { setTimeout as sleep } from "node:timers/promises";
import type { Db, Filter, UpdateFilter } from "mongodb";
import { type Clock, systemClock, utcDay } from "../../shared/clock";
import { ApiError, InsufficientCreditsError, NotFoundError, ValidationError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import type { ArticleCharge, ArticleChargeInput, BalanceResult, BalancesResult, CreditMovementResult, RefundResult } from "../../shared/schemas/billing";
import { priceArticle } from "./pricing";
import { type AccountDoc, type BillingCollections, billingCollections, type LedgerKind, type LedgerRow } from "./store";
import { addDays } from "./usage";

/**
 * Credit movements without multi-document transactions (docs/billing.md#ledger).
 *
 * 1. insert the ledger row `pending` (unique `reference`: a duplicate is a repeat);
 * 2. change the balance in one conditional update that also pushes the reference onto `account.applied`;
 * 3. mark the row `applied`;
 * 4. pull the reference off `account.applied`.
 *
 * Only the caller that inserted a row runs step 2 for it, and only while the database server's
 * clock is before the row's `expires_at`. Once that instant has passed, anyone may decide the row:
 * reference on the account ⇒ applied (finish 3–4), otherwise it never will be (delete it).
 */

/** How long the inserting caller has to apply its row; also how soon a crashed movement is recovered. */
export const PENDING_TTL_MS = 10_000;
const POLL_MS = 20;
/** Daily spent-credit entries older than this are dropped from the account (the usage report shows 90 days). */
const CREDITS_BY_DAY_RETENTION_DAYS = 120;

interface Movement {
  kind: LedgerKind;
  org_id: string;
  amount: number;
  reason: string;
  reference: string;
  refund_of?: string;
}

interface MovementOutcome extends CreditMovementResult {
  row: LedgerRow;
}

type Collections = BillingCollections;

export async function getBalance(db: Db, orgId: string): Promise<BalanceResult> {
  return { credit_balance: await balanceOf(billingCollections(db), orgId) };
}

/** The balances of several organizations in one read, in the order asked; one without an account has 0 (as `getBalance`). */
export async function getBalances(db: Db, orgIds: string[]): Promise<BalancesResult> {
  const found = orgIds.length
    ? await billingCollections(db).accounts.find({ _id: { $in: [...new Set(orgIds)] } }, { projection: { credit_balance: 1 } }).toArray()
    : [];
  const balance = new Map(found.map((a) => [a._id, a.credit_balance]));
  return { object: "list", data: orgIds.map((org_id) => ({ org_id, credit_balance: balance.get(org_id) ?? 0 })) };
}

/** Creates the account if missing and grants the initial credits once (reference `initial:<org_id>`). */
export async function openAccount(db: Db, params: { org_id: string; credits: number }, clock: Clock = systemClock): Promise<BalanceResult> {
  const c = billingCollections(db);
  await ensureAccount(c, params.org_id, clock);
  const reference = `initial:${params.org_id}`;
  // Opening again changes nothing, even with another amount: the first opening decided the initial grant.
  if (params.credits > 0 && !(await c.ledger.findOne({ reference }, { projection: { _id: 1 } }))) {
    await applyMovement(c, { kind: "grant", org_id: params.org_id, amount: params.credits, reason: "initial credits", reference }, clock);
  }
  return { credit_balance: await balanceOf(c, params.org_id) };
}

export async function grantCredits(
  db: Db,
  params: { org_id: string; amount: number; reason: string; reference?: string },
  clock: Clock = systemClock,
): Promise<CreditMovementResult> {
  const c = billingCollections(db);
  await ensureAccount(c, params.org_id, clock);
  const { credit_balance, replayed } = await applyMovement(
    c,
    { kind: "grant", org_id: params.org_id, amount: params.amount, reason: params.reason, reference: params.reference ?? newId() },
    clock,
  );
  return { credit_balance, replayed };
}

/** Takes `amount` credits, or throws InsufficientCreditsError leaving nothing behind. The balance never goes negative. */
export async function debitCredits(
  db: Db,
  params: { org_id: string; amount: number; reference: string; reason: string },
  clock: Clock = systemClock,
): Promise<CreditMovementResult> {
  const { credit_balance, replayed } = await applyMovement(billingCollections(db), { kind: "debit", ...params }, clock);
  if (!replayed) creditsDebited.inc(params.amount);
  return { credit_balance, replayed };
}

/**
 * Prices an article and debits that price under `reference`: the caller never sends a price back.
 * A repeat of the reference is replayed like any debit (the price of the same article is the same).
 */
export async function chargeArticle(db: Db, { article, ...debit }: ArticleChargeInput, clock: Clock = systemClock): Promise<ArticleCharge> {
  const quote = priceArticle(article);
  return { ...quote, ...(await debitCredits(db, { ...debit, amount: quote.credits }, clock)) };
}

/** Gives back the debit carrying `reference`, exactly once (ledger reference `refund:<reference>`). */
export async function refundDebit(db: Db, params: { org_id: string; reference: string }, clock: Clock = systemClock): Promise<RefundResult> {
  const c = billingCollections(db);
  let debit = await c.ledger.findOne({ reference: params.reference });
  if (!debit || debit.kind !== "debit" || debit.org_id !== params.org_id) throw new NotFoundError("debit");
  if (debit.state === "pending") {
    // The debit is still in flight (or its caller died): wait for it to be decided.
    const settled = await settleExisting(c, movementOf(debit), clock);
    if (!settled) throw new NotFoundError("debit");
    debit = settled.row;
  }
  const outcome = await applyMovement(
    c,
    {
      kind: "refund",
      org_id: debit.org_id,
      amount: debit.amount,
      reason: `refund of ${debit.reference}`,
      reference: `refund:${debit.reference}`,
      refund_of: debit.reference,
    },
    clock,
  );
  if (!outcome.replayed) creditsRefunded.inc(debit.amount);
  return { refunded: debit.amount, credit_balance: outcome.credit_balance, replayed: outcome.replayed };
}

export interface RecoveryReport {
  /** Movements whose balance change had been applied: steps 3–4 completed. */
  finished: number;
  /** Rows whose balance change never happened: deleted, so their reference can be used again. */
  removed: number;
}

/** Decides every pending row past its `expires_at`: what a crash between steps left behind. Safe to run anytime, anywhere. */
export async function recoverPendingLedger(db: Db, clock: Clock = systemClock): Promise<RecoveryReport> {
  const c = billingCollections(db);
  const report: RecoveryReport = { finished: 0, removed: 0 };
  const expired = await c.ledger.find({ state: "pending", ...EXPIRED }).limit(1000).toArray();
  for (const row of expired) report[await decideExpiredRow(c, row, clock)]++;
  // Markers of rows already applied: the caller died between steps 3 and 4. (`$gt: ""` matches non-empty arrays through the index.)
  const marked = await c.accounts.find({ applied: { $gt: "" } }, { projection: { applied: 1 } }).limit(1000).toArray();
  for (const account of marked) {
    for (const reference of account.applied) {
      if ((await c.ledger.findOne({ reference }, { projection: { state: 1 } }))?.state !== "applied") continue;
      await c.accounts.updateOne({ _id: account._id }, withoutMarker(reference, []));
      report.finished++;
    }
  }
  return report;
}

/** Compared on the server, so that the deadline of step 2 and the decision of recovery read the same clock. */
const EXPIRED: Filter<LedgerRow> = { $expr: { $gte: ["$$NOW", "$expires_at"] } };

async function applyMovement(c: Collections, movement: Movement, clock: Clock): Promise<MovementOutcome> {
  // A competing attempt under the same reference may be removed (its debit was refused) while we look at it; then we try ours.
  for (let round = 0; round < 5; round++) {
    const now = clock.now();
    const row: LedgerRow = {
      _id: newId(),
      ...movement,
      state: "pending",
      // Real time, not the injected clock: the server's clock enforces this deadline.
      expires_at: new Date(Date.now() + PENDING_TTL_MS),
      created_at: now,
    };
    try {
      await c.ledger.insertOne(row);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const settled = await settleExisting(c, movement, clock);
      if (settled) return settled;
      continue;
    }
    return applyOwnRow(c, row, clock);
  }
  throw busy(movement.reference);
}

/** Steps 2–4 for the row this caller inserted. */
async function applyOwnRow(c: Collections, row: LedgerRow, clock: Clock): Promise<MovementOutcome> {
  const filter: Filter<AccountDoc> = {
    _id: row.org_id,
    applied: { $ne: row.reference },
    $expr: { $lt: ["$$NOW", row.expires_at] },
    ...(row.kind === "debit" ? { credit_balance: { $gte: row.amount } } : {}),
  };
  for (;;) {
    const account = await c.accounts.findOneAndUpdate(filter, balanceChange(row, clock), {
      returnDocument: "after",
      projection: { credit_balance: 1, credits_by_day: 1 },
    });
    if (account) {
      await markApplied(c, row, clock, account.credit_balance);
      await c.accounts.updateOne({ _id: row.org_id }, withoutMarker(row.reference, staleDays(account.credits_by_day, clock)));
      return { credit_balance: account.credit_balance, replayed: false, row };
    }

    const current = await c.accounts.findOne({ _id: row.org_id }, { projection: { credit_balance: 1, applied: 1 } });
    if (current?.applied.includes(row.reference)) {
      // Our update did land (a retried write answered "no match" the second time).
      await finishApplied(c, row, clock);
      return { credit_balance: current.credit_balance, replayed: false, row };
    }
    const available = current?.credit_balance ?? 0;
    if (row.kind === "debit" && available < row.amount) {
      await c.ledger.deleteOne({ _id: row._id, state: "pending" });
      throw new InsufficientCreditsError(row.amount, available);
    }
    if (!current) {
      // A grant or refund whose account vanished (grants create it, refunds follow a debit): nothing to retry.
      await c.ledger.deleteOne({ _id: row._id, state: "pending" });
      throw new NotFoundError("account");
    }
    if (await isExpired(c, row)) {
      await c.ledger.deleteOne({ _id: row._id, state: "pending" });
      throw busy(row.reference);
    }
    // The balance changed between our update and our read: try again.
  }
}

/**
 * A row with this reference exists: wait until it is decided, then report it as a replay.
 * Returns null when that row was removed (its movement never happened), so the caller may try its own.
 */
async function settleExisting(c: Collections, movement: Movement, clock: Clock): Promise<MovementOutcome | null> {
  const giveUpAt = Date.now() + 3 * PENDING_TTL_MS;
  for (;;) {
    const row = await c.ledger.findOne({ reference: movement.reference });
    if (!row) return null;
    assertSameMovement(row, movement);
    if (row.state === "applied") return { credit_balance: await balanceOf(c, row.org_id), replayed: true, row };
    if (await hasMarker(c, row)) await finishApplied(c, row, clock);
    else if (await isExpired(c, row)) await decideExpiredRow(c, row, clock);
    else if (Date.now() > giveUpAt) throw busy(movement.reference);
    else await sleep(POLL_MS);
  }
}

/** For a pending row seen expired: nobody can apply it any more, so the marker alone tells whether it was. */
async function decideExpiredRow(c: Collections, row: LedgerRow, clock: Clock): Promise<keyof RecoveryReport> {
  if (await hasMarker(c, row)) {
    await finishApplied(c, row, clock);
    return "finished";
  }
  await c.ledger.deleteOne({ _id: row._id, state: "pending" });
  return "removed";
}

/** Steps 3–4 for a row whose balance change is on the account (its reference is in `applied`). */
async function finishApplied(c: Collections, row: LedgerRow, clock: Clock): Promise<void> {
  await markApplied(c, row, clock);
  await c.accounts.updateOne({ _id: row.org_id }, withoutMarker(row.reference, []));
}

async function markApplied(c: Collections, row: LedgerRow, clock: Clock, balanceAfter?: number): Promise<void> {
  await c.ledger.updateOne(
    { _id: row._id, state: "pending" },
    { $set: { state: "applied", applied_at: clock.now(), ...(balanceAfter === undefined ? {} : { balance_after: balanceAfter }) } },
  );
}

/** Step 2's update: the balance, the day's spent credits and the marker, in one atomic write. */
function balanceChange(row: LedgerRow, clock: Clock): UpdateFilter<AccountDoc> {
  const sign = row.kind === "debit" ? -1 : 1;
  const inc: Record<string, number> = { credit_balance: sign * row.amount };
  // Grants are not usage: only debits and refunds count as credits spent.
  if (row.kind !== "grant") inc[`credits_by_day.${utcDay(clock.now())}`] = -sign * row.amount;
  return { $inc: inc, $push: { applied: row.reference }, $set: { updated_at: clock.now() } };
}

function withoutMarker(reference: string, staleDayKeys: string[]): UpdateFilter<AccountDoc> {
  const update: UpdateFilter<AccountDoc> = { $pull: { applied: reference } };
  if (staleDayKeys.length) update.$unset = Object.fromEntries(staleDayKeys.map((day) => [`credits_by_day.${day}`, ""]));
  return update;
}

function staleDays(creditsByDay: Record<string, number> | undefined, clock: Clock): string[] {
  const oldestKept = addDays(utcDay(clock.now()), -CREDITS_BY_DAY_RETENTION_DAYS);
  return Object.keys(creditsByDay ?? {}).filter((day) => day < oldestKept);
}

async function ensureAccount(c: Collections, orgId: string, clock: Clock): Promise<void> {
  const now = clock.now();
  await c.accounts.updateOne(
    { _id: orgId },
    { $setOnInsert: { credit_balance: 0, applied: [], credits_by_day: {}, created_at: now, updated_at: now } },
    { upsert: true },
  );
}

async function balanceOf(c: Collections, orgId: string): Promise<number> {
  const account = await c.accounts.findOne({ _id: orgId }, { projection: { credit_balance: 1 } });
  return account?.credit_balance ?? 0;
}

async function hasMarker(c: Collections, row: LedgerRow): Promise<boolean> {
  return (await c.accounts.findOne({ _id: row.org_id, applied: row.reference }, { projection: { _id: 1 } })) !== null;
}

async function isExpired(c: Collections, row: LedgerRow): Promise<boolean> {
  return (await c.ledger.findOne({ _id: row._id, state: "pending", ...EXPIRED }, { projection: { _id: 1 } })) !== null;
}

function movementOf(row: LedgerRow): Movement {
  return { kind: row.kind, org_id: row.org_id, amount: row.amount, reason: row.reason, reference: row.reference, refund_of: row.refund_of };
}

/** A reference names one movement: reusing it for another one is a bad request, never a silent replay. */
function assertSameMovement(row: LedgerRow, movement: Movement): void {
  if (row.kind !== movement.kind || row.org_id !== movement.org_id || row.amount !== movement.amount || (row.refund_of ?? null) !== (movement.refund_of ?? null)) {
    throw new ValidationError(`reference: '${movement.reference}' was already used for a different credit movement`);
  }
}

function busy(reference: string): ApiError {
  return new ApiError("service_unavailable", `The credit movement '${reference}' could not be completed in time. Retry with the same reference.`);
}
