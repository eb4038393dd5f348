import { helloReply } from "../handshake";
import type { Doc } from "../values";
import { MAX_BSON_SIZE } from "../wire";
import type { CommandContext, Handler } from "./context";

const hello: Handler = (cmd, _db, ctx) => helloReply(Object.keys(cmd)[0], ctx.connectionId);

export const adminCommands: Record<string, Handler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: () => ({ ok: 1 }),
  buildInfo: buildInfo,
  buildinfo: buildInfo,
  endSessions: () => ({ ok: 1 }),
  serverStatus: (_cmd, _db, ctx: CommandContext): Doc => {
    const uptimeMillis = Date.now() - ctx.startedAt;
    return {
      host: "embedded-mongo",
      version: "7.0.0",
      process: "mongod",
      pid: process.pid,
      uptime: Math.floor(uptimeMillis / 1000),
      uptimeMillis,
      uptimeEstimate: Math.floor(uptimeMillis / 1000),
      localTime: new Date(),
      connections: { current: ctx.connections(), available: 1000000, totalCreated: ctx.connectionId },
      ok: 1,
    };
  },
};

function buildInfo(): Doc {
  return {
    version: "7.0.0",
    gitVersion: "embedded",
    versionArray: [7, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_SIZE,
    storageEngines: ["embedded"],
    ok: 1,
  };
}
