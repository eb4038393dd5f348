import type { Collection, Db } from "mongodb";
import type { CollectionSpec } from "../../shared/db/mixin";

/** An organization's credit account; `_id` is the organization id. */
export interface AccountDoc {
  _id: string;
  credit_balance: number;
  /**
   * References whose balance change is applied but whose ledger row is not yet marked applied.
   * Usually empty; an entry outlives its operation only when the process died between steps (docs/billing.md).
   */
  applied: string[];
  /** Net credits spent per UTC day (debits minus refunds), changed in the same write as the balance. */
  credits_by_day: Record<string, number>;
  created_at: Date;
  updated_at: Date;
}

export type LedgerKind = "debit" | "refund" | "grant";
export type LedgerState = "pending" | "applied";

/** One credit movement. `reference` is unique: it is what makes every movement idempotent. */
export interface LedgerRow {
  /** Identifies this attempt: a row deleted and inserted again under the same reference is another attempt. */
  _id: string;
  reference: string;
  kind: LedgerKind;
  org_id: string;
  /** Always positive; `kind` gives the direction. */
  amount: number;
  reason: string;
  /** For a refund: the reference of the debit it gives back. */
  refund_of?: string;
  state: LedgerState;
  /** A pending row may be applied only before this instant, measured by the database server's clock. */
  expires_at: Date;
  created_at: Date;
  applied_at?: Date;
  /** The balance right after this movement; absent when recovery finished the row. */
  balance_after?: number;
}

/** Requests and model tokens per organization and UTC day; `_id` is `<org_id>:<day>`. */
export interface UsageDailyDoc {
  _id: string;
  org_id: string;
  day: string;
  requests: number;
  tokens_in: number;
  tokens_out: number;
}

export const ACCOUNTS = "accounts";
export const LEDGER = "ledger";
export const USAGE_DAILY = "usage_daily";

export const BILLING_COLLECTIONS: CollectionSpec[] = [
  { name: ACCOUNTS, indexes: [{ key: { applied: 1 }, name: "applied_markers" }] },
  {
    name: LEDGER,
    indexes: [
      { key: { reference: 1 }, name: "reference_unique", unique: true },
      { key: { org_id: 1, created_at: -1 }, name: "org_recent" },
      { key: { state: 1 }, name: "state" },
    ],
  },
  { name: USAGE_DAILY, indexes: [{ key: { org_id: 1, day: 1 }, name: "org_day" }] },
];

export interface BillingCollections {
  accounts: Collection<AccountDoc>;
  ledger: Collection<LedgerRow>;
  usageDaily: Collection<UsageDailyDoc>;
}

export function billingCollections(db: Db): BillingCollections {
  return {
    accounts: db.collection<AccountDoc>(ACCOUNTS),
    ledger: db.collection<LedgerRow>(LEDGER),
    usageDaily: db.collection<UsageDailyDoc>(USAGE_DAILY),
  };
}

export const usageDayId = (orgId: string, day: string): string => `${orgId}:${day}`;
