import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** One autocannon run; a short warm-up run first so JIT and connection pools settle. */
export async function measure(url: string, opts: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  await autocannon({ url, connections: opts.connections, duration: 2, headers: opts.headers });
  const r = await autocannon({ url, connections: opts.connections, duration: opts.seconds, headers: opts.headers });
  return {
    requestsPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    total: r.requests.total,
  };
}
