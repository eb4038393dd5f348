/**
 * TCP front end: frames requests, runs each command to completion on the
 * event loop (so commands never interleave), and sends the reply once the
 * effects it depends on are durable. Also runs the TTL monitor.
 */
import * as net from "net";
import { COMMANDS, CommandContext } from "./commands";
import { Cursors } from "./cursors";
import { CommandError, toCommandError } from "./errors";
import type { Store } from "./store";
import { Doc, isPlainObject, pathValues } from "./values";
import type { Wal, WalLogger } from "./wal";
import { encodeMsgReply, encodeQueryReply, MAX_MESSAGE_SIZE, MSG_MORE_TO_COME, parseMessage } from "./wire";

const CURSOR_REAP_MS = 60_000;

interface Connection {
  id: number;
  socket: net.Socket;
  chunks: Buffer[];
  buffered: number;
  /** Replies waiting for the log, kept in request order. */
  tail: Promise<void>;
}

export class EmbeddedServer {
  private readonly server = net.createServer((s) => this.accept(s));
  private readonly sockets = new Set<net.Socket>();
  private readonly cursors = new Cursors();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly startedAt = Date.now();
  private nextConnectionId = 1;

  constructor(
    private readonly store: Store,
    private readonly wal: Wal | null,
    private readonly logger: WalLogger,
    ttlMonitorIntervalMs: number,
  ) {
    this.timers.push(setInterval(() => this.expireTtl(), ttlMonitorIntervalMs).unref());
    this.timers.push(setInterval(() => this.cursors.reap(), CURSOR_REAP_MS).unref());
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(port, host, () => {
        this.server.off("error", reject);
        resolve((this.server.address() as net.AddressInfo).port);
      });
    });
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    const closed = new Promise<void>((r) => this.server.close(() => r()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    const conn: Connection = { id: this.nextConnectionId++, socket, chunks: [], buffered: 0, tail: Promise.resolve() };
    this.sockets.add(socket);
    socket.on("data", (d) => this.onData(conn, d));
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.sockets.delete(socket));
  }

  private onData(conn: Connection, data: Buffer): void {
    conn.chunks.push(data);
    conn.buffered += data.length;
    while (conn.buffered >= 4) {
      let buf = conn.chunks.length === 1 ? conn.chunks[0] : Buffer.concat(conn.chunks);
      conn.chunks = [buf];
      const len = buf.readInt32LE(0);
      if (len < 16 || len > MAX_MESSAGE_SIZE) {
        this.logger.warn({ len, connectionId: conn.id }, "embedded-mongo: bad message length, closing connection");
        conn.socket.destroy();
        return;
      }
      if (buf.length < len) return;
      const msg = buf.subarray(0, len);
      buf = buf.subarray(len);
      conn.chunks = buf.length ? [buf] : [];
      conn.buffered = buf.length;
      this.handle(conn, msg);
    }
  }

  private handle(conn: Connection, raw: Buffer): void {
    let reply: Buffer | null;
    try {
      const req = parseMessage(raw);
      if (req.kind === "query") {
        const cmd = isPlainObject(req.command.$query) ? req.command.$query : req.command;
        reply = encodeQueryReply(req.header.requestId, this.execute(cmd, req.collection.split(".")[0], conn));
      } else {
        const body = this.execute(req.command, String(req.command.$db ?? "admin"), conn);
        reply = req.flags & MSG_MORE_TO_COME ? null : encodeMsgReply(req.header.requestId, body);
      }
    } catch (e) {
      this.logger.warn({ err: String(e), connectionId: conn.id }, "embedded-mongo: unreadable message, closing connection");
      conn.socket.destroy();
      return;
    }
    if (!this.wal) {
      if (reply) conn.socket.write(reply);
      return;
    }
    const durable = this.wal.durable();
    const requestId = raw.readInt32LE(4);
    conn.tail = conn.tail
      .then(() => durable)
      .then(
        () => {
          if (reply && !conn.socket.destroyed) conn.socket.write(reply);
        },
        (err: Error) => {
          const failure = new CommandError(1, "InternalError", `write-ahead log failed: ${err.message}`).toReply();
          if (reply && !conn.socket.destroyed) conn.socket.write(encodeMsgReply(requestId, failure));
        },
      );
  }

  private execute(cmd: Doc, db: string, conn: Connection): Doc {
    const name = Object.keys(cmd)[0] ?? "";
    if ("txnNumber" in cmd || cmd.startTransaction === true)
      return new CommandError(20, "IllegalOperation", "Transaction numbers are only allowed on a replica set member or mongos").toReply();
    const handler = COMMANDS[name];
    if (!handler) return new CommandError(59, "CommandNotFound", `no such command: '${name}'`).toReply();
    const ctx: CommandContext = {
      store: this.store,
      cursors: this.cursors,
      connectionId: conn.id,
      startedAt: this.startedAt,
      connections: () => this.sockets.size,
    };
    try {
      return handler(cmd, db, ctx);
    } catch (e) {
      const err = toCommandError(e);
      // Expected failures are CommandErrors; anything else (mingo, a bug) is worth a log line.
      if (!(e instanceof CommandError)) this.logger.warn({ command: name, err: err.message }, "embedded-mongo: command failed");
      return err.toReply();
    }
  }

  /** Like MongoDB's TTL monitor: removes documents whose indexed date (earliest, for arrays) + expireAfterSeconds has passed. */
  expireTtl(now = Date.now()): number {
    let removed = 0;
    for (const colls of this.store.dbs.values()) {
      for (const coll of colls.values()) {
        for (const ix of coll.indexes) {
          const ttl = ix.spec.expireAfterSeconds;
          if (typeof ttl !== "number" || ix.fields.length !== 1) continue;
          const expired: unknown[] = [];
          for (const doc of coll.docs()) {
            if (!ix.tuples(doc)) continue;
            const dates = pathValues(doc, ix.fields[0]).filter((v): v is Date => v instanceof Date);
            if (dates.length && Math.min(...dates.map((d) => d.getTime())) + ttl * 1000 <= now) expired.push(doc._id);
          }
          for (const id of expired) if (coll.remove(id)) removed++;
        }
      }
    }
    if (removed) this.logger.info({ removed }, "embedded-mongo: TTL monitor removed expired documents");
    return removed;
  }
}
