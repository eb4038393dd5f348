import fs from "node:fs";
import { createOrgWithKey } from "../test/support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster } from "../test/support/cluster";
import { client } from "../test/support/http";
import { waitForJob } from "../test/support/jobs";
import { startGeneratedSite } from "./generated-site";
import { cpuProfileArgs, numberOption } from "./options";

const PAGES = numberOption("BENCH_INGEST_PAGES", 200);

/** Peak resident memory of a process (VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmHWM:"));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

const seconds = (a?: string, b?: string) => (a && b ? (Date.parse(b) - Date.parse(a)) / 1000 : 0);

/**
 * Ingest of a generated 200-page local site: brand-knowledge and pipeline in their own processes
 * over NATS; pages/s and chunks/s over the whole job, each stage's time, and the peak memory of
 * the brand-knowledge process.
 */
export async function benchIngest(): Promise<Record<string, unknown>> {
  const site = await startGeneratedSite(PAGES);
  const cluster = await startCluster({ LOG_LEVEL: "warn", CRAWL_MAX_PAGES: String(PAGES), CRAWL_MAX_DEPTH: "10", CRAWL_TIMEOUT_MS: "600000" });
  try {
    await cluster.spawn(backendsExcept("brand-knowledge", "pipeline"));
    // BENCH_INGEST_PROF=<dir>: a CPU profile of the brand-knowledge process, written when it stops.
    const brand = await cluster.spawn("brand-knowledge", {}, cpuProfileArgs("BENCH_INGEST_PROF"));
    await cluster.spawn("pipeline");
    const gateway = await cluster.spawn("gateway");
    const { key } = await createOrgWithKey(gateway.url, ADMIN_TOKEN, { rate_limit_rpm: 100000 });
    const api = client(gateway.url, key);
    const baseline = peakRssMiB(brand.child.pid!);
    const started = Date.now();
    const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Generated", website_url: `${site.url}/` } });
    const job = await waitForJob(gateway.url, key, profile.body.ingest_job_id, { timeoutMs: 600000 });
    const totalS = (Date.now() - started) / 1000;
    if (job.status !== "succeeded") throw new Error(`ingest ${job.status}: ${job.error}`);
    return {
      name: `ingest of a generated ${PAGES}-page local site (crawl → refresh), brand-knowledge and pipeline over NATS`,
      pages: job.result.pages,
      chunks: job.result.chunks,
      seconds: Number(totalS.toFixed(2)),
      pagesPerSec: Number((job.result.pages / totalS).toFixed(1)),
      chunksPerSec: Number((job.result.chunks / totalS).toFixed(1)),
      stageSeconds: Object.fromEntries(job.stages.map((s: any) => [s.key, Number(seconds(s.startedAt, s.endedAt).toFixed(2))])),
      brandKnowledgePeakRssMiB: peakRssMiB(brand.child.pid!),
      brandKnowledgeIdleRssMiB: baseline,
    };
  } finally {
    await cluster.stop();
    await site.close();
  }
}
