import { Errors, type Context, type Middleware, type ServiceBroker } from "moleculer";
import { rootLogger } from "../logger";

export interface NodeProbeOptions {
  /**
   * After NATS comes back, how long every node is given to reconnect and subscribe again: a call published
   * before then (buffered during the outage, or sent just after) may have reached a subject nobody listened to.
   */
  reconnectSettleMs: number;
  /** Then how long answers still on their way are waited for before those calls are rejected. */
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
 * answered. The clients keep what they had not sent yet and publish it on reconnecting, but each
 * client reconnects on its own: a call published before its target has subscribed again is dropped by
 * the server. So when the connection comes back, every call sent before `reconnectSettleMs` after
 * that (the time every node needs to be back) and still unanswered `reconnectGraceMs` later is
 * rejected (RequestRejectedError), instead of waiting for its timeout (a stage call's is 15 min, and
 * its worker renews the job's lease all that while).
 *
 * A node restarted under the same id before heartbeats noticed it was gone (a pod restarted in a
 * second) comes back with a new instance id, and Moleculer only records it as "updated": the calls
 * its dead instance received are never answered, and a worker's stage call would wait out its whole
 * timeout (15 min) while renewing its job's lease. So when a node's instance id changes, every call
 * pending on that node is rejected (RequestRejectedError) at once.
 */
export function nodeProbeMiddleware(opts: NodeProbeOptions): Middleware {
  let broker: ServiceBroker;
  const probing = new Set<string>();
  /** When each pending remote call was sent, by its context id (the transit's pending-request key). */
  const sentAt = new Map<string, number>();

  type PendingRequest = { action: { name: string }; nodeID: string; reject(err: Error): void };
  const transitOf = () => (broker as unknown as { transit?: { connected: boolean; pendingRequests: Map<string, PendingRequest>; tx?: { client?: unknown } } }).transit;

  /** Rejects the pending calls that `lost` picks (their answer will never come). */
  function rejectPending(lost: (id: string, req: PendingRequest) => boolean): number {
    const transit = transitOf();
    if (!transit) return 0;
    let rejected = 0;
    for (const [id, req] of transit.pendingRequests) {
      if (!lost(id, req)) continue;
      transit.pendingRequests.delete(id);
      sentAt.delete(id);
      req.reject(new Errors.RequestRejectedError({ action: req.action.name, nodeID: req.nodeID }));
      rejected++;
    }
    return rejected;
  }

  function rejectCallsSentBefore(instant: number): void {
    const rejected = rejectPending((id) => {
      const sent = sentAt.get(id);
      return sent !== undefined && sent <= instant;
    });
    if (rejected) rootLogger().warn({ rejected }, "calls lost in a NATS outage were rejected after the reconnection");
  }

  /** The instance id last seen of each node: a new one means the node restarted. */
  const instances = new Map<string, string>();
  function noticeInstance(node: { id?: string; instanceID?: string } | undefined): void {
    if (!node?.id || !node.instanceID) return;
    const before = instances.get(node.id);
    instances.set(node.id, node.instanceID);
    if (before === undefined || before === node.instanceID) return;
    const rejected = rejectPending((_id, req) => req.nodeID === node.id);
    if (rejected) rootLogger().warn({ rejected, node_id: node.id }, "a node restarted: the calls its previous instance had were rejected");
  }

  /** Follows the NATS client's status (nats.js v2): a disconnection, then the reconnection. */
  function watchTransport(): void {
    const client = transitOf()?.tx?.client as { status?: () => AsyncIterable<{ type: string }> } | undefined;
    if (!client?.status) return;
    let lost = false;
    void (async () => {
      for await (const s of client.status!()) {
        if (s.type === "disconnect") lost = true;
        if (s.type === "reconnect" && lost) {
          lost = false;
          const settled = Date.now() + opts.reconnectSettleMs;
          setTimeout(() => rejectCallsSentBefore(settled), opts.reconnectSettleMs + opts.reconnectGraceMs).unref();
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
      const bus = (broker as unknown as { localBus: { on(event: string, fn: (payload: { node?: { id?: string; instanceID?: string } }) => void): void } }).localBus;
      for (const event of ["$node.connected", "$node.updated"]) bus.on(event, (payload) => noticeInstance(payload?.node));
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
