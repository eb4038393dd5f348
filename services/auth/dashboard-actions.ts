import type { ActionSchema } from "moleculer";
import { zodAction } from "../../shared/action";
import type { Clock } from "../../shared/clock";
import { config } from "../../shared/config";
import type { DbService } from "../../shared/db/mixin";
import { publicBaseUrl } from "../../shared/public-url";
import {
  CreateDashboardLinkParams,
  DashboardSessionParams,
  ListOrganizationsParams,
  OpenOperatorSessionParams,
  RedeemDashboardLinkParams,
} from "../../shared/schemas/dashboard";
import { createDashboardLink, endSession, openSession, readSession, redeemDashboardLink } from "./dashboard-sessions";
import { listOrganizations } from "./organization-list";

/** The auth actions behind the dashboard (docs/dashboard.md): sign-in links, sessions, the organization list. */
export function dashboardActions(clock: Clock): Record<string, ActionSchema> {
  return {
    /** `POST /admin/orgs/:org_id/dashboard-links` and the operator's button. */
    createDashboardLink: zodAction(CreateDashboardLinkParams, ({ org_id }, _ctx, svc: DbService) =>
      createDashboardLink(svc.db, org_id, publicBaseUrl(config()), clock),
    ),
    redeemDashboardLink: zodAction(RedeemDashboardLinkParams, ({ token }, _ctx, svc: DbService) => redeemDashboardLink(svc.db, token, clock)),
    openOperatorSession: zodAction(OpenOperatorSessionParams, (_p, _ctx, svc: DbService) => openSession(svc.db, "operator", null, clock)),
    getDashboardSession: zodAction(DashboardSessionParams, ({ session }, _ctx, svc: DbService) => readSession(svc.db, session, clock)),
    endDashboardSession: zodAction(DashboardSessionParams, ({ session }, _ctx, svc: DbService) => endSession(svc.db, session)),
    listOrganizations: zodAction(ListOrganizationsParams, (params, _ctx, svc: DbService) => listOrganizations(svc.db, params)),
  };
}
