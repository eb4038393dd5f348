import type { IncomingMessage, ServerResponse } from "node:http";
import { newId } from "../../shared/ids";
import { rootLogger } from "../../shared/logger";

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** A client's `x-request-id` is kept when it is a safe token; otherwise one is made. */
export function requestIdFrom(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : newId();
}

/** One log line per request, with its id, organization, status and duration; never headers or bodies. */
export function accessLog(req: IncomingMessage & { $orgId?: string; originalUrl?: string }, res: ServerResponse, next: () => void): void {
  const started = process.hrtime.bigint();
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
