import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { call, serve } from "../../shared/action";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { AuthActions } from "../../shared/schemas/admin";
import { BillingActions } from "../../shared/schemas/billing";
import { dashboardActions } from "./dashboard-actions";
import { DASHBOARD_COLLECTIONS } from "./dashboard-sessions";
import { announceRevocation, Authenticator } from "./authenticator";
import { createApiKey, keyHashOf, listApiKeys, revokeApiKey } from "./keys";
import { listOrganizations } from "./organization-list";
import { countOrganizations, createOrganization, requireOrganization } from "./organizations";
import { AUTH_COLLECTIONS } from "./store";
import { LastUsedRecorder, RequestCounter } from "./usage-recorders";

type AuthService = Service & DbService & { lastUsed: LastUsedRecorder; requests: RequestCounter; authenticator: Authenticator };

const clock = systemClock;
const LAST_USED_FLUSH_MS = 5000;

/** Organizations, API keys and per-key rate limits. */
const AuthServiceSchema: ServiceSchema<ServiceSettingSchema, AuthService> = {
  name: "auth",
  mixins: [dbMixin("auth", [...AUTH_COLLECTIONS, ...DASHBOARD_COLLECTIONS])],

  actions: {
    authenticate: serve(AuthActions.authenticate, async ({ token }, _ctx, svc: AuthService) => {
      // Key from this process's cache, window counted in memory against units reserved in the database (docs/request-path.md).
      const who = await svc.authenticator.authenticate(token);
      const now = clock.now();
      svc.lastUsed.record(who.key_id, now);
      svc.requests.record(who.org_id, now);
      return who;
    }),

    createOrganization: serve(AuthActions.createOrganization, async ({ name, credits }, ctx, svc: AuthService) => {
      const org = await createOrganization(svc.db, name, clock);
      const account = await call(ctx, BillingActions.openAccount, { org_id: org._id, credits });
      return { id: org._id, object: "organization", name: org.name, credit_balance: account.credit_balance, created_at: org.created_at.toISOString() };
    }),

    getOrganization: serve(AuthActions.getOrganization, async ({ org_id }, _ctx, svc: AuthService) => {
      const org = await requireOrganization(svc.db, org_id);
      return { id: org._id, object: "organization", name: org.name, created_at: org.created_at.toISOString() };
    }),

    /** `GET /admin/orgs` and the operator's dashboard: a page of organizations with their balances (one billing call). */
    listOrganizations: serve(AuthActions.listOrganizations, (params, ctx, svc: AuthService) =>
      listOrganizations(svc.db, params, async (org_ids) => {
        const { data } = await call(ctx, BillingActions.balances, { org_ids });
        return new Map(data.map((b) => [b.org_id, b.credit_balance]));
      }),
    ),

    countOrganizations: serve(AuthActions.countOrganizations, (_p, _ctx, svc: AuthService) => countOrganizations(svc.db)),

    createKey: serve(AuthActions.createKey, async (params, _ctx, svc: AuthService) => {
      await requireOrganization(svc.db, params.org_id);
      return createApiKey(svc.db, params, clock);
    }),

    listKeys: serve(AuthActions.listKeys, async ({ org_id }, _ctx, svc: AuthService) => {
      await requireOrganization(svc.db, org_id);
      return { object: "list", data: await listApiKeys(svc.db, org_id) };
    }),

    /** Written, then every auth process drops the key from its cache before the call returns (docs/request-path.md#revocation). */
    revokeKey: serve(AuthActions.revokeKey, async ({ key_id }, ctx, svc: AuthService) => {
      const startedAt = Date.now();
      const revoked = await revokeApiKey(svc.db, key_id, clock);
      const hash = await keyHashOf(svc.db, key_id);
      if (hash) {
        const notice = await announceRevocation(svc.broker, ctx, hash, startedAt);
        if (notice.waitedMs) svc.logger.warn({ key_id, ...notice }, "an auth process did not acknowledge a revocation: waited for its cached key to expire");
      }
      return revoked;
    }),

    /** The revocation notice (internal): drops a key from this process's cache. */
    forgetKey: serve(AuthActions.forgetKey, ({ key_hash }, _ctx, svc: AuthService) => {
      svc.authenticator.keys.forget(key_hash);
      return { forgotten: true };
    }),

    grantCredits: serve(AuthActions.grantCredits, async ({ org_id, amount, reason }, ctx: Context, svc: AuthService) => {
      await requireOrganization(svc.db, org_id);
      const grant = await call(ctx, BillingActions.grant, { org_id, amount, reason });
      return { object: "credit_grant", org_id, amount, credit_balance: grant.credit_balance };
    }),

    ...dashboardActions(clock),
  },

  created(this: AuthService) {
    this.authenticator = new Authenticator(() => this.db, clock);
    this.lastUsed = new LastUsedRecorder(() => this.db);
    this.requests = new RequestCounter((counts) => call(this.broker, BillingActions.recordRequests, { counts }));
  },

  started(this: AuthService) {
    this.lastUsed.start(LAST_USED_FLUSH_MS);
    this.requests.start(config().USAGE_FLUSH_MS);
  },

  async stopped(this: AuthService) {
    // Unused units of the windows held here go back, so the keys' next owner can use them.
    await Promise.all([this.lastUsed.stop(), this.requests.stop(), this.authenticator.windows.releaseAll().catch(() => undefined)]);
  },
};

export default AuthServiceSchema;
