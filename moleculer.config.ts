import os from "node:os";
import type { BrokerOptions } from "moleculer";
import type { Config } from "./shared/config";
import { moleculerLogger } from "./shared/logger";

/** Broker options: NATS when NATS_URL is set, otherwise every service in this one process. */
export function brokerOptions(cfg: Config): BrokerOptions {
  return {
    namespace: "article-platform",
    nodeID: cfg.NODE_ID ?? `${os.hostname()}-${process.pid}`,
    transporter: cfg.NATS_URL ? { type: "NATS", options: { url: cfg.NATS_URL } } : null,
    serializer: "JSON",
    logger: moleculerLogger(cfg.LOG_LEVEL),
    logLevel: cfg.LOG_LEVEL === "silent" ? "fatal" : (cfg.LOG_LEVEL as BrokerOptions["logLevel"]),
    requestTimeout: cfg.REQUEST_TIMEOUT_MS,
    registry: { strategy: "RoundRobin", preferLocal: true },
    validator: false,
    metrics: false,
    tracing: false,
    // Actions validate with zod themselves; the broker's own retry would repeat non-idempotent calls.
    retryPolicy: { enabled: false },
    heartbeatInterval: 5,
    heartbeatTimeout: 15,
  };
}
