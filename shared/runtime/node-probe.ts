import { Errors, type Context, type Middleware, type ServiceBroker } from "moleculer";
import { rootLogger } from "../logger";

export interface NodeProbeOptions {
  /** After NATS comes back, calls sent before it went away and still unanswered this long after are rejected. */
  reconnectGraceMs: number;
  /** Ping the node of a slow call (the gateway's processes; omitted elsewhere, where heartbeats decide). */
  probe?: {
    /** A call to another node still unanswered after this long gets that node pinged. */
    afterMs: number;
    /** A node that does not answer the ping within this is dropped from this process's registry. */
    pingTimeoutMs: number;
  };
}

/**
 * Notices a dead node from the calls waiting on it, faster than heartbeats alone
 * (docs/failure-semantics.md#detection). With `probe` (the gateway's processes, whose callers
 * are HTTP clients), when a remote call is still pending after `probe.afterMs`, its node is pinged once (one ping per node at a time); without a pong within
 * `probe.pingTimeoutMs` the node is marked disconnected (in this process's registry only), which rejects every call pending on it
 * (RequestRejectedError: 503, or a retry on a live replica for reads) and routes new calls
 * elsewhere. A node wrongly dropped (a long stall) rejoins at its next heartbeat.
 *
 * NATS outages: a call whose request or answer was inside nats-server when it went away is never
 * answered (the clients keep what they had not sent yet). When the connection comes back, the calls
 * sent before it was lost and still unanswered `reconnectGraceMs` later are rejected
 * (RequestRejectedError), instead of waiting for the 30 s call timeout.
 */
export function nodeProbeMiddleware(opts: NodeProbeOptions): Middleware {
  let broker: ServiceBroker;
  const probing = new Set<string>();
  /** When each pending remote call was sent, by its context id (the transit's pending-request key). */
  const sentAt = new Map<string, number>();

  type PendingRequest = { action: { name: string }; nodeID: string; reject(err: Error): void };
  const transitOf = () => (broker as unknown as { transit?: { connected: boolean; pendingRequests: Map<string, PendingRequest>; tx?: { client?: unknown } } }).transit;

  function rejectCallsSentBefore(instant: number): void {
    const transit = transitOf();
    if (!transit) return;
    let rejected = 0;
    for (const [id, req] of transit.pendingRequests) {
      const sent = sentAt.get(id);
      if (sent === undefined || sent > instant) continue;
      transit.pendingRequests.delete(id);
      sentAt.delete(id);
      req.reject(new Errors.RequestRejectedError({ action: req.action.name, nodeID: req.nodeID }));
      rejected++;
    }
    if (rejected) rootLogger().warn({ rejected }, "calls lost in a NATS outage were rejected after the reconnection");
  }

  /** Follows the NATS client's status (nats.js v2): a disconnection, then the reconnection. */
  function watchTransport(): void {
    const client = transitOf()?.tx?.client as { status?: () => AsyncIterable<{ type: string }> } | undefined;
    if (!client?.status) return;
    let lostAt: number | undefined;
    void (async () => {
      for await (const s of client.status!()) {
        if (s.type === "disconnect") lostAt ??= Date.now();
        if (s.type === "reconnect" && lostAt !== undefined) {
          const instant = lostAt;
          lostAt = undefined;
          setTimeout(() => rejectCallsSentBefore(instant), opts.reconnectGraceMs).unref();
        }
      }
    })().catch((err) => rootLogger().warn({ err }, "watching the NATS connection failed"));
  }

  async function probe(nodeID: string): Promise<void> {
    if (probing.has(nodeID)) return;
    probing.add(nodeID);
    try {
      const transit = (broker as unknown as { transit?: { connected: boolean } }).transit;
      if (!transit?.connected) return; // the transport is down: heartbeats decide once it is back
      const pong = await broker.ping(nodeID, opts.probe!.pingTimeoutMs);
      if (pong) return;
      const node = broker.registry.nodes.get(nodeID);
      if (!node?.available) return;
      rootLogger().warn({ node_id: nodeID, ping_timeout_ms: opts.probe!.pingTimeoutMs }, "a node did not answer a ping while calls waited on it: dropped from the registry");
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
    started() {
      watchTransport();
    },
    remoteAction(next: (ctx: Context) => Promise<unknown>) {
      return (ctx: Context) => {
        const nodeID = ctx.nodeID;
        sentAt.set(ctx.id, Date.now());
        const pending = next(ctx);
        const timer = nodeID && opts.probe ? setTimeout(() => void probe(nodeID), opts.probe.afterMs) : undefined;
        timer?.unref();
        const clear = () => {
          clearTimeout(timer);
          sentAt.delete(ctx.id);
        };
        pending.then(clear, clear);
        return pending;
      };
    },
  } as unknown as Middleware;
}
