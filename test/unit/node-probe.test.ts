import { EventEmitter } from "node:events";
import type { ServiceBroker } from "moleculer";
import { nodeProbeMiddleware } from "../../shared/runtime/node-probe";

/** A broker as the middleware sees it: its local event bus and the transit's pending calls. */
function fakeBroker() {
  const localBus = new EventEmitter();
  const rejected: { action: string; error: string }[] = [];
  const pendingRequests = new Map<string, { action: { name: string }; nodeID: string; reject(err: Error): void }>();
  const pend = (id: string, nodeID: string, action: string) =>
    pendingRequests.set(id, { action: { name: action }, nodeID, reject: (err) => rejected.push({ action, error: err.name }) });
  const broker = { localBus, transit: { connected: true, pendingRequests } } as unknown as ServiceBroker;
  return { broker, localBus, pendingRequests, pend, rejected };
}

describe("node probe: a node restarted under the same id", () => {
  it("rejects the calls pending on its previous instance, and only those, once its new instance id is seen", () => {
    const { broker, localBus, pendingRequests, pend, rejected } = fakeBroker();
    const mw = nodeProbeMiddleware({ reconnectGraceMs: 1000 }) as unknown as { created(b: ServiceBroker): void; started(): void };
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
