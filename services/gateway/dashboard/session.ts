import type { IncomingMessage } from "node:http";
import { secretsEqual } from "../../../shared/bearer";
import { ApiError, NotFoundError } from "../../../shared/errors";
import { DashboardSecret, type DashboardSessionView } from "../../../shared/schemas/dashboard";
import { parseCookies } from "./http";

/**
 * The browser's side of a dashboard session (docs/dashboard.md#security-model): an opaque id in
 * an HttpOnly, SameSite=Strict cookie (Secure in production), looked up in auth on every request;
 * state-changing requests must come from this origin and carry the session's CSRF token.
 */

export const SESSION_COOKIE = "dashboard_session";
export const DASHBOARD_PREFIX = "/dashboard";

export interface Session extends DashboardSessionView {
  /** The id from the cookie (to end the session). */
  id: string;
}

/** The shape of a session id or sign-in link token (the contracts' `DashboardSecret`): anything else names nothing. */
export const isDashboardSecret = (value: string): boolean => DashboardSecret.safeParse(value).success;

export function sessionIdFrom(req: IncomingMessage): string | null {
  const id = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
  return id && isDashboardSecret(id) ? id : null;
}

export function sessionCookie(id: string, expiresAt: string, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${id}; Path=${DASHBOARD_PREFIX}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=${DASHBOARD_PREFIX}; Max-Age=0; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/**
 * A state-changing request must name this server as its origin: `Origin` when the browser sends
 * it (every current browser does on a form post), else `Referer`; neither is a refusal.
 */
export function assertSameOrigin(req: IncomingMessage): void {
  const host = req.headers.host;
  const claimed = req.headers.origin ?? req.headers.referer;
  let claimedHost: string | null = null;
  try {
    claimedHost = claimed && claimed !== "null" ? new URL(claimed).host : null;
  } catch {
    claimedHost = null;
  }
  if (!host || !claimedHost || claimedHost !== host) throw new CsrfError();
}

/** The form's CSRF token against the session's, in constant time. */
export function assertCsrfToken(session: Session, presented: string | null): void {
  if (!presented || !secretsEqual(presented, session.csrf_token)) throw new CsrfError();
}

export class CsrfError extends ApiError {
  constructor() {
    super("invalid_request", "This form is stale or did not come from the dashboard. Reload the page and try again.");
    this.name = "CsrfError";
  }
}

/** An organization session sees its own organization only; anything else is as missing as an unknown id. */
export function assertOrgAccess(session: Session, orgId: string): void {
  if (session.role === "operator") return;
  if (session.org_id !== orgId) throw new NotFoundError("organization");
}

export function assertOperator(session: Session): void {
  if (session.role !== "operator") throw new NotFoundError("page");
}
