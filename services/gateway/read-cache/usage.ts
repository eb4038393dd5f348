import { LRUCache } from "lru-cache";
import { utcDayAt } from "../../../shared/clock";
import type { UsageReport } from "../../../shared/schemas/billing";
import { deepFreeze, type Lookup } from "./answers";

interface Entry {
  report: UsageReport;
  /** The UTC day the report's window ends on (as this gateway saw the day when it asked). */
  day: string;
  /** `ttlMs` after the read was sent, not after it came back: no entry is ever older than that. */
  expiresAt: number;
}

/** Requests in flight for one organization, how many change notices arrived while they were, and the reads under way by `days`. */
interface Flight {
  generation: number;
  count: number;
  reads: Map<string, { generation: number; report: Promise<UsageReport> }>;
}

/** Distinct `days` values kept per organization (clients ask for one or two): bounds memory to `maxOrgs` × this. */
const DAYS_PER_ORG = 4;

/**
 * `billing.usage` answers by (organization, days, UTC day), each kept at most `ttlMs`, dropped when
 * billing announces a change for the organization (shared/events/usage-changed.ts).
 *
 * A read that was sent before a change notice arrived may carry the state before the change: it is
 * answered to its own request but never stored. Each organization with reads in flight has a
 * generation, bumped by every notice; a read stores its answer only if the generation is the one
 * it started under. Concurrent misses share one read, but only one sent under the current
 * generation: a request arriving after a notice never joins a read sent before it (so one notice
 * costs billing one read per `days` value, not one per waiting request).
 */
export class UsageCache {
  private readonly orgs: LRUCache<string, Map<number, Entry>>;
  private readonly flights = new Map<string, Flight>();
  private readonly now: () => number;
  private readonly today: () => string;

  /**
   * `noticesReach`: whether every billing process would send this gateway its notices now
   * (notice-reach.ts); while it says no, answers are not stored.
   */
  constructor(private readonly opts: { ttlMs: number; maxOrgs: number; noticesReach?: () => boolean; now?: () => number; today?: () => string }) {
    this.orgs = new LRUCache({ max: opts.maxOrgs });
    this.now = opts.now ?? (() => performance.now());
    this.today = opts.today ?? (() => utcDayAt(Date.now()));
  }

  async read(orgId: string, days: number, fetch: () => Promise<UsageReport>, lookup?: Lookup): Promise<UsageReport> {
    const day = this.today();
    const startedAt = this.now();
    const entry = this.orgs.get(orgId)?.get(days);
    if (entry && entry.day === day && entry.expiresAt > startedAt) {
      lookup?.("hit");
      return entry.report;
    }
    lookup?.("miss");
    const flight = this.enter(orgId);
    const generation = flight.generation;
    const readKey = `${days}|${day}`;
    const underWay = flight.reads.get(readKey);
    try {
      if (underWay && underWay.generation === generation) return await underWay.report;
      const storable = this.opts.ttlMs > 0 && (this.opts.noticesReach?.() ?? true);
      const report = fetch();
      const read = { generation, report };
      flight.reads.set(readKey, read);
      try {
        const answer = await report;
        if (storable && flight.generation === generation) this.store(orgId, days, { report: deepFreeze(answer), day, expiresAt: startedAt + this.opts.ttlMs });
        return answer;
      } finally {
        if (flight.reads.get(readKey) === read) flight.reads.delete(readKey);
      }
    } finally {
      this.leave(orgId, flight);
    }
  }

  /** Billing changed these organizations' usage: forget what is cached, and keep reads in flight from storing. */
  invalidate(orgIds: readonly string[]): void {
    for (const orgId of orgIds) {
      this.orgs.delete(orgId);
      const flight = this.flights.get(orgId);
      if (flight) flight.generation++;
    }
  }

  /** Cached answers, all organizations together. */
  get size(): number {
    let n = 0;
    for (const entries of this.orgs.values()) n += entries.size;
    return n;
  }

  private store(orgId: string, days: number, entry: Entry): void {
    let entries = this.orgs.get(orgId);
    if (!entries) this.orgs.set(orgId, (entries = new Map()));
    entries.delete(days);
    entries.set(days, entry);
    if (entries.size > DAYS_PER_ORG) entries.delete(entries.keys().next().value as number);
  }

  private enter(orgId: string): Flight {
    let flight = this.flights.get(orgId);
    if (!flight) this.flights.set(orgId, (flight = { generation: 0, count: 0, reads: new Map() }));
    flight.count++;
    return flight;
  }

  private leave(orgId: string, flight: Flight): void {
    if (--flight.count === 0 && this.flights.get(orgId) === flight) this.flights.delete(orgId);
  }
}
