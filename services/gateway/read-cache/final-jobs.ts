import { LRUCache } from "lru-cache";
import { isFinalStatus, type JobResource } from "../../../shared/schemas/jobs";
import { deepFreeze, type Lookup } from "./answers";

/**
 * Jobs in a final status, as `pipeline.get` answered them, by (organization, job id).
 *
 * A job's public resource never changes once its status is final (docs/request-path.md#edge-read-cache
 * lists every write of a job and why none touches a final one), and jobs are never deleted, so a final
 * answer stays true forever: no expiry, no invalidation, only the LRU bound. Anything not final is
 * never stored and always read from the pipeline. The organization is part of the key: another
 * organization's read of the same id misses and gets the pipeline's 404.
 */
export class FinalJobCache {
  private readonly jobs: LRUCache<string, JobResource>;

  constructor(opts: { max: number }) {
    this.jobs = new LRUCache({ max: opts.max });
  }

  async read(orgId: string, jobId: string, fetch: () => Promise<JobResource>, lookup?: Lookup): Promise<JobResource> {
    const key = `${orgId}\u0000${jobId}`;
    const cached = this.jobs.get(key);
    lookup?.(cached ? "hit" : "miss");
    if (cached) return cached;
    const job = await fetch();
    if (job.id === jobId && isFinalStatus(job.status)) this.jobs.set(key, deepFreeze(job));
    return job;
  }

  get size(): number {
    return this.jobs.size;
  }
}
