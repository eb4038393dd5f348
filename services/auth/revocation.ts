import type { Context, ServiceBroker } from "moleculer";
import { call } from "../../shared/action";
import { nodesServing } from "../../shared/runtime/key-owner";
import { GatewayActions, KEY_CACHE_TTL_MS } from "../../shared/schemas/gateway";
/** How long a revoke waits for each gateway to acknowledge the notice. */
export const REVOCATION_ACK_TIMEOUT_MS = 1000;

/**
 * After a revocation is written: tells every gateway to drop the key and waits for each to
 * acknowledge. When one does not (dead, partitioned, slow), waits until any record it may hold
 * has expired (`KEY_CACHE_TTL_MS` after the write began), so that when the revoke call returns no
 * gateway can admit the key any more (docs/request-path.md#revocation).
 */
export async function announceRevocation(broker: ServiceBroker, ctx: Context, keyHash: string, writeStartedAt: number): Promise<{ acknowledged: number; waitedMs: number }> {
  const nodes = nodesServing(broker, GatewayActions.forgetKey.action);
  const results = await Promise.allSettled(
    nodes.map((nodeID) => call(ctx, GatewayActions.forgetKey, { key_hash: keyHash }, { nodeID, timeout: REVOCATION_ACK_TIMEOUT_MS, retries: 0 })),
  );
  const acknowledged = results.filter((r) => r.status === "fulfilled").length;
  if (acknowledged === nodes.length) return { acknowledged, waitedMs: 0 };
  const waitedMs = Math.max(0, writeStartedAt + KEY_CACHE_TTL_MS - Date.now());
  await new Promise((resolve) => setTimeout(resolve, waitedMs));
  return { acknowledged, waitedMs };
}
