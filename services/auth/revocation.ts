import type { Context, ServiceBroker } from "moleculer";
import { call } from "../../shared/action";
import { nodesServing } from "../../shared/runtime/key-owner";
import { GatewayActions, KEY_CACHE_TTL_MS } from "../../shared/schemas/gateway";
/** How long a revoke waits for each gateway to acknowledge the notice. */
export const REVOCATION_ACK_TIMEOUT_MS = 1000;

/**
 * Whether this process's list of nodes can be trusted to name every gateway that may hold a key
 * record: not while it is new, and not for a while after any node joined, left, changed or this
 * process reconnected to the transport (a gateway missing a few heartbeats under load is dropped from
 * the registry and comes back later: meanwhile it holds its records and would not be told).
 */
export class RegistryWatch {
  private lastChange = Date.now();

  /** `distributed` false: every service runs in this one process, and there is no other gateway to miss. */
  constructor(private readonly distributed: boolean) {}

  /** A node came, went or changed, or this process reconnected. */
  changed(): void {
    this.lastChange = Date.now();
  }

  /** No change for the cache's whole TTL: any gateway that could hold a record loaded since is listed. */
  stable(): boolean {
    return !this.distributed || Date.now() - this.lastChange > KEY_CACHE_TTL_MS;
  }
}

/**
 * After a revocation is written: tells every gateway to drop the key and waits for each to
 * acknowledge. When one does not (dead, partitioned, slow), or when the list of gateways may be
 * incomplete (`registryStable` false), waits until any record a gateway may hold has expired
 * (`KEY_CACHE_TTL_MS` after the write began), so that when the revoke call returns no gateway can
 * admit the key any more (docs/request-path.md#revocation).
 */
export async function announceRevocation(
  broker: ServiceBroker,
  ctx: Context,
  keyHash: string,
  writeStartedAt: number,
  registryStable: boolean,
): Promise<{ acknowledged: number; waitedMs: number }> {
  const nodes = nodesServing(broker, GatewayActions.forgetKey.action);
  const results = await Promise.allSettled(
    nodes.map((nodeID) => call(ctx, GatewayActions.forgetKey, { key_hash: keyHash }, { nodeID, timeout: REVOCATION_ACK_TIMEOUT_MS, retries: 0 })),
  );
  const acknowledged = results.filter((r) => r.status === "fulfilled").length;
  if (acknowledged === nodes.length && registryStable) return { acknowledged, waitedMs: 0 };
  const waitedMs = Math.max(0, writeStartedAt + KEY_CACHE_TTL_MS - Date.now());
  await new Promise((resolve) => setTimeout(resolve, waitedMs));
  return { acknowledged, waitedMs };
}
