import type { Context, Middleware, ServiceBroker } from "moleculer";
import { rootLogger } from "../logger";

export interface NodeProbeOptions {
  /** A call to another node still unanswered after this long gets that node pinged. */
  probeAfterMs: number;
  /** A node that does not answer the ping within this is dropped from the registry. */
  pingTimeoutMs: number;
}

/**
 * Notices a dead node from the calls waiting on it, faster than heartbeats alone
 * (docs/failure-semantics.md#detection). When a remote call is still pending after
 * `probeAfterMs`, its node is pinged once (one ping per node at a time); without a pong within
 * `pingTimeoutMs` the node is marked disconnected, which rejects every call pending on it
 * (RequestRejectedError: 503, or a retry on a live replica for reads) and routes new calls
 * elsewhere. A node wrongly dropped (a long stall) rejoins at its next heartbeat.
 */
export function nodeProbeMiddleware(opts: NodeProbeOptions): Middleware {
  let broker: ServiceBroker;
  const probing = new Set<string>();

  async function probe(nodeID: string): Promise<void> {
    if (probing.has(nodeID)) return;
    probing.add(nodeID);
    try {
      const transit = (broker as unknown as { transit?: { connected: boolean } }).transit;
      if (!transit?.connected) return; // the transport is down: heartbeats decide once it is back
      const pong = await broker.ping(nodeID, opts.pingTimeoutMs);
      if (pong) return;
      const node = broker.registry.nodes.get(nodeID);
      if (!node?.available) return;
      rootLogger().warn({ node_id: nodeID, ping_timeout_ms: opts.pingTimeoutMs }, "a node did not answer a ping while calls waited on it: dropped from the registry");
      broker.registry.nodes.disconnected(nodeID, true);
    } catch (err) {
      rootLogger().warn({ err, node_id: nodeID }, "probing a node failed");
    } finally {
      probing.delete(nodeID);
    }
  }

  return {
    name: "NodeProbe",
    created(b: ServiceBroker) {
      broker = b;
    },
    remoteAction(next: (ctx: Context) => Promise<unknown>) {
      return (ctx: Context) => {
        const nodeID = ctx.nodeID;
        const pending = next(ctx);
        if (!nodeID) return pending;
        const timer = setTimeout(() => void probe(nodeID), opts.probeAfterMs);
        timer.unref();
        const clear = () => clearTimeout(timer);
        pending.then(clear, clear);
        return pending;
      };
    },
  } as unknown as Middleware;
}
