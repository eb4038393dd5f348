import { spawn } from "node:child_process";
import path from "node:path";
import { createOrgWithKey } from "../test/support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster } from "../test/support/cluster";
import { request } from "../test/support/http";
import { waitForJob } from "../test/support/jobs";
import { freePort } from "../test/support/ports";
import { measure, type LoadResult } from "./load";
import { cpuProfileArgs, numberOption } from "./options";

const CONNECTIONS = 64;
const SECONDS = numberOption("BENCH_SECONDS", 10);

function startNode(script: string, args: string[], env: Record<string, string>): Promise<{ stop(): void }> {
  const child = spawn(process.execPath, [path.join(__dirname, script), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve) => child.stdout!.once("data", () => resolve({ stop: () => child.kill("SIGTERM") })));
}

/** The same JSON through moleculer-web and one NATS hop, with no auth and no database: the framework's own cost. */
async function measureEmptyPath(natsUrl: string, body: string): Promise<LoadResult> {
  const port = await freePort();
  const echo = await startNode("empty-path.js", ["echo"], { NATS_URL: natsUrl, BARE_BODY: body });
  const gateway = await startNode("empty-path.js", ["gateway"], { NATS_URL: natsUrl, BARE_BODY: body, PORT: String(port) });
  try {
    return await measure(`http://127.0.0.1:${port}/echo`, { connections: CONNECTIONS, seconds: SECONDS });
  } finally {
    gateway.stop();
    echo.stop();
  }
}

async function finishedIngestJob(baseUrl: string, key: string): Promise<string> {
  const profile = await request(baseUrl, "/v1/brand-profiles", { method: "POST", token: key, body: { name: "Bench" } });
  const source = await request(baseUrl, `/v1/brand-profiles/${profile.body.id}/sources`, {
    method: "POST",
    token: key,
    body: { type: "text", content: "A short text so the job finishes at once." },
  });
  await waitForJob(baseUrl, key, source.body.ingest_job_id);
  return source.body.ingest_job_id;
}

async function startBareServer(body: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [path.join(__dirname, "bare-server.js")], { env: { ...process.env, BARE_BODY: body }, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve) => child.stdout!.once("data", (c: Buffer) => resolve(JSON.parse(c.toString()).port)));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill("SIGTERM") };
}

async function measureBare(body: string): Promise<LoadResult> {
  const bare = await startBareServer(body);
  try {
    return await measure(bare.url, { connections: CONNECTIONS, seconds: SECONDS });
  } finally {
    bare.stop();
  }
}

/**
 * Authenticated GETs through the gateway process, with auth, billing and the pipeline in another
 * process over a real nats-server (docs/request-path.md: the key's owning gateway admits in memory
 * against window units reserved from auth; final jobs and usage reports may be answered from the
 * gateway's edge read cache), beside a bare Node server answering the same JSON.
 */
export async function benchGatewayAuth(): Promise<Record<string, unknown>> {
  const cluster = await startCluster({ LOG_LEVEL: "warn" });
  try {
    const backends = await cluster.spawn(backendsExcept(), {}, cpuProfileArgs("BENCH_GATEWAY_PROF"));
    const gateway = await cluster.spawn("gateway", {}, cpuProfileArgs("BENCH_GATEWAY_PROF"));
    const pids = { gateway: gateway.child.pid, backends: backends.child.pid, nats: cluster.nats.pid, database: cluster.mongo.pid };
    const { key } = await createOrgWithKey(gateway.url, ADMIN_TOKEN, { rate_limit_rpm: 1_000_000 });
    const path = "/v1/usage?days=1";
    const sample = await request(gateway.url, path, { token: key });
    if (sample.status !== 200) throw new Error(`sample request failed: ${sample.status} ${sample.text}`);

    const bareFirst = await measureBare(sample.text);
    const empty = await measureEmptyPath(cluster.nats.url, sample.text);
    const platform = await measure(gateway.url + path, { connections: CONNECTIONS, seconds: SECONDS, headers: { authorization: `Bearer ${key}` }, pids });
    // A finished job: immutable, so the gateway may answer it from memory after the first read.
    const jobId = await finishedIngestJob(gateway.url, key);
    const jobRead = await measure(`${gateway.url}/v1/jobs/${jobId}`, { connections: CONNECTIONS, seconds: SECONDS, headers: { authorization: `Bearer ${key}` }, pids });
    // Bare again at the end, the platform idle: the faster of the two is the reference (the first
    // often runs while the processes just started are still settling, which flatters every ratio).
    const bareLast = await measureBare(sample.text);
    const bareResult = bareLast.requestsPerSec > bareFirst.requestsPerSec ? bareLast : bareFirst;
    return {
      name: "authenticated GET /v1/usage and GET /v1/jobs/{id} through the gateway, services over NATS",
      connections: CONNECTIONS,
      seconds: SECONDS,
      bare: bareResult,
      bareRuns: [bareFirst.requestsPerSec, bareLast.requestsPerSec],
      emptyTwoHop: empty,
      platform,
      jobRead,
      ratio: Number((platform.requestsPerSec / bareResult.requestsPerSec).toFixed(3)),
      jobReadRatio: Number((jobRead.requestsPerSec / bareResult.requestsPerSec).toFixed(3)),
      emptyTwoHopRatio: Number((empty.requestsPerSec / bareResult.requestsPerSec).toFixed(3)),
    };
  } finally {
    await cluster.stop();
  }
}
