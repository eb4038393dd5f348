import os from "node:os";
import type { BrokerOptions } from "moleculer";
import type { Config } from "./shared/config";
import { moleculerLogger } from "./shared/logger";
import { nodeProbeMiddleware } from "./shared/runtime/node-probe";
import { transportMetricsMiddleware } from "./shared/runtime/transport-metrics";
import { unavailabilityLogMiddleware } from "./shared/runtime/unavailability-log";

/**
 * Failure detection (docs/failure-semantics.md#detection). A SIGKILLed process sends no goodbye:
 * it is noticed when its heartbeats stop. Moleculer checks every HEARTBEAT_TIMEOUT_S seconds for a
 * node whose last heartbeat (whole seconds) is more than HEARTBEAT_TIMEOUT_S old, so a dead node is
 * dropped 3.5 to 6.5 s after it died; its pending calls are rejected then (503 at the gateway) and
 * new calls go to live replicas, or fail at once with 503 when there is none.
 * Heartbeats go every 0.5 to 1.5 s (Moleculer adds ±0.5 s), so only a stall of about 3 s makes a
 * live node look dead (it rejoins at its next heartbeat).
 */
export const HEARTBEAT_INTERVAL_S = 1;
export const HEARTBEAT_TIMEOUT_S = 3;
/**
 * Faster for the gateway's calls that wait on a dead node: after 1 s without an answer, its node is
 * pinged, and dropped from the gateway's registry after 1.5 s without a pong, so a call stuck on a
 * SIGKILLed node is answered about 2.5 s after it was sent (shared/runtime/node-probe.ts).
 */
export const PROBE_AFTER_MS = 1000;
export const PROBE_PING_TIMEOUT_MS = 1500;
/**
 * After NATS is back, calls sent before every node could subscribe again (clients retry every 250 ms, so
 * within RECONNECT_SETTLE_MS) and still unanswered RECONNECT_GRACE_MS after that are rejected: NATS may
 * have swallowed them (answers still on their way arrive first).
 */
export const RECONNECT_SETTLE_MS = 1000;
export const RECONNECT_GRACE_MS = 1000;

/** Errors that say the call did not reach a live node, or the node was lost: safe to retry elsewhere for idempotent reads. */
export function lostNodeError(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return name === "RequestRejectedError" || name === "ServiceNotAvailableError" || name === "ServiceNotFoundError";
}

/** Broker options: NATS when NATS_URL is set, otherwise every service in this one process. */
export function brokerOptions(cfg: Config): BrokerOptions {
  return {
    namespace: "article-platform",
    nodeID: cfg.NODE_ID ?? `${os.hostname()}-${process.pid}`,
    // Reconnect to NATS every 250 ms without limit, keeping what was published meanwhile (nats.js buffers it).
    transporter: cfg.NATS_URL ? { type: "NATS", options: { url: cfg.NATS_URL, reconnectTimeWait: 250, maxReconnectAttempts: -1 } } : null,
    serializer: "JSON",
    logger: moleculerLogger(cfg.LOG_LEVEL),
    logLevel: cfg.LOG_LEVEL === "silent" ? "fatal" : (cfg.LOG_LEVEL as BrokerOptions["logLevel"]),
    requestTimeout: cfg.REQUEST_TIMEOUT_MS,
    registry: { strategy: "RoundRobin", preferLocal: true },
    validator: false,
    metrics: false,
    tracing: false,
    // No call is retried unless its caller asks (`retries` in the call options): the gateway does for
    // idempotent reads only, and only when the node was lost or missing, never after a timeout.
    retryPolicy: { enabled: true, retries: 0, delay: 100, maxDelay: 400, factor: 2, check: lostNodeError },
    // An endpoint (action on one node) whose calls keep timing out or being lost is skipped for 5 s, then probed again.
    circuitBreaker: {
      enabled: true,
      threshold: 0.5,
      minRequestCount: 5,
      windowTime: 10,
      halfOpenTime: 5_000,
      check: (err: unknown) => lostNodeError(err) || (err as { name?: unknown })?.name === "RequestTimeoutError",
    },
    middlewares: [nodeProbeMiddleware({
        reconnectSettleMs: RECONNECT_SETTLE_MS,
        reconnectGraceMs: RECONNECT_GRACE_MS,
        // Only where HTTP clients wait: a worker's long stage call on a node busy for a moment must not be cut.
        probe: cfg.SERVICES.includes("gateway") ? { afterMs: PROBE_AFTER_MS, pingTimeoutMs: PROBE_PING_TIMEOUT_MS } : undefined,
      }), transportMetricsMiddleware(), unavailabilityLogMiddleware()],
    heartbeatInterval: HEARTBEAT_INTERVAL_S,
    heartbeatTimeout: HEARTBEAT_TIMEOUT_S,
  };
}
