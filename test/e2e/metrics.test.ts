import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster, type Cluster } from "../support/cluster";
import { client, request } from "../support/http";
import { waitForJob } from "../support/jobs";
import type { PlatformProcess } from "../support/platform";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { waitFor } from "../support/wait";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format 0.0.4, the sample lines (comments skipped). */
function parseExposition(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

async function scrape(baseUrl: string, token?: string): Promise<Sample[]> {
  const r = await request(baseUrl, "/metrics", token ? { token } : {});
  expect(r.status).toBe(200);
  expect(r.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(r.text);
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
const total = (samples: Sample[], name: string, labels: Record<string, string> = {}) => find(samples, name, labels).reduce((n, s) => n + s.value, 0);

/** `/metrics` on HEALTH_PORT of every process and on the gateway's port, after real traffic over NATS. */
describe("Prometheus metrics", () => {
  let cluster: Cluster;
  let backends: PlatformProcess;
  let gateway: PlatformProcess;
  let receiver: WebhookReceiver;
  let orgId: string;
  let key: string;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    cluster = await startCluster({ OUTBOUND_ALLOW_LOOPBACK: "true", WEBHOOK_POLL_MS: "100" });
    backends = await cluster.spawn(backendsExcept());
    gateway = await cluster.spawn("gateway");
    ({ orgId, key } = await createOrgWithKey(gateway.url, ADMIN_TOKEN, { credits: 100 }));
  });
  afterAll(async () => {
    await cluster?.stop();
    await receiver?.close();
  });

  it("counts requests, jobs, stages, webhook deliveries, credits and transport calls, with bounded labels only", async () => {
    const api = client(gateway.url, key);
    expect((await api("/v1/webhooks", { method: "POST", body: { url: receiver.url, events: ["job.succeeded", "job.failed"] } })).status).toBe(201);
    const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Metrics", description: "Metrics test", ingest_website: false } });
    const source = await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", title: "T", content: "Crews plan routes at dawn. Windows are two hours wide." } });
    const ingest = await waitForJob(gateway.url, key, source.body.ingest_job_id);
    expect(ingest.status).toBe("succeeded");
    // An article (debited), canceled at once: refunded when it ends.
    const article = await api("/v1/articles", { method: "POST", headers: { "idempotency-key": `metrics-${Date.now()}` }, body: { topic: "Route planning for field crews" } });
    expect(article.status).toBe(202);
    await api(`/v1/jobs/${article.body.id}/cancel`, { method: "POST" });
    const articleJob = await waitForJob(gateway.url, key, article.body.id);
    expect(["canceled", "succeeded", "failed"]).toContain(articleJob.status);
    for (let i = 0; i < 3; i++) await api(`/v1/jobs/${ingest.id}`);
    expect((await api(`/v1/jobs/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await request(gateway.url, "/v1/usage")).status).toBe(401);
    await receiver.waitForRequests(1);

    // The backends' HEALTH_PORT: jobs, stages, credits, webhooks, handled calls.
    const back = await waitFor(async () => {
      const s = await scrape(backends.healthUrl);
      return total(s, "webhook_delivery_attempts_total", { outcome: "delivered" }) >= 1 && total(s, "credits_refunded_total") >= 1 ? s : undefined;
    }, "webhook and refund metrics");
    expect(total(back, "jobs_finished_total", { type: "ingest_source", status: "succeeded" })).toBeGreaterThanOrEqual(1);
    expect(total(back, "jobs_finished_total", { type: "article", status: articleJob.status })).toBeGreaterThanOrEqual(1);
    const stages = find(back, "job_stage_duration_seconds_count", { type: "ingest_source", outcome: "done" });
    expect(stages.map((s) => s.labels.stage).sort()).toEqual([...ingest.stages.map((s: { key: string }) => s.key)].sort());
    expect(total(back, "credits_debited_total")).toBeGreaterThanOrEqual(articleJob.credits_charged);
    expect(total(back, "credits_refunded_total")).toBe(articleJob.status === "succeeded" ? 0 : articleJob.credits_charged);
    expect(total(back, "moleculer_requests_total", { action: "pipeline.get", side: "local", outcome: "ok" })).toBeGreaterThanOrEqual(3);
    expect(find(back, "process_cpu_seconds_total")).toHaveLength(1);

    // The gateway's HEALTH_PORT: HTTP by route template and status, and its calls over the transport.
    const gw = await scrape(gateway.healthUrl);
    expect(total(gw, "http_requests_total", { method: "GET", route: "/v1/jobs/:id", status: "200" })).toBeGreaterThanOrEqual(3);
    expect(total(gw, "http_requests_total", { method: "GET", route: "/v1/jobs/:id", status: "404" })).toBe(1);
    expect(total(gw, "http_requests_total", { method: "GET", route: "/v1/usage", status: "401" })).toBe(1);
    expect(total(gw, "http_requests_total", { method: "POST", route: "/v1/articles", status: "202" })).toBe(1);
    const latency = find(gw, "http_request_duration_seconds_bucket", { method: "GET", route: "/v1/jobs/:id", status: "200", le: "+Inf" });
    expect(latency).toHaveLength(1);
    expect(latency[0].value).toBe(total(gw, "http_requests_total", { method: "GET", route: "/v1/jobs/:id", status: "200" }));
    expect(total(gw, "moleculer_requests_total", { action: "pipeline.get", side: "remote", outcome: "ok" })).toBeGreaterThanOrEqual(3);
    expect(find(gw, "moleculer_request_duration_seconds_count", { action: "auth.lookupKey", side: "remote" })).toHaveLength(1);

    // No organization, key or job id anywhere in either exposition; routes are templates.
    for (const s of [...back, ...gw]) {
      for (const v of Object.values(s.labels)) {
        expect(v).not.toContain(orgId);
        expect(v).not.toContain(ingest.id);
        expect(v).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
        expect(v).not.toContain(key);
      }
    }
    const routes = new Set(find(gw, "http_requests_total").map((s) => s.labels.route));
    for (const r of routes) expect(r === "unmatched" || /^\/(v1|admin|healthz|readyz|docs|media|metrics)/.test(r)).toBe(true);
  });

  it("answers /metrics on the API port only with the admin token", async () => {
    const anonymous = await request(gateway.url, "/metrics");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe("invalid_admin_token");
    expect((await request(gateway.url, "/metrics", { token: key })).status).toBe(401);
    const samples = await scrape(gateway.url, ADMIN_TOKEN);
    expect(find(samples, "http_requests_total").length).toBeGreaterThan(0);
  });
});
