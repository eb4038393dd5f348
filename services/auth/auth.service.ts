import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { call, serve } from "../../shared/action";
import { systemClock } from "../../shared/clock";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { AuthActions } from "../../shared/schemas/admin";
import { BillingActions } from "../../shared/schemas/billing";
import { dashboardActions } from "./dashboard-actions";
import { DASHBOARD_COLLECTIONS } from "./dashboard-sessions";
import { createApiKey, findLiveKey, keyHashOf, listApiKeys, recordKeyUse, revokeApiKey } from "./keys";
import { listOrganizations } from "./organization-list";
import { countOrganizations, createOrganization, requireOrganization } from "./organizations";
import { announceRevocation, RegistryWatch } from "./revocation";
import { API_KEYS, AUTH_COLLECTIONS, type ApiKeyDoc } from "./store";
import { mongoWindowStore, releaseUnits, reserveUnits, type WindowStore } from "./window-reservations";
import { idForKey, keyReused } from "../../shared/idempotency";

type AuthService = Service & DbService & { windows: WindowStore; registry: RegistryWatch };

const clock = systemClock;

/** Organizations, API keys and per-key rate limits. */
const AuthServiceSchema: ServiceSchema<ServiceSettingSchema, AuthService> = {
  name: "auth",
  mixins: [dbMixin("auth", [...AUTH_COLLECTIONS, ...DASHBOARD_COLLECTIONS])],

  actions: {
    // Admission's side (docs/request-path.md): the gateways hold the key records and count requests in memory.
    lookupKey: serve(AuthActions.lookupKey, ({ key_hash }, _ctx, svc: AuthService) => findLiveKey(svc.db, key_hash)),
    reserveUnits: serve(AuthActions.reserveUnits, ({ key_id }, _ctx, svc: AuthService) => reserveUnits(svc.windows, key_id, clock)),
    releaseUnits: serve(AuthActions.releaseUnits, async ({ key_id, ends_at, units }, _ctx, svc: AuthService) => ({
      released: await releaseUnits(svc.windows, key_id, ends_at, units),
    })),
    recordKeyUse: serve(AuthActions.recordKeyUse, ({ uses }, _ctx, svc: AuthService) => recordKeyUse(svc.db, uses)),

    createOrganization: serve(AuthActions.createOrganization, async ({ name, credits, idempotency_key }, ctx, svc: AuthService) => {
      // A retry under the key gets the same organization; opening its account again is idempotent (the initial grant once).
      const org = await createOrganization(svc.db, name, clock, idempotency_key ? { key: idempotency_key, body: { name, credits } } : undefined);
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

    /** Written, then every gateway drops the key from its cache before the call returns (docs/request-path.md#revocation). */
    revokeKey: serve(AuthActions.revokeKey, async ({ key_id }, ctx, svc: AuthService) => {
      const startedAt = Date.now();
      const revoked = await revokeApiKey(svc.db, key_id, clock);
      const hash = await keyHashOf(svc.db, key_id);
      if (hash) {
        const notice = await announceRevocation(svc.broker, ctx, hash, startedAt, svc.registry.stable());
        if (notice.waitedMs) svc.logger.warn({ key_id, ...notice }, "a gateway did not acknowledge a revocation, or the gateways known here may be incomplete: waited for cached keys to expire");
      }
      return revoked;
    }),

    grantCredits: serve(AuthActions.grantCredits, async ({ org_id, amount, reason, idempotency_key }, ctx: Context, svc: AuthService) => {
      await requireOrganization(svc.db, org_id);
      // The key is the grant's ledger reference: billing replays a reference it has applied.
      const reference = idempotency_key ? `grant:${idForKey("auth.grant", org_id, idempotency_key)}` : undefined;
      const grant = await call(ctx, BillingActions.grant, { org_id, amount, reason, ...(reference ? { reference } : {}) }).catch((err: unknown) => {
        // Billing refuses a reference used for another movement: here, the key used for another grant.
        throw reference && (err as { type?: unknown }).type === "invalid_request" ? keyReused() : err;
      });
      return { object: "credit_grant", org_id, amount, credit_balance: grant.credit_balance };
    }),

    ...dashboardActions(clock),
  },

  // Which gateways a revocation must reach is read from the registry: its changes make it doubtful for a while.
  events: {
    "$node.connected"(this: AuthService) {
      this.registry.changed();
    },
    "$node.disconnected"(this: AuthService) {
      this.registry.changed();
    },
    "$node.updated"(this: AuthService) {
      this.registry.changed();
    },
    "$transporter.connected"(this: AuthService) {
      this.registry.changed();
    },
  },

  created(this: AuthService) {
    this.windows = mongoWindowStore(() => this.db.collection<ApiKeyDoc>(API_KEYS));
    this.registry = new RegistryWatch(Boolean(this.broker.transit));
  },
};

export default AuthServiceSchema;
