import http from "node:http";
import type { ServiceBroker } from "moleculer";
import type { Db } from "mongodb";
import { pingDatabase } from "../db/mixin";
import { toHttpError } from "../errors";
import { metricsText } from "../metrics";

export interface Readiness {
  ready: boolean;
  checks: Record<string, boolean>;
  /** The failed checks, in words: what an operator must bring back. */
  missing: string[];
}

/**
 * Ready when every local service's database answers, the transporter (if any) is connected,
 * and the services this process depends on are registered somewhere on the network.
 */
export async function checkReadiness(broker: ServiceBroker, requiredServices: string[] = []): Promise<Readiness> {
  const checks: Record<string, boolean> = {};
  const transit = (broker as unknown as { transit?: { connected: boolean } }).transit;
  if (transit) checks.transport = transit.connected;
  for (const svc of broker.services) {
    const owner = svc as unknown as { db?: Db; collection?: unknown };
    if (typeof owner.collection !== "function") continue; // a service without a database (the gateway)
    checks[`db:${svc.name}`] = await pingDatabase(owner.db);
  }
  const available = new Set(
    (broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as { name: string }[]).map((s) => s.name),
  );
  for (const name of requiredServices) checks[`service:${name}`] = available.has(name);
  const missing = Object.entries(checks)
    .filter(([, ok]) => !ok)
    .map(([check]) =>
      check === "transport"
        ? "transport: not connected to NATS"
        : check.startsWith("db:")
          ? `${check}: the ${check.slice(3)} database does not answer`
          : `${check}: no live instance of the ${check.slice(8)} service`,
    );
  return { ready: missing.length === 0, checks, missing };
}

export function writeHealth(res: http.ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

/** The process's metrics in Prometheus text format (shared/metrics.ts). */
export async function writeMetrics(res: http.ServerResponse): Promise<void> {
  const { contentType, body } = await metricsText();
  res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
  res.end(body);
}

/** `/healthz`, `/readyz` and `/metrics` (docs/operations.md#metrics) on their own port, for processes that serve no HTTP API. */
export function startHealthServer(broker: ServiceBroker, port: number, requiredServices: string[] = [], host = "127.0.0.1"): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET") return writeHealth(res, 405, { error: { code: "method_not_allowed", message: "Use GET." } });
    if (path === "/healthz") return writeHealth(res, 200, { status: "ok" });
    if (path === "/metrics") {
      // As on the gateway: a failure to collect is a 500 in the error envelope, never an unhandled rejection.
      void writeMetrics(res).catch((err: unknown) => {
        const mapped = toHttpError(err);
        writeHealth(res, mapped.status, mapped.body);
      });
      return;
    }
    if (path === "/readyz") {
      void checkReadiness(broker, requiredServices).then((r) => writeHealth(res, r.ready ? 200 : 503, { status: r.ready ? "ready" : "not_ready", checks: r.checks, missing: r.missing }));
      return;
    }
    writeHealth(res, 404, { error: { code: "not_found", message: "Unknown path." } });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}
