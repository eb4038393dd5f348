import type { Db } from "mongodb";
import type pino from "pino";
import type { Clock } from "../../shared/clock";
import type { HostResolver, UrlPolicy } from "../../shared/net/url-guard";
import { claimDelivery, EventBodies, findDueDeliveries, performClaimedAttempt, type DueDelivery } from "./deliveries";

export interface DispatcherOptions {
  /** Names this process in leases and attempt records. */
  owner: string;
  concurrency: number;
  perEndpointConcurrency: number;
  pollMs: number;
  timeoutMs: number;
  retryDelaysMs: readonly number[];
  policy: UrlPolicy;
}

export interface DispatcherDeps {
  db: () => Db;
  clock: Clock;
  log: pino.Logger;
  resolver?: HostResolver;
}

/** A lease outlives the attempt it covers (bounded by the timeout) with room for the database writes around it. */
const LEASE_MARGIN_MS = 10_000;
/**
 * Due deliveries read per query; each is then claimed on its own, so a stale candidate only costs a failed claim.
 * The query's cost grows with the deliveries waiting, not with the limit (all due ones are matched and sorted):
 * reading 1,000 rather than 200 at a time made a 20,000-delivery burst 17 % faster (docs/benchmarks.md#webhooks).
 */
const CANDIDATE_BATCH = 1000;

/**
 * Sends due deliveries from the database, at most `concurrency` at once and at most
 * `perEndpointConcurrency` per endpoint, so a slow or dead endpoint holds a few slots and never the
 * others. Each delivery is claimed under a lease with a fence; the process keeps nothing that a
 * restart would lose. Idle, it looks every `pollMs`; `wake()` makes it look at once.
 */
export class DeliveryDispatcher {
  private running = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly perEndpoint = new Map<string, number>();
  private candidates: DueDelivery[] = [];
  private candidatesReadAt = 0;
  private stale = true;
  private waker: (() => void) | undefined;
  private nudged = false;
  private readonly bodies = new EventBodies();

  constructor(
    private readonly opts: DispatcherOptions,
    private readonly deps: DispatcherDeps,
  ) {}

  start(): void {
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops claiming and waits for the attempts in flight (each ends within the timeout). */
  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** New deliveries exist (recorded or redelivered here or in another process): look now. */
  wake(): void {
    this.stale = true;
    this.nudge();
  }

  /** Ends the current idle wait, or the next one at once when the loop is busy (so no wake-up is lost). */
  private nudge(): void {
    const waker = this.waker;
    this.waker = undefined;
    if (waker) waker();
    else this.nudged = true;
  }

  private idle(ms: number): Promise<void> {
    if (this.nudged) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.nudge(), ms);
      this.waker = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let started = 0;
      this.nudged = false;
      try {
        started = await this.fillSlots();
      } catch (err) {
        this.deps.log.warn({ err }, "claiming webhook deliveries failed");
      }
      if (this.running && (started === 0 || this.freeSlots() === 0)) await this.idle(this.opts.pollMs);
    }
  }

  private freeSlots(): number {
    return this.opts.concurrency - this.inFlight.size;
  }

  private saturated(endpointId: string): boolean {
    return (this.perEndpoint.get(endpointId) ?? 0) >= this.opts.perEndpointConcurrency;
  }

  private async refreshCandidates(): Promise<void> {
    const now = this.deps.clock.now();
    const excludeEndpoints = [...this.perEndpoint.keys()].filter((id) => this.saturated(id));
    this.stale = false;
    this.candidatesReadAt = now.getTime();
    this.candidates = await findDueDeliveries(this.deps.db(), now, { excludeEndpoints, limit: CANDIDATE_BATCH });
  }

  /**
   * Claims and starts what the free slots allow. Candidates are re-read when told to (wake), when
   * used up, after `pollMs` (retries come due), or when every one left is for a saturated endpoint.
   */
  private async fillSlots(): Promise<number> {
    if (this.freeSlots() === 0) return 0;
    let refreshed = false;
    if (this.stale || this.candidates.length === 0 || this.deps.clock.now().getTime() - this.candidatesReadAt >= this.opts.pollMs) {
      await this.refreshCandidates();
      refreshed = true;
    }
    let started = this.claimCandidates();
    if (started === 0 && !refreshed && this.freeSlots() > 0) {
      await this.refreshCandidates();
      started = this.claimCandidates();
    }
    return started;
  }

  /** Starts a claim for every candidate the slots allow; the claims run side by side. */
  private claimCandidates(): number {
    const kept: DueDelivery[] = [];
    let started = 0;
    for (const candidate of this.candidates) {
      if (!this.running || this.freeSlots() === 0 || this.saturated(candidate.endpoint_id) || this.inFlight.has(candidate._id)) kept.push(candidate);
      else {
        this.claimAndAttempt(candidate);
        started++;
      }
    }
    this.candidates = kept;
    return started;
  }

  /** Holds a slot (overall and for the endpoint) from the claim to the recorded outcome. */
  private claimAndAttempt({ _id: id, endpoint_id: endpointId }: DueDelivery): void {
    this.perEndpoint.set(endpointId, (this.perEndpoint.get(endpointId) ?? 0) + 1);
    const task = this.attempt(id)
      .catch((err) => this.deps.log.error({ err, delivery_id: id }, "claiming or attempting a webhook delivery failed unexpectedly; a claimed one is retried when its lease lapses"))
      .finally(() => {
        this.inFlight.delete(id);
        const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(endpointId, left);
        else this.perEndpoint.delete(endpointId);
        this.nudge();
      });
    this.inFlight.set(id, task);
  }

  private async attempt(id: string): Promise<void> {
    const claim = await claimDelivery(this.deps.db(), id, this.opts.owner, this.opts.timeoutMs + LEASE_MARGIN_MS, this.deps.clock);
    if (!claim) return; // another process took it, or it is no longer due
    const kept = await performClaimedAttempt(this.deps.db(), claim, {
      policy: this.opts.policy,
      timeoutMs: this.opts.timeoutMs,
      clock: this.deps.clock,
      resolver: this.deps.resolver,
      retryDelaysMs: this.opts.retryDelaysMs,
      node: this.opts.owner,
      bodies: this.bodies,
    });
    if (!kept) this.deps.log.warn({ delivery_id: id }, "another process took over this webhook delivery; its outcome was not recorded here");
  }
}
