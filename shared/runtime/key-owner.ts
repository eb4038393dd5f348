import type { ServiceBroker } from "moleculer";
import { hash32 } from "../hash32";

/**
 * The node that owns a key for an action: rendezvous (highest random weight) hashing of the key
 * over the nodes that serve the action (docs/request-path.md#ownership). Every caller that sees the
 * same nodes picks the same owner; when a node comes or goes only the keys it owned move.
 *
 * Written here rather than using Moleculer's "Shard" strategy because the broker's `preferLocal`
 * overrides any strategy when the caller's own process serves the action: processes that run the
 * gateway and auth together would each count a key's window themselves. Passing the owner as
 * `nodeID` works the same in every topology. Returns undefined when no node serves the action
 * (the call then fails as any call to a missing service does).
 */
export function keyOwner(broker: ServiceBroker, action: string, key: string): string | undefined {
  const list = endpointsOf(broker, action);
  return list ? ownerAmong(list.endpoints.filter((ep) => ep.isAvailable).map((ep) => ep.id), key) : undefined;
}

/** The owner of `key` among these node ids (the same answer in every process, whatever the order). */
export function ownerAmong(nodeIDs: string[], key: string): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const id of nodeIDs) {
    const score = weight(id, key);
    if (score > bestScore || (score === bestScore && best !== undefined && id < best)) {
      best = id;
      bestScore = score;
    }
  }
  return best;
}

/** The rendezvous weight of a node for a key: one hash of both, the node's id and the key kept apart by U+00FF. */
function weight(nodeID: string, key: string): number {
  return hash32(`${nodeID}\u00ff${key}`);
}

/** The nodes that serve an action, as this process sees them (a revocation notice goes to each). */
export function nodesServing(broker: ServiceBroker, action: string): string[] {
  const list = endpointsOf(broker, action);
  return list ? [...new Set(list.endpoints.map((ep) => ep.id))] : [];
}

type EndpointList = { endpoints: { id: string; isAvailable: boolean }[] };

/** Moleculer's registry lookup (public in 0.14, missing from its typings). */
function endpointsOf(broker: ServiceBroker, action: string): EndpointList | undefined {
  return (broker.registry as unknown as { getActionEndpoints(name: string): EndpointList | undefined }).getActionEndpoints(action);
}
