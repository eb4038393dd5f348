import type { IncomingMessage, ServerResponse } from "node:http";
import { newId } from "../../shared/ids";
import { rootLogger } from "../../shared/logger";
import { httpRequestDuration, httpRequests } from "../../shared/metrics";
import { routeTemplateAt } from "./routes";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** A client's `x-request-id` is kept when it is a safe token; otherwise one is made. */
export function requestIdFrom(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : newId();
}

type RoutedRequest = IncomingMessage & { $orgId?: string; originalUrl?: string; $alias?: { fullPath?: string } };

/**
 * The route template a request matched (`/v1/jobs/:id`), never its concrete path; a request refused at
 * the edge before routing (a 401) by the route its method and path name; `unmatched` for a 404 or 405.
 */
export function routeTemplate(req: RoutedRequest): string {
  return req.$alias?.fullPath || routeTemplateAt(req.method, (req.originalUrl ?? req.url ?? "/").split("?")[0]) || "unmatched";
}

/**
 * One log line per request, with its id, organization, status and duration; never headers or bodies.
 * And its metrics (shared/metrics.ts), when its connection is done with it (an event stream: when it closed).
 */
export function accessLog(req: RoutedRequest, res: ServerResponse, next: () => void): void {
  const started = process.hrtime.bigint();
  res.once("close", () => {
    const labels = { method: req.method ?? "GET", route: routeTemplate(req), status: String(res.statusCode) };
    httpRequests.inc(labels);
    httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  });
  res.once("finish", () => {
    rootLogger().info(
      {
        req_id: res.getHeader("x-request-id"),
        org_id: req.$orgId,
        method: req.method,
        path: (req.originalUrl ?? req.url ?? "").split("?")[0],
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      "http request",
    );
  });
  next();
}
