import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceBroker } from "moleculer";
import { config } from "../../../shared/config";
import { writeDashboardAsset, ASSETS_PATH } from "./assets";
import { accessLog, requestIdFrom } from "../request-log";
import { sendHtml } from "./http";
import { DASHBOARD_ROUTES } from "./pages";
import type { JobEventStreams } from "../job-events/sse";
import { createRouter } from "./router";
import { FailureBudget, SIGN_IN_BUDGET } from "./sign-in-budget";
import { DASHBOARD_PREFIX } from "./session";
import { notFoundPage } from "./views/access";

/**
 * The dashboard (docs/dashboard.md): server-rendered pages under `/dashboard`, served by the
 * gateway's HTTP server before the API router. Returns the handler, or null for other paths.
 */
export function dashboardHandler(broker: ServiceBroker, jobStreams: JobEventStreams): (req: IncomingMessage, res: ServerResponse) => boolean {
  const timeout = config().REQUEST_TIMEOUT_MS;
  const router = createRouter(DASHBOARD_ROUTES, {
    caller: { call: (action, params, opts) => broker.call(action, params, { timeout, ...opts }) },
    secure: () => config().NODE_ENV === "production",
    // Per process: each gateway replica keeps its own.
    signInBudget: new FailureBudget(SIGN_IN_BUDGET),
    jobStreams,
  });
  return (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== DASHBOARD_PREFIX && !path.startsWith(`${DASHBOARD_PREFIX}/`)) return false;
    res.setHeader("x-request-id", requestIdFrom(req));
    accessLog(req, res, () => undefined);
    if (path.startsWith(`${ASSETS_PATH}/`) && req.method === "GET") {
      if (!writeDashboardAsset(res, path.slice(ASSETS_PATH.length + 1))) sendHtml(res, 404, notFoundPage(null));
      return true;
    }
    void router(req, res);
    return true;
  };
}
