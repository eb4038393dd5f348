import { createOrgWithKey } from "../test/support/admin";
import { ADMIN_TOKEN, startCluster } from "../test/support/cluster";
import { client } from "../test/support/http";
import { waitFor } from "../test/support/wait";

/**
 * Log volume of a gateway while the pipeline process is down and clients keep polling a job
 * (docs/benchmarks.md#logs-during-an-outage): the pipeline in its own process, every other service in
 * another; `POLLERS` clients read `GET /v1/jobs/{id}` back to back for `SECONDS` after the pipeline
 * was SIGKILLed and noticed. Reports the gateway process's log bytes and lines per minute of outage.
 * Run: `node dist/bench/outage-logs.js [seconds] [pollers]`.
 */
export async function benchOutageLogs(seconds = 10, pollers = 8): Promise<Record<string, unknown>> {
  const cluster = await startCluster({ PIPELINE_CONCURRENCY: "0" });
  try {
    const pipeline = await cluster.spawn("pipeline");
    const core = await cluster.spawn("gateway,auth,billing,articles,brand-knowledge,webhooks");
    const { key } = await createOrgWithKey(core.url, ADMIN_TOKEN, { credits: 100, rate_limit_rpm: 1_000_000 });
    const api = client(core.url, key);
    const job = await api("/v1/articles", { method: "POST", body: { topic: "Composting at home" } });
    await pipeline.kill();
    await waitFor(async () => ((await api(`/v1/jobs/${job.body.id}`)).status === 503 ? true : undefined), "the pipeline noticed gone", 20000, 100);

    const logStart = core.output().length;
    const statuses: Record<number, number> = {};
    const until = Date.now() + seconds * 1000;
    await Promise.all(
      Array.from({ length: pollers }, async () => {
        while (Date.now() < until) {
          const r = await api(`/v1/jobs/${job.body.id}`);
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        }
      }),
    );
    const during = core.output().slice(logStart);
    const lines = during.split("\n").filter((l) => l.trim());
    const perMinute = 60 / seconds;
    await cluster.spawn("pipeline");
    await waitFor(async () => ((await api(`/v1/jobs/${job.body.id}`)).status === 200 ? true : undefined), "the pipeline back", 20000, 100);
    const after = core.output().slice(logStart + during.length);
    return {
      seconds,
      pollers,
      statuses,
      log_bytes: Buffer.byteLength(during),
      log_lines: lines.length,
      lines_with_stack: lines.filter((l) => l.includes('"stack"')).length,
      log_bytes_per_minute: Math.round(Buffer.byteLength(during) * perMinute),
      log_lines_per_minute: Math.round(lines.length * perMinute),
      by_message: countBy(lines.map((l) => `${/"level":(\d+)/.exec(l)?.[1] ?? "?"} ${/"msg":"([^"]*)"/.exec(l)?.[1] ?? l.slice(0, 60)}`)),
      after_recovery: after.split("\n").filter((l) => /unavailab|available again|outage/i.test(l)).map((l) => l.slice(0, 400)),
    };
  } finally {
    await cluster.stop();
  }
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

if (require.main === module) {
  benchOutageLogs(Number(process.argv[2] ?? 10), Number(process.argv[3] ?? 8)).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).stack}\n`);
      process.exit(1);
    },
  );
}
