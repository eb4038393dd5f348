import { EventEmitter } from "node:events";
import type { ServiceBroker } from "moleculer";
import { nodeProbeMiddleware } from "../../shared/runtime/node-probe";

/** A nats.js v2 client's status stream, fed by the test. */
class NatsStatus implements AsyncIterable<{ type: string }> {
  private waiting: ((r: IteratorResult<{ type: string }>) => void) | undefined;
  private queued: { type: string }[] = [];
  emit(type: string): void {
    if (this.waiting) this.waiting({ value: { type }, done: false });
    else this.queued.push({ type });
    this.waiting = undefined;
  }
  [Symbol.asyncIterator](): AsyncIterator<{ type: string }> {
    return {
      next: () => (this.queued.length ? Promise.resolve({ value: this.queued.shift()!, done: false }) : new Promise((r) => (this.waiting = r))),
    };
  }
}

/** A broker as the middleware sees it: its local event bus and the transit's pending calls. */
function fakeBroker() {
  const localBus = new EventEmitter();
  const status = new NatsStatus();
  const rejected: { action: string; error: string }[] = [];
  const pendingRequests = new Map<string, { action: { name: string }; nodeID: string; reject(err: Error): void }>();
  const pend = (id: string, nodeID: string, action: string) =>
    pendingRequests.set(id, { action: { name: action }, nodeID, reject: (err) => rejected.push({ action, error: err.name }) });
  const broker = { localBus, transit: { connected: true, pendingRequests, tx: { client: { status: () => status } } } } as unknown as ServiceBroker;
  return { broker, localBus, pendingRequests, pend, rejected, status };
}

describe("node probe: a node restarted under the same id", () => {
  it("rejects the calls pending on its previous instance, and only those, once its new instance id is seen", () => {
    const { broker, localBus, pendingRequests, pend, rejected } = fakeBroker();
    const mw = nodeProbeMiddleware({ reconnectSettleMs: 1000, reconnectGraceMs: 1000 }) as unknown as { created(b: ServiceBroker): void; started(): void };
    mw.created(broker);
    mw.started();
    localBus.emit("$node.connected", { node: { id: "brand-1", instanceID: "a" } });
    localBus.emit("$node.connected", { node: { id: "pipeline-1", instanceID: "p" } });
    pend("c1", "brand-1", "brand-knowledge.runIngestStage");
    pend("c2", "pipeline-1", "pipeline.get");
    localBus.emit("$node.updated", { node: { id: "brand-1", instanceID: "a" } }); // same instance: nothing lost
    expect(rejected).toEqual([]);
    localBus.emit("$node.updated", { node: { id: "brand-1", instanceID: "b" } }); // restarted before heartbeats noticed
    expect(rejected).toEqual([{ action: "brand-knowledge.runIngestStage", error: "RequestRejectedError" }]);
    expect([...pendingRequests.keys()]).toEqual(["c2"]);
  });
});

describe("node probe: NATS went away and came back", () => {
  type Mw = { created(b: ServiceBroker): void; started(): void; remoteAction(next: (ctx: unknown) => Promise<unknown>): (ctx: unknown) => Promise<unknown> };
  const flush = () => new Promise((r) => jest.requireActual<typeof import("timers")>("timers").setImmediate(r));

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("rejects the calls sent before every node could subscribe again and still unanswered after the grace; later and answered calls stand", async () => {
    const { broker, pend, rejected, status } = fakeBroker();
    const mw = nodeProbeMiddleware({ reconnectSettleMs: 1000, reconnectGraceMs: 1000 }) as unknown as Mw;
    mw.created(broker);
    mw.started();
    const answers = new Map<string, () => void>();
    const send = (id: string, action: string) => {
      pend(id, "brand-1", action);
      void mw.remoteAction(() => new Promise<void>((resolve) => answers.set(id, resolve)))({ id, nodeID: "brand-1" });
    };
    send("before-outage", "brand-knowledge.a");
    status.emit("disconnect");
    await flush();
    send("during-outage", "brand-knowledge.b"); // buffered by the client, published on reconnecting
    status.emit("reconnect");
    await flush();
    jest.advanceTimersByTime(500);
    send("before-target-back", "brand-knowledge.c"); // the target may not have subscribed again yet
    send("answered", "brand-knowledge.d");
    answers.get("answered")!();
    await flush();
    jest.advanceTimersByTime(600);
    send("after-settle", "brand-knowledge.e");
    jest.advanceTimersByTime(899);
    expect(rejected).toEqual([]); // answers still on their way are waited for
    jest.advanceTimersByTime(1);
    expect(rejected.map((r) => r.action).sort()).toEqual(["brand-knowledge.a", "brand-knowledge.b", "brand-knowledge.c"]);
    expect(rejected.every((r) => r.error === "RequestRejectedError")).toBe(true);
  });
});
