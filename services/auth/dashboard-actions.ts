import type { ActionSchema } from "moleculer";
import { serve } from "../../shared/action";
import type { Clock } from "../../shared/clock";
import { config } from "../../shared/config";
import type { DbService } from "../../shared/db/mixin";
import { publicBaseUrl } from "../../shared/public-url";
import { DashboardActions } from "../../shared/schemas/dashboard";
import { createDashboardLink, endSession, openSession, readSession, redeemDashboardLink } from "./dashboard-sessions";

/** The auth actions behind the dashboard (docs/dashboard.md): sign-in links and sessions. */
export function dashboardActions(clock: Clock): Record<string, ActionSchema> {
  return {
    /** `POST /admin/orgs/:org_id/dashboard-links` and the operator's button. */
    createDashboardLink: serve(DashboardActions.createDashboardLink, ({ org_id }, _ctx, svc: DbService) =>
      createDashboardLink(svc.db, org_id, publicBaseUrl(config()), clock),
    ),
    redeemDashboardLink: serve(DashboardActions.redeemDashboardLink, ({ token }, _ctx, svc: DbService) => redeemDashboardLink(svc.db, token, clock)),
    openOperatorSession: serve(DashboardActions.openOperatorSession, (_p, _ctx, svc: DbService) => openSession(svc.db, "operator", null, clock)),
    getDashboardSession: serve(DashboardActions.getDashboardSession, ({ session }, _ctx, svc: DbService) => readSession(svc.db, session, clock)),
    endDashboardSession: serve(DashboardActions.endDashboardSession, ({ session }, _ctx, svc: DbService) => endSession(svc.db, session)),
  };
}
