import autocannon from "autocannon";
import { cpuMicros } from "./cpu";

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
  /** CPU µs per request of each process in `pids` during the measured run (not the warm-up), and their total. */
  cpuMicrosPerRequest?: Record<string, number>;
}

/** One autocannon run; a short warm-up run first so JIT and connection pools settle. */
export async function measure(
  url: string,
  opts: { connections: number; seconds: number; headers?: Record<string, string>; pids?: Record<string, number | undefined> },
): Promise<LoadResult> {
  await autocannon({ url, connections: opts.connections, duration: 2, headers: opts.headers });
  const pids = Object.entries(opts.pids ?? {}).filter((e): e is [string, number] => typeof e[1] === "number");
  const before = pids.map(([, pid]) => cpuMicros(pid));
  const r = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers: opts.headers });
  const result: LoadResult = {
    requestsPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    total: r.requests.total,
  };
  if (pids.length) {
    const perRequest: Record<string, number> = {};
    pids.forEach(([name, pid], i) => (perRequest[name] = Math.round((cpuMicros(pid) - before[i]) / Math.max(1, r.requests.total))));
    perRequest.total = Object.values(perRequest).reduce((a, b) => a + b, 0);
    result.cpuMicrosPerRequest = perRequest;
  }
  return result;
}
