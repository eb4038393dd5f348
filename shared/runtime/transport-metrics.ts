import type { Context, Middleware } from "moleculer";
import { transportRequestDuration, transportRequests } from "../metrics";

type Handler = (ctx: Context) => Promise<unknown>;

/** The action moleculer-web runs each HTTP request in (its service's `rest`). */
const HTTP_ENTRY_ACTION = "gateway.rest";

/**
 * Counts and times every action call (shared/metrics.ts): `remote` when this process sent it over the
 * transport (the time includes both trips), `local` when this process handled it. Moleculer's internal
 * `$node.*` actions are left out, and so is moleculer-web's `gateway.rest`, which every HTTP request
 * runs in: the HTTP metrics measure those, by route.
 */
export function transportMetricsMiddleware(): Middleware {
  const wrap = (side: "local" | "remote") => (next: Handler, action: { name: string }) => {
    if (action.name.startsWith("$") || action.name === HTTP_ENTRY_ACTION) return next;
    return function measured(ctx: Context) {
      const end = transportRequestDuration.startTimer({ action: action.name, side });
      const settled = (outcome: "ok" | "error") => {
        end();
        transportRequests.inc({ action: action.name, side, outcome });
      };
      return next(ctx).then(
        (result) => {
          settled("ok");
          return result;
        },
        (err: unknown) => {
          settled("error");
          throw err;
        },
      );
    };
  };
  return { name: "TransportMetrics", localAction: wrap("local"), remoteAction: wrap("remote") } as unknown as Middleware;
}
