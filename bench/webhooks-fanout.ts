import { randomUUID } from "node:crypto";
import { cpuMicros } from "./cpu";
import { startBrokerClient } from "../test/support/broker-client";
import { startCluster } from "../test/support/cluster";
import { waitFor } from "../test/support/wait";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "../test/support/webhook-receiver";
import { cpuProfileArgs, numberOption } from "./options";

const EVENTS = numberOption("BENCH_WEBHOOK_EVENTS", 1000);
const ENDPOINTS = 20;

/** How events are handed over: `batch` at a time (the outbox hands over at most 100), every `everyMs`. */
interface Pacing {
  events: number;
  batch: number;
  everyMs: number;
}

interface FanoutRun {
  pacing: Pacing;
  deliveries: number;
  drainSeconds: number;
  deliveriesPerSec: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  duplicates: number;
  /** CPU µs per delivery of the webhooks process, the database process and this process (the receivers and the hand-over), from the first hand-over to the last receipt. */
  cpuMicrosPerDelivery: Record<string, number>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * One webhooks process over NATS (default settings): job events handed over through
 * `webhooks.recordEvents` (the pipeline outbox's path) fan out to 20 local receivers of one
 * organization. Latency runs from the hand-over call of an event's batch to its receipt.
 */
async function fanout(pacing: Pacing): Promise<FanoutRun> {
  const cluster = await startCluster({ LOG_LEVEL: "warn" });
  const receivers: WebhookReceiver[] = [];
  const broker = await startBrokerClient(cluster.nats.url);
  try {
    const webhooks = await cluster.spawn("webhooks", {}, cpuProfileArgs("BENCH_WEBHOOKS_PROF"));
    const pids: Record<string, number | undefined> = { webhooks: webhooks.child.pid, database: cluster.mongo.pid, receiversAndBench: process.pid };
    await broker.waitForServices(["webhooks"], 10_000);
    const orgId = randomUUID();
    const secrets: string[] = [];
    for (let i = 0; i < ENDPOINTS; i++) {
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      secrets.push((await broker.call<{ secret: string }, object>("webhooks.createEndpoint", { org_id: orgId, url: receiver.url })).secret);
    }

    const handedOverAt = new Map<string, number>();
    const cpuBefore = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, pid ? cpuMicros(pid) : 0]));
    const started = Date.now();
    for (let b = 0; b < pacing.events / pacing.batch; b++) {
      const due = started + b * pacing.everyMs;
      if (Date.now() < due) await new Promise((r) => setTimeout(r, due - Date.now()));
      const now = new Date();
      const events = Array.from({ length: pacing.batch }, () => {
        const jobId = randomUUID();
        handedOverAt.set(jobId, now.getTime());
        const payload = { id: jobId, type: "article", status: "succeeded", result: { title: "Bench" }, error: null, credits_charged: 10, created_at: now.toISOString(), finished_at: now.toISOString() };
        return { id: randomUUID(), org_id: orgId, kind: "job.succeeded", payload, created_at: now.toISOString() };
      });
      await broker.call("webhooks.recordEvents", { events });
    }
    await waitFor(() => (receivers.every((r) => r.requests.length >= pacing.events) ? true : undefined), `${pacing.events * ENDPOINTS} deliveries`, 600_000, 100);

    const cpuMicrosPerDelivery = Object.fromEntries(
      Object.entries(pids).map(([k, pid]) => [k, pid ? Math.round((cpuMicros(pid) - cpuBefore[k]) / (pacing.events * ENDPOINTS)) : 0]),
    );
    const latencies: number[] = [];
    let last = 0;
    let duplicates = 0;
    receivers.forEach((receiver, i) => {
      duplicates += receiver.requests.length - new Set(receiver.requests.map((r) => r.headers["webhook-id"])).size;
      for (const [n, request] of receiver.requests.entries()) {
        // Verifying every signature would measure the bench, not the service: a sample proves them.
        const body = n % 50 === 0 ? verifyWebhook(secrets[i], request) : (JSON.parse(request.rawBody) as { data: { id: string } });
        latencies.push(request.receivedAt - handedOverAt.get(body.data.id)!);
        last = Math.max(last, request.receivedAt);
      }
    });
    latencies.sort((a, b) => a - b);
    const drainSeconds = (last - started) / 1000;
    return {
      pacing,
      deliveries: latencies.length,
      drainSeconds: Number(drainSeconds.toFixed(2)),
      deliveriesPerSec: Math.round(latencies.length / drainSeconds),
      latencyMs: { p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), max: latencies[latencies.length - 1] },
      duplicates,
      cpuMicrosPerDelivery,
    };
  } finally {
    await broker.stop();
    await cluster.stop();
    await Promise.all(receivers.map((r) => r.close()));
  }
}

/** A burst (throughput; its latency is mostly queueing), then a steady 10 events/s (latency when keeping up). */
export async function benchWebhooksFanout(): Promise<Record<string, unknown>> {
  return {
    name: `fan-out of job events to ${ENDPOINTS} endpoints of one organization (one webhooks process over NATS, embedded MongoDB, default settings)`,
    endpoints: ENDPOINTS,
    burst: await fanout({ events: EVENTS, batch: 100, everyMs: 0 }),
    steady: await fanout({ events: 100, batch: 1, everyMs: 100 }),
  };
}
