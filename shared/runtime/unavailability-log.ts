import type { Middleware, ServiceBroker } from "moleculer";
import { isExpectedUnavailability } from "../errors";
import { rootLogger } from "../logger";

/**
 * Expected unavailability, logged once per outage (docs/failure-semantics.md#logs): a service with no
 * live instance, a node lost mid-call, a timeout, a database that does not answer. The first call
 * refused starts an outage of the called service (one warn line); the next call that succeeds, or the
 * service reappearing in the registry, ends it (one warn line with how many calls were refused and
 * for how long). Nothing per refused call: each would be the same line with the same stack.
 */
export class UnavailabilityLog {
  private readonly open = new Map<string, { since: number; refused: number; reason: string }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly warn: (fields: Record<string, unknown>, message: string) => void = (fields, message) => rootLogger().warn(fields, message),
  ) {}

  /** A call to `service` failed for an expected reason (an error name). */
  refused(service: string, reason: string): void {
    const outage = this.open.get(service);
    if (outage) return void outage.refused++;
    this.open.set(service, { since: this.now(), refused: 1, reason });
    this.warn({ service, reason }, "service unavailable: calls to it are refused until it is back (counted, not logged one by one)");
  }

  /** A call to `service` succeeded: an outage of it ends. */
  served(service: string): void {
    const outage = this.open.get(service);
    if (!outage) return;
    this.open.delete(service);
    this.warn(
      { service, reason: outage.reason, refused: outage.refused, down_ms: this.now() - outage.since },
      "service available again",
    );
  }

  /** Services in an outage that `isAvailable` says are back end theirs. */
  recheck(isAvailable: (service: string) => boolean): void {
    for (const service of [...this.open.keys()]) if (isAvailable(service)) this.served(service);
  }

  /** The services in an outage now. */
  outages(): string[] {
    return [...this.open.keys()];
  }
}

/** The process's one log of outages. */
export const unavailabilityLog = new UnavailabilityLog();

/** The service an action name belongs to (`pipeline.get` → `pipeline`; `$node.list` and names without a dot as is). */
export function serviceOf(action: string): string {
  const dot = action.lastIndexOf(".");
  return dot <= 0 ? action : action.slice(0, dot);
}

/**
 * Every call this process makes goes through the log: an expected failure counts against the called
 * service's outage, a success ends it, and so does the service's return to the registry.
 */
export function unavailabilityLogMiddleware(log: UnavailabilityLog = unavailabilityLog): Middleware {
  let broker: ServiceBroker;
  type Call = (action: unknown, params?: unknown, opts?: unknown) => Promise<unknown>;
  return {
    name: "UnavailabilityLog",
    created(b: ServiceBroker) {
      broker = b;
    },
    started() {
      const bus = (broker as unknown as { localBus: { on(event: string, fn: () => void): void } }).localBus;
      const registry = broker.registry as unknown as { hasService(fullName: string): boolean };
      bus.on("$services.changed", () => log.recheck((service) => registry.hasService(service)));
    },
    call(next: Call) {
      return (action: unknown, params?: unknown, opts?: unknown) => {
        if (typeof action !== "string" || action.startsWith("$")) return next(action, params, opts);
        const service = serviceOf(action);
        return next(action, params, opts).then(
          (result) => {
            log.served(service);
            return result;
          },
          (err: unknown) => {
            if (isExpectedUnavailability(err)) log.refused(service, String((err as { name?: unknown }).name));
            throw err;
          },
        );
      };
    },
  } as unknown as Middleware;
}
