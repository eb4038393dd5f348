import type { AnyBulkWriteOperation, Db } from "mongodb";
import { type Clock, DAY_MS, systemClock, utcDay } from "../../shared/clock";
import type { UsageDay, UsageReport } from "../../shared/schemas/billing";
import { billingCollections, type UsageDailyDoc, usageDayId } from "./store";

/** `YYYY-MM-DD` shifted by `delta` whole days. */
export function addDays(day: string, delta: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + delta * DAY_MS));
}

/** The `days` UTC days ending with `today`, oldest first. */
export function daysEndingOn(today: string, days: number): string[] {
  return Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
}

/** Adds model tokens to today's usage row. */
export async function recordTokens(
  db: Db,
  params: { org_id: string; tokens_in: number; tokens_out: number },
  clock: Clock = systemClock,
): Promise<Record<string, never>> {
  const day = utcDay(clock.now());
  await billingCollections(db).usageDaily.updateOne(
    { _id: usageDayId(params.org_id, day) },
    { $inc: { tokens_in: params.tokens_in, tokens_out: params.tokens_out }, $setOnInsert: { org_id: params.org_id, day } },
    { upsert: true },
  );
  return {};
}

/** Adds the request counts batched by the auth service: one upsert per organization and day, in one round trip. */
export async function recordRequests(db: Db, params: { counts: { org_id: string; day: string; requests: number }[] }): Promise<Record<string, never>> {
  const merged = new Map<string, { org_id: string; day: string; requests: number }>();
  for (const { org_id, day, requests } of params.counts) {
    const id = usageDayId(org_id, day);
    const entry = merged.get(id);
    if (entry) entry.requests += requests;
    else merged.set(id, { org_id, day, requests });
  }
  if (merged.size === 0) return {};
  const ops: AnyBulkWriteOperation<UsageDailyDoc>[] = [...merged].map(([id, { org_id, day, requests }]) => ({
    updateOne: { filter: { _id: id }, update: { $inc: { requests }, $setOnInsert: { org_id, day } }, upsert: true },
  }));
  await billingCollections(db).usageDaily.bulkWrite(ops, { ordered: false });
  return {};
}

/**
 * The usage report: one row per UTC day of the window ending today, oldest first, zeros where nothing happened.
 * `credits` is net: debited minus refunded that day, negative on a day whose refunds exceed its debits.
 */
export async function usageReport(db: Db, params: { org_id: string; days: number }, clock: Clock = systemClock): Promise<UsageReport> {
  const c = billingCollections(db);
  const window = daysEndingOn(utcDay(clock.now()), params.days);
  const [account, rows] = await Promise.all([
    c.accounts.findOne({ _id: params.org_id }, { projection: { credit_balance: 1, credits_by_day: 1 } }),
    c.usageDaily.find({ org_id: params.org_id, day: { $gte: window[0], $lte: window[window.length - 1] } }).toArray(),
  ]);
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const daily: UsageDay[] = window.map((day) => {
    const row = byDay.get(day);
    return {
      day,
      credits: account?.credits_by_day?.[day] ?? 0,
      requests: row?.requests ?? 0,
      tokens_in: row?.tokens_in ?? 0,
      tokens_out: row?.tokens_out ?? 0,
    };
  });
  return { object: "usage", days: params.days, credit_balance: account?.credit_balance ?? 0, daily };
}
