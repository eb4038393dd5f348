/**
 * A failure budget per client address, against guessing the admin token on the operator's sign-in
 * form (docs/dashboard.md#the-sign-in-forms-failure-budget). An address that typed `maxFailures` wrong
 * tokens within `windowMs` of its first one is refused — whatever it types, the right token included —
 * until that window ends. A successful sign-in clears the address's failures.
 *
 * Bound: this lives in the memory of one gateway process. N gateway replicas allow N × the budget, and
 * a restart forgets it. At most `maxClients` addresses are tracked: past that, the oldest window is
 * dropped first, so memory stays bounded whatever the number of addresses.
 *
 * Hand-written (about 40 lines) rather than a rate-limiting library: what is needed — count failures
 * only, refuse while over budget, a hard cap on tracked addresses — is this small, and the libraries'
 * in-memory stores have no cap on keys.
 */
export interface FailureBudgetOptions {
  maxFailures: number;
  windowMs: number;
  maxClients: number;
}

/** The sign-in form's budget: 10 wrong tokens per address per 15 minutes, 10 000 addresses tracked. */
export const SIGN_IN_BUDGET: FailureBudgetOptions = { maxFailures: 10, windowMs: 15 * 60_000, maxClients: 10_000 };

interface Window {
  failures: number;
  endsAt: number;
}

export class FailureBudget {
  /** In order of each window's start (a window is only ever inserted when it starts): the first is the oldest. */
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly opts: FailureBudgetOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until `client` may try again (at least 1), or 0 while it has budget left. */
  retryAfterSeconds(client: string): number {
    const w = this.current(client);
    if (!w || w.failures < this.opts.maxFailures) return 0;
    return Math.max(1, Math.ceil((w.endsAt - this.now()) / 1000));
  }

  recordFailure(client: string): void {
    const w = this.current(client);
    if (w) {
      w.failures += 1;
      return;
    }
    if (this.windows.size >= this.opts.maxClients) this.windows.delete(this.windows.keys().next().value!);
    this.windows.set(client, { failures: 1, endsAt: this.now() + this.opts.windowMs });
  }

  recordSuccess(client: string): void {
    this.windows.delete(client);
  }

  /** Addresses tracked now (expired windows are dropped lazily, or first when the cap is reached). */
  get size(): number {
    return this.windows.size;
  }

  private current(client: string): Window | undefined {
    const w = this.windows.get(client);
    if (w && w.endsAt <= this.now()) {
      this.windows.delete(client);
      return undefined;
    }
    return w;
  }
}
