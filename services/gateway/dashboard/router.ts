import type { IncomingMessage, ServerResponse } from "node:http";
import { call as callAction, type Caller } from "../../../shared/action";
import { toHttpError } from "../../../shared/errors";
import { AuthActions } from "../../../shared/schemas/admin";
import { DashboardActions } from "../../../shared/schemas/dashboard";
import { rootLogger } from "../../../shared/logger";
import type { Html } from "./html";
import { nullIfNotFound, readForm, sendHtml } from "./http";
import { assertCsrfToken, assertOperator, assertOrgAccess, assertSameOrigin, CsrfError, DASHBOARD_PREFIX, sessionIdFrom, type Session } from "./session";
import type { JobEventStreams } from "../job-events/sse";
import type { FailureBudget } from "./sign-in-budget";
import { errorPage, notFoundPage } from "./views/access";
import type { Notice, OrgRef } from "./views/layout";

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The posted form (POST only). */
  form: URLSearchParams;
  session: Session | null;
  /** Calls the services' actions (through their contracts, `shared/action.ts` `call`): the dashboard reaches business rules only through them. */
  caller: Caller;
  /** Production: cookies are Secure. */
  secure: boolean;
  /** Wrong admin tokens per client address on the sign-in form: one budget per gateway process (sign-in-budget.ts). */
  signInBudget: FailureBudget;
  /** The gateway's live job event streams (job-events/): the jobs page follows a running job on them. */
  jobStreams: JobEventStreams;
}

export interface SessionCall extends Call {
  session: Session;
}

export interface OrgCall extends SessionCall {
  org: OrgRef & { created_at: string };
}

/**
 * Who may use a route: anyone, any signed-in session, the operator, or a session allowed the `:org` of the path.
 * A route of the operator's that names `:org` gets that organization as well (`c.org`).
 */
export type Access = "public" | "session" | "operator" | "org";

export interface DashboardRoute {
  method: "GET" | "POST";
  path: string;
  access: Access;
  handler: (c: Call & SessionCall & OrgCall) => Promise<void>;
  /**
   * For a form post refused by a rule (4xx): the page to show again with the reason, instead of
   * an error page. The input is not lost from view: the section shows its form again.
   */
  onRefused?: (c: Call & SessionCall & OrgCall, notice: Notice) => Promise<Html>;
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

function compile(path: string): { re: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path.replace(/:([a-z_]+)/g, (_, name: string) => {
    names.push(name);
    return `(${UUID})`;
  });
  return { re: new RegExp(`^${DASHBOARD_PREFIX}${source}/?$`, "i"), names };
}

export function createRouter(routes: DashboardRoute[], deps: { caller: Caller; secure: () => boolean; signInBudget: FailureBudget; jobStreams: JobEventStreams }) {
  const compiled = routes.map((r) => ({ ...r, ...compile(r.path) }));
  const log = () => rootLogger().child({ mod: "gateway.dashboard" });

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://dashboard.invalid");
    let session: Session | null = null;
    let call: Call | undefined;
    let route: (typeof compiled)[number] | undefined;
    try {
      const sid = sessionIdFrom(req);
      if (sid) {
        // An unknown or expired session is no session; auth being unreachable is a 503, not a sign-out.
        const found = await nullIfNotFound(callAction(deps.caller, DashboardActions.getDashboardSession, { session: sid }));
        session = found && { ...found, id: sid };
      }

      let match: RegExpExecArray | null = null;
      route = compiled.find((r) => r.method === req.method && (match = r.re.exec(url.pathname)) !== null);
      if (!route || !match) {
        const pathExists = compiled.some((r) => r.re.test(url.pathname));
        return sendHtml(res, pathExists ? 405 : 404, notFoundPage(session), pathExists ? { allow: methodsOf(compiled, url.pathname) } : {});
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = match![i + 1].toLowerCase()));

      if (req.method === "POST") assertSameOrigin(req);
      const form = req.method === "POST" ? await readForm(req) : new URLSearchParams();
      call = { req, res, params, query: url.searchParams, form, session, caller: deps.caller, secure: deps.secure(), signInBudget: deps.signInBudget, jobStreams: deps.jobStreams };

      if (route.access !== "public") {
        if (!session) return void redirectToSignIn(res);
        if (req.method === "POST") assertCsrfToken(session, form.get("_csrf"));
        if (route.access === "operator") assertOperator(session);
        // Any route naming an organization (an operator's action on one, too) reaches it only if the session may.
        if (route.access === "org" || params.org) {
          assertOrgAccess(session, params.org);
          const org = await callAction(deps.caller, AuthActions.getOrganization, { org_id: params.org });
          (call as OrgCall).org = { id: org.id, name: org.name, created_at: org.created_at };
        }
      }
      await route.handler(call as Call & SessionCall & OrgCall);
    } catch (err) {
      if (res.headersSent) return void res.end();
      const mapped = toHttpError(err);
      if (err instanceof CsrfError || (err as { name?: string }).name === "CsrfError") {
        return sendHtml(res, 403, errorPage(session, 403, (err as Error).message));
      }
      if (mapped.status === 404) return sendHtml(res, 404, notFoundPage(session));
      if (mapped.unexpected) log().error({ err: mapped.unexpected, method: req.method, path: url.pathname }, "dashboard request failed");
      if (route?.onRefused && call && mapped.status < 500) {
        const again = await route.onRefused(call as Call & SessionCall & OrgCall, { kind: "error", text: mapped.body.error.message }).catch(() => null);
        if (again) return sendHtml(res, mapped.status, again);
      }
      sendHtml(res, mapped.status, errorPage(session, mapped.status, mapped.body.error.message));
    }
  };
}

function methodsOf(compiled: { re: RegExp; method: string }[], pathname: string): string {
  return [...new Set(compiled.filter((r) => r.re.test(pathname)).map((r) => r.method))].join(", ");
}

function redirectToSignIn(res: ServerResponse): void {
  res.writeHead(303, { location: "/dashboard/sign-in", "content-length": 0, "cache-control": "no-store" });
  res.end();
}
