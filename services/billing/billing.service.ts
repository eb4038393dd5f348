import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { serve } from "../../shared/action";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { BillingActions } from "../../shared/schemas/billing";
import { chargeArticle, debitCredits, getBalance, getBalances, grantCredits, openAccount, recoverPendingLedger, refundDebit } from "./ledger";
import { priceArticle } from "./pricing";
import { announcedWrite, announcingUsage } from "./announce-usage";
import { BILLING_COLLECTIONS } from "./store";
import { recordRequests, recordTokens, usageReport } from "./usage";

type BillingService = Service & DbService & { recoveryTimer?: NodeJS.Timeout };

/** Pending ledger rows left by a crashed caller (of any replica) are decided this often, besides at start. */
const RECOVERY_INTERVAL_MS = 60_000;

/** Credit accounts, the credit ledger, article prices and daily usage. */
const BillingServiceSchema: ServiceSchema<ServiceSettingSchema, BillingService> = {
  name: "billing",
  mixins: [dbMixin("billing", BILLING_COLLECTIONS)],

  /** Every write that can change an organization's usage report is announced to the gateways (announce-usage.ts). */
  actions: {
    openAccount: serve(BillingActions.openAccount, announcedWrite(openAccount)),
    grant: serve(BillingActions.grant, announcedWrite(grantCredits)),
    balance: serve(BillingActions.balance, ({ org_id }, _ctx, svc: BillingService) => getBalance(svc.db, org_id)),
    /** The operator's organization list: a page's balances in one call. */
    balances: serve(BillingActions.balances, ({ org_ids }, _ctx, svc: BillingService) => getBalances(svc.db, org_ids)),
    quote: serve(BillingActions.quote, (params) => priceArticle(params)),
    chargeArticle: serve(BillingActions.chargeArticle, announcedWrite(chargeArticle)),
    debit: serve(BillingActions.debit, announcedWrite(debitCredits)),
    refund: serve(BillingActions.refund, announcedWrite(refundDebit)),
    recordTokens: serve(BillingActions.recordTokens, announcedWrite(recordTokens)),
    recordRequests: serve(BillingActions.recordRequests, (params, ctx, svc: BillingService) =>
      announcingUsage(ctx, params.counts.map((c) => c.org_id), () => recordRequests(svc.db, params)),
    ),
    usage: serve(BillingActions.usage, (params, _ctx, svc: BillingService) => usageReport(svc.db, params)),
  },

  async started(this: BillingService) {
    await recoverLedger(this);
    this.recoveryTimer = setInterval(() => void recoverLedger(this).catch((err) => this.logger.error(err, "ledger recovery failed")), RECOVERY_INTERVAL_MS);
    this.recoveryTimer.unref();
  },

  stopped(this: BillingService) {
    clearInterval(this.recoveryTimer);
  },
};

async function recoverLedger(svc: BillingService): Promise<void> {
  const report = await recoverPendingLedger(svc.db);
  if (report.finished || report.removed) svc.logger.warn({ ...report }, "decided pending ledger rows left by an interrupted credit movement");
}

export default BillingServiceSchema;
