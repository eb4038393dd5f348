import { z } from "zod";
import { resourceId, timestamp } from "./resource";
import { contract } from "../action";
import { orgId } from "../validation";

/** Dashboard contracts (docs/dashboard.md): sign-in links and sessions. */

/** An opaque secret handed to a browser (a sign-in link's token, a session id): 32 random bytes, base64url. */
export const DashboardSecret = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be a dashboard token");

export const CreateDashboardLinkParams = z.strictObject({ org_id: orgId });
export const RedeemDashboardLinkParams = z.strictObject({ token: DashboardSecret });
/** An operator session is opened by the gateway once it has checked the admin token itself. */
export const OpenOperatorSessionParams = z.strictObject({});
export const DashboardSessionParams = z.strictObject({ session: z.string().max(200) });

/** A one-time sign-in link to the organization's dashboard. */
export const DashboardLink = z.strictObject({
  object: z.literal("dashboard_link"),
  org_id: resourceId,
  url: z.string(),
  expires_at: timestamp,
});
export type DashboardLink = z.output<typeof DashboardLink>;

export type DashboardRole = "operator" | "org";

/** A session as the gateway sees it; `session` (its id) is only returned when it is opened. */
export interface DashboardSessionView {
  role: DashboardRole;
  /** The organization an org session is scoped to; null for the operator. */
  org_id: string | null;
  csrf_token: string;
  expires_at: string;
}

export interface OpenedDashboardSession extends DashboardSessionView {
  session: string;
}

// The auth service's dashboard actions: params and reply declared once (shared/action.ts `contract`).
export const DashboardActions = {
  createDashboardLink: contract<DashboardLink>()("auth.createDashboardLink", CreateDashboardLinkParams),
  redeemDashboardLink: contract<OpenedDashboardSession>()("auth.redeemDashboardLink", RedeemDashboardLinkParams),
  openOperatorSession: contract<OpenedDashboardSession>()("auth.openOperatorSession", OpenOperatorSessionParams),
  getDashboardSession: contract<DashboardSessionView>()("auth.getDashboardSession", DashboardSessionParams),
  endDashboardSession: contract<{ ended: boolean }>()("auth.endDashboardSession", DashboardSessionParams),
};
