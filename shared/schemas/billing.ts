import { z } from "zod";
import { contract } from "../action";
import { ARTICLE_MODES } from "./articles";
import { orgId, queryInt } from "../validation";

/** Billing contracts: the `GET /v1/usage` query the gateway validates, and the params and results of every billing action. */

export const MAX_USAGE_DAYS = 90;
export const DEFAULT_USAGE_DAYS = 30;
/** Upper bound of any single credit movement: a typo must not mint or burn millions. */
export const MAX_CREDIT_AMOUNT = 10_000_000;

const amount = z
  .number()
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(MAX_CREDIT_AMOUNT, `must be at most ${MAX_CREDIT_AMOUNT}`);
const reference = z.string().min(1, "must not be empty").max(200, "must be at most 200 characters");
const reason = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const tokenCount = z.number().int("must be a whole number").min(0, "must be at least 0").max(100_000_000, "must be at most 100000000");

/** `GET /v1/usage?days=N`: default 30, values above 90 are capped to 90 (rule: usage looks back at most 90 days); anything else than digits is a 400. */
export const UsageQuery = z.strictObject({
  days: queryInt({ min: 1, max: MAX_USAGE_DAYS, default: DEFAULT_USAGE_DAYS, clampToMax: true }),
});

export const UsageParams = z.strictObject({
  org_id: orgId,
  days: z
    .number()
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .transform((n) => Math.min(n, MAX_USAGE_DAYS))
    .default(DEFAULT_USAGE_DAYS),
});

export const OpenAccountParams = z.strictObject({
  org_id: orgId,
  credits: z.number().int("must be a whole number").min(0, "must be at least 0").max(MAX_CREDIT_AMOUNT, `must be at most ${MAX_CREDIT_AMOUNT}`),
});

export const GrantParams = z.strictObject({
  org_id: orgId,
  amount,
  reason,
  /** Makes the grant idempotent; a fresh one is generated when omitted. */
  reference: reference.optional(),
});

export const BalanceParams = z.strictObject({ org_id: orgId });

/** At most this many organizations per `billing.balances` call: a page of the operator's organization list and then some. */
export const MAX_BALANCES_PER_CALL = 100;
export const BalancesParams = z.strictObject({
  org_ids: z.array(orgId).max(MAX_BALANCES_PER_CALL, `must hold at most ${MAX_BALANCES_PER_CALL} organization ids`),
});

export const DebitParams = z.strictObject({ org_id: orgId, amount, reference, reason });

export const RefundParams = z.strictObject({
  org_id: orgId,
  /** The reference of the debit to refund. */
  reference,
});


export const QuoteParams = z.strictObject({
  mode: z.enum(ARTICLE_MODES, { message: "must be 'standard' or 'deep_research'" }),
  image: z.boolean(),
  derivatives: z.array(z.string().min(1).max(50)).max(20),
  language: z.string().min(1, "must not be empty").max(12, "must be at most 12 characters"),
});

/** Prices an article (the one pricing table, services/billing/pricing.ts) and debits that price, in one call. */
export const ChargeArticleParams = z.strictObject({ org_id: orgId, reference, reason, article: QuoteParams });
export type ArticleChargeInput = z.output<typeof ChargeArticleParams>;

export const RecordTokensParams = z.strictObject({ org_id: orgId, tokens_in: tokenCount, tokens_out: tokenCount });

function isCalendarDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

const utcDayString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date YYYY-MM-DD", abort: true })
  .refine(isCalendarDay, "must be a calendar date");

export const RecordRequestsParams = z.strictObject({
  counts: z
    .array(z.strictObject({ org_id: orgId, day: utcDayString, requests: z.number().int("must be a whole number").min(1, "must be at least 1").max(100_000_000) }))
    .max(100_000),
});

export type QuoteInput = z.output<typeof QuoteParams>;

export interface BalanceResult {
  credit_balance: number;
}

/** `billing.balances`' reply: one row per id asked for, in the order asked; an organization without an account has 0. */
export interface BalancesResult {
  object: "list";
  data: { org_id: string; credit_balance: number }[];
}

export interface CreditMovementResult {
  credit_balance: number;
  /** True when the reference had already been applied: nothing changed this time. */
  replayed: boolean;
}

export interface RefundResult extends CreditMovementResult {
  refunded: number;
}

export interface PriceComponent {
  component: string;
  credits: number;
}

export interface Quote {
  credits: number;
  breakdown: PriceComponent[];
}

export const UsageDay = z.strictObject({
  day: z.iso.date(),
  credits: z.number().int(),
  requests: z.number().int().min(0),
  tokens_in: z.number().int().min(0),
  tokens_out: z.number().int().min(0),
});
export type UsageDay = z.output<typeof UsageDay>;

/** The usage report (rule: one row per UTC day, no gaps): `daily` holds one row per UTC day, oldest first, ending today. */
export const UsageReport = z.strictObject({
  object: z.literal("usage"),
  days: z.number().int().min(1),
  credit_balance: z.number().int(),
  daily: z.array(UsageDay),
});
export type UsageReport = z.output<typeof UsageReport>;

// The billing service's actions: params and reply declared once (shared/action.ts `contract`).
/** What `billing.chargeArticle` took: the price with its components, and the movement. */
export type ArticleCharge = Quote & CreditMovementResult;

export const BillingActions = {
  chargeArticle: contract<ArticleCharge>()("billing.chargeArticle", ChargeArticleParams),
  openAccount: contract<BalanceResult>()("billing.openAccount", OpenAccountParams),
  grant: contract<CreditMovementResult>()("billing.grant", GrantParams),
  balance: contract<BalanceResult>()("billing.balance", BalanceParams),
  balances: contract<BalancesResult>()("billing.balances", BalancesParams),
  quote: contract<Quote>()("billing.quote", QuoteParams),
  debit: contract<CreditMovementResult>()("billing.debit", DebitParams),
  refund: contract<RefundResult>()("billing.refund", RefundParams),
  recordTokens: contract<Record<string, never>>()("billing.recordTokens", RecordTokensParams),
  recordRequests: contract<Record<string, never>>()("billing.recordRequests", RecordRequestsParams),
  usage: contract<UsageReport>()("billing.usage", UsageParams),
};
