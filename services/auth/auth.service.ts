import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { z } from "zod";
import { zodAction } from "../../shared/action";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { CreateApiKeyBody, CreateOrganizationBody, GrantCreditsBody, KeyPath, OrgPath, type OrganizationResource } from "../../shared/schemas/admin";
import { authenticateKey, createApiKey, listApiKeys, revokeApiKey } from "./keys";
import { countOrganizations, createOrganization, listOrganizations, requireOrganization } from "./organizations";
import { PageParams, type ListPage } from "../../shared/schemas/pagination";
import { AUTH_COLLECTIONS } from "./store";
import { LastUsedRecorder, RequestCounter } from "./usage-recorders";

type AuthService = Service & DbService & { lastUsed: LastUsedRecorder; requests: RequestCounter };

const clock = systemClock;
const LAST_USED_FLUSH_MS = 5000;

/** Organizations, API keys and per-key rate limits. */
const AuthServiceSchema: ServiceSchema<ServiceSettingSchema, AuthService> = {
  name: "auth",
  mixins: [dbMixin("auth", AUTH_COLLECTIONS)],

  actions: {
    authenticate: zodAction(z.strictObject({ token: z.string().max(8192) }), async ({ token }, _ctx, svc: AuthService) => {
      const who = await authenticateKey(svc.db, token, clock);
      const now = clock.now();
      svc.lastUsed.record(who.key_id, now);
      svc.requests.record(who.org_id, now);
      return who;
    }),

    createOrganization: zodAction(CreateOrganizationBody, async ({ name, credits }, ctx, svc: AuthService): Promise<OrganizationResource> => {
      const org = await createOrganization(svc.db, name, clock);
      const account = await ctx.call<{ credit_balance: number }, object>("billing.openAccount", { org_id: org._id, credits });
      return { id: org._id, object: "organization", name: org.name, credit_balance: account.credit_balance, created_at: org.created_at.toISOString() };
    }),

    getOrganization: zodAction(OrgPath, async ({ org_id }, _ctx, svc: AuthService) => {
      const org = await requireOrganization(svc.db, org_id);
      return { id: org._id, object: "organization", name: org.name, created_at: org.created_at.toISOString() };
    }),

    /** `GET /admin/orgs`: a page of organizations with their balances (one billing read each, at most a page). */
    listOrganizations: zodAction(PageParams, async (page, ctx, svc: AuthService): Promise<ListPage<OrganizationResource>> => {
      const { docs, has_more } = await listOrganizations(svc.db, page);
      const data = await Promise.all(
        docs.map(async (org): Promise<OrganizationResource> => {
          const { credit_balance } = await ctx.call<{ credit_balance: number }, object>("billing.balance", { org_id: org._id });
          return { id: org._id, object: "organization", name: org.name, credit_balance, created_at: org.created_at.toISOString() };
        }),
      );
      return { object: "list", data, has_more };
    }),

    countOrganizations: zodAction(z.strictObject({}), (_p, _ctx, svc: AuthService) => countOrganizations(svc.db)),

    createKey: zodAction(CreateApiKeyBody.extend(OrgPath.shape), async (params, _ctx, svc: AuthService) => {
      await requireOrganization(svc.db, params.org_id);
      return createApiKey(svc.db, params, clock);
    }),

    listKeys: zodAction(OrgPath, async ({ org_id }, _ctx, svc: AuthService) => {
      await requireOrganization(svc.db, org_id);
      return { object: "list", data: await listApiKeys(svc.db, org_id) };
    }),

    revokeKey: zodAction(KeyPath, ({ key_id }, _ctx, svc: AuthService) => revokeApiKey(svc.db, key_id, clock)),

    grantCredits: zodAction(GrantCreditsBody.extend(OrgPath.shape), async ({ org_id, amount, reason }, ctx: Context, svc: AuthService) => {
      await requireOrganization(svc.db, org_id);
      const grant = await ctx.call<{ credit_balance: number }, object>("billing.grant", { org_id, amount, reason });
      return { object: "credit_grant", org_id, amount, credit_balance: grant.credit_balance };
    }),
  },

  created(this: AuthService) {
    this.lastUsed = new LastUsedRecorder(() => this.db);
    this.requests = new RequestCounter((counts) => this.broker.call("billing.recordRequests", { counts }));
  },

  started(this: AuthService) {
    this.lastUsed.start(LAST_USED_FLUSH_MS);
    this.requests.start(config().USAGE_FLUSH_MS);
  },

  async stopped(this: AuthService) {
    await Promise.all([this.lastUsed.stop(), this.requests.stop()]);
  },
};

export default AuthServiceSchema;
