/** The hello/isMaster reply of a MongoDB 7.0 standalone (no topologyVersion, so drivers poll instead of streaming). */
import type { Doc } from "./values";
import { MAX_BSON_SIZE, MAX_MESSAGE_SIZE } from "./wire";

export function helloReply(command: string, connectionId: number): Doc {
  const primary = command === "hello" ? { isWritablePrimary: true } : { ismaster: true };
  return {
    helloOk: true,
    ...primary,
    maxBsonObjectSize: MAX_BSON_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: 100000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
}
