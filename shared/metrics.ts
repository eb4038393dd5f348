import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The process's Prometheus metrics (prom-client), served as text at `/metrics` on HEALTH_PORT and,
 * with the admin token, on the gateway's port (docs/operations.md#metrics). One registry per process;
 * in the single-process default every service records into it.
 *
 * Label values are bounded sets only: route templates (never a path with ids), statuses, job types,
 * stage keys, action names, outcomes, the configured model. Never an organization, key, job or user id.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** A counter or histogram registered in this registry (and no other): each metric below names only what is its own. */
const counter = <L extends string = never>(o: { name: string; help: string; labelNames?: readonly L[] }) => new Counter<L>({ ...o, registers: [registry] });
const histogram = <L extends string = never>(o: { name: string; help: string; labelNames?: readonly L[]; buckets: number[] }) =>
  new Histogram<L>({ ...o, registers: [registry] });

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const STAGE_SECONDS = [0.01, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800];

export const httpRequests = counter({
  name: "http_requests_total",
  help: "HTTP requests answered by the gateway, by method, route template and status.",
  labelNames: ["method", "route", "status"] as const,
});

export const httpRequestDuration = histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its answer (for an event stream: until it closed).",
  labelNames: ["method", "route", "status"] as const,
  buckets: SECONDS,
});

export const edgeCacheLookups = counter({
  name: "gateway_edge_cache_lookups_total",
  help: "Reads the gateway answered from its edge read cache (hit) or passed to the owning service (miss), by route template.",
  labelNames: ["route", "outcome"] as const,
});

export const jobsFinished = counter({
  name: "jobs_finished_total",
  help: "Jobs that reached a final status, by type and status (succeeded, failed, canceled).",
  labelNames: ["type", "status"] as const,
});

export const jobStageDuration = histogram({
  name: "job_stage_duration_seconds",
  help: "Duration of each finished job stage, by job type, stage and outcome (done, error).",
  labelNames: ["type", "stage", "outcome"] as const,
  buckets: STAGE_SECONDS,
});

export const webhookDeliveries = counter({
  name: "webhook_delivery_attempts_total",
  help: "Webhook delivery attempts settled, by the delivery's state after it: delivered, failed (to retry) or dead.",
  labelNames: ["outcome"] as const,
});

export const creditsDebited = counter({
  name: "credits_debited_total",
  help: "Credits taken from organizations (replays of the same debit are not counted again).",
});

export const creditsRefunded = counter({
  name: "credits_refunded_total",
  help: "Credits given back by refunds of failed or canceled work.",
});

export const modelTokens = counter({
  name: "model_tokens_total",
  help: "Tokens of language-model calls as the provider reported them, by direction (in: prompt, out: completion) and model.",
  labelNames: ["direction", "model"] as const,
});

export const transportRequests = counter({
  name: "moleculer_requests_total",
  help: "Action calls, by action, where it ran relative to this process (remote: sent over the transport; local: handled here) and outcome.",
  labelNames: ["action", "side", "outcome"] as const,
});

export const transportRequestDuration = histogram({
  name: "moleculer_request_duration_seconds",
  help: "Action call latency, by action and side (remote includes the transport both ways).",
  labelNames: ["action", "side"] as const,
  buckets: SECONDS,
});

/** The exposition, and its content type (Prometheus text format 0.0.4). */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
