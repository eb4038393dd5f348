import { edgeCacheLookups } from "../../../shared/metrics";
import { BillingActions, type UsageReport } from "../../../shared/schemas/billing";
import { PipelineActions, type JobResource } from "../../../shared/schemas/jobs";
import type { ServiceBroker } from "moleculer";
import { FinalJobCache } from "./final-jobs";
import { NoticeReach } from "./notice-reach";
import type { Lookup } from "./answers";
import { UsageCache } from "./usage";

/**
 * The gateway's edge read cache (docs/request-path.md#edge-read-cache): final jobs and usage
 * reports answered from this process's memory when that is provably what the owning service would
 * answer. Consulted after authentication, rate counting and validation, never instead of them.
 */
export class EdgeReadCache {
  readonly jobs: FinalJobCache;
  readonly usage: UsageCache;

  constructor(opts: { finalJobs: number; usageTtlMs: number; usageOrgs: number; usageNoticesReach: () => boolean }) {
    this.jobs = new FinalJobCache({ max: opts.finalJobs });
    this.usage = new UsageCache({ ttlMs: opts.usageTtlMs, maxOrgs: opts.usageOrgs, noticesReach: opts.usageNoticesReach });
  }

  /** `action` (one of CACHED_ACTIONS) answered through the cache for validated `params` (with the caller's `org_id`); `fetch` calls the action. */
  readThrough(action: string, params: Record<string, unknown>, fetch: () => Promise<unknown>, route: string): Promise<unknown> {
    const read = READERS[action];
    return read ? read(this, params, fetch, route) : fetch();
  }

  /** A job through the final-job cache (the API route, and the job-event hub's snapshots). */
  job(orgId: string, jobId: string, fetch: () => Promise<JobResource>, route: string): Promise<JobResource> {
    return this.jobs.read(orgId, jobId, fetch, counted(route));
  }
}

function counted(route: string): Lookup {
  return (outcome) => edgeCacheLookups.inc({ route, outcome });
}

type Reader = (cache: EdgeReadCache, params: Record<string, unknown>, fetch: () => Promise<unknown>, route: string) => Promise<unknown>;

/** The one list of cached reads: how each action's answer goes through the cache. */
const READERS: Record<string, Reader> = {
  [PipelineActions.get.action]: (cache, p, fetch, route) => cache.job(String(p.org_id), String(p.id), fetch as () => Promise<JobResource>, route),
  [BillingActions.usage.action]: (cache, p, fetch, route) => cache.usage.read(String(p.org_id), Number(p.days), fetch as () => Promise<UsageReport>, counted(route)),
};

/** Actions `readThrough` serves: their routes are answered by the gateway's cached-read handler. */
export const CACHED_ACTIONS: ReadonlySet<string> = new Set(Object.keys(READERS));

/** Sizes: 10,000 final jobs; usage of 2,500 organizations (at most 4 `days` values each). */
const FINAL_JOBS_CACHED = 10_000;
const USAGE_ORGS_CACHED = 2_500;

/** A gateway's cache: its sizes, and usage stored only while every billing process would send this gateway its notices. */
export function gatewayReadCache(broker: ServiceBroker, usageTtlMs: number): EdgeReadCache {
  const billingNotices = new NoticeReach(broker, BillingActions.usage.action);
  return new EdgeReadCache({ finalJobs: FINAL_JOBS_CACHED, usageTtlMs, usageOrgs: USAGE_ORGS_CACHED, usageNoticesReach: () => billingNotices.reached() });
}
