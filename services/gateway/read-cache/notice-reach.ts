import type { ServiceBroker } from "moleculer";
import { nodesServing } from "../../../shared/runtime/key-owner";

/**
 * Whether every billing process this gateway sees already knows this gateway, and so would send it
 * its usage notices (a Moleculer broadcast goes only to the nodes in the sender's registry).
 *
 * Processes learn of each other from INFO packets: a gateway that just started answers HTTP as soon
 * as it sees billing, which can be before billing has registered it (measured: about 0.4 s on one
 * nats-server), and a billing process that just started may not know the gateways yet. Until a
 * billing process (this instance of it) has been seen to list this gateway (`$node.list` on that
 * node), the usage cache stores nothing; reads are answered by billing as without a cache.
 */
export class NoticeReach {
  private readonly confirmed = new Set<string>();
  private readonly asking = new Set<string>();

  constructor(
    private readonly broker: ServiceBroker,
    /** An action every billing process serves: its endpoints are the processes that send notices. */
    private readonly action: string,
    private readonly opts: { retryMs: number; timeoutMs: number } = { retryMs: 100, timeoutMs: 1000 },
  ) {}

  /** True when each billing process seen now has listed this gateway; otherwise false, and asks those that have not (in the background). */
  reached(): boolean {
    const nodes = nodesServing(this.broker, this.action);
    let all = nodes.length > 0;
    for (const nodeID of nodes) {
      const instance = this.instanceOf(nodeID);
      if (this.confirmed.has(instance)) continue;
      all = false;
      if (!this.asking.has(instance)) void this.ask(nodeID, instance);
    }
    return all;
  }

  /** A node restarted under the same id is a new instance with an empty registry: confirmed again. */
  private instanceOf(nodeID: string): string {
    const node = (this.broker.registry as unknown as { nodes: { get(id: string): { instanceID?: string } | undefined } }).nodes.get(nodeID);
    return `${nodeID}\u0000${node?.instanceID ?? ""}`;
  }

  private async ask(nodeID: string, instance: string): Promise<void> {
    this.asking.add(instance);
    try {
      const known = (await this.broker.call("$node.list", { onlyAvailable: true }, { nodeID, timeout: this.opts.timeoutMs })) as { id: string }[];
      if (known.some((n) => n.id === this.broker.nodeID)) {
        for (const key of this.confirmed) if (key.startsWith(`${nodeID}\u0000`)) this.confirmed.delete(key);
        this.confirmed.add(instance);
        this.asking.delete(instance);
        return;
      }
    } catch {
      // Not reachable right now: asked again on a later read.
    }
    await new Promise((resolve) => setTimeout(resolve, this.opts.retryMs).unref());
    this.asking.delete(instance);
  }
}
