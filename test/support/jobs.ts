import { request } from "./http";
import { waitFor } from "./wait";

const TERMINAL = ["succeeded", "failed", "canceled"];

/** Polls `GET /v1/jobs/{id}` until the job has ended (or `until` says so), and returns it. */
export async function waitForJob(baseUrl: string, key: string, jobId: string, opts: { timeoutMs?: number; until?: (job: any) => boolean } = {}) {
  const until = opts.until ?? ((job: any) => TERMINAL.includes(job.status));
  return waitFor(
    async () => {
      const r = await request(baseUrl, `/v1/jobs/${jobId}`, { token: key });
      if (r.status !== 200) throw new Error(`GET job: ${r.status} ${r.text}`);
      return until(r.body) ? r.body : undefined;
    },
    `job ${jobId}`,
    opts.timeoutMs ?? 60000,
    100,
  );
}
