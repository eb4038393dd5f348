/**
 * A MongoDB-compatible server for development and tests (see docs/embedded-mongo.md).
 * Services talk to it through the official driver like to any MongoDB 7 standalone.
 */
import * as fs from "fs";
import * as path from "path";
import { EmbeddedServer } from "./server";
import { Store } from "./store";
import { Wal, WalLogger } from "./wal";

export interface EmbeddedMongoOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 = a random free port. */
  port?: number;
  /** Persist here; undefined = in memory only. */
  dataDir?: string;
  /** How often expired TTL documents are removed; default 60000 like MongoDB. */
  ttlMonitorIntervalMs?: number;
  /** Log size that triggers a snapshot + log truncation; default 64 MiB. */
  compactThresholdBytes?: number;
  logger?: WalLogger;
}

export interface EmbeddedMongo {
  /** mongodb://HOST:PORT/?directConnection=true */
  url: string;
  port: number;
  /** Clean stop: flush the log, close sockets. */
  close(): Promise<void>;
}

const silent: WalLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** One server per data directory: a second one would interleave two logs. */
function lockDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, "LOCK");
  try {
    const holder = Number(fs.readFileSync(lock, "utf8"));
    if (holder && holder !== process.pid) {
      let alive = true;
      try {
        process.kill(holder, 0);
      } catch {
        alive = false;
      }
      if (alive) throw new Error(`embedded-mongo: ${dir} is in use by process ${holder}`);
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  fs.writeFileSync(lock, String(process.pid));
  return () => fs.rmSync(lock, { force: true });
}

export async function startEmbeddedMongo(opts: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = opts.host ?? "127.0.0.1";
  const logger = opts.logger ?? silent;
  const store = new Store();
  const unlock = opts.dataDir ? lockDir(opts.dataDir) : () => undefined;
  let wal: Wal | null = null;
  try {
    if (opts.dataDir) wal = await Wal.open(opts.dataDir, store, logger, opts.compactThresholdBytes ?? 64 * 1024 * 1024);
    const server = new EmbeddedServer(store, wal, logger, opts.ttlMonitorIntervalMs ?? 60_000);
    const port = await server.listen(host, opts.port ?? 0);
    const url = `mongodb://${host}:${port}/?directConnection=true`;
    logger.info({ url, dataDir: opts.dataDir ?? null }, "embedded-mongo: listening");
    let closing: Promise<void> | undefined;
    return {
      url,
      port,
      close: () =>
        (closing ??= (async () => {
          await server.close();
          await wal?.close();
          unlock();
        })()),
    };
  } catch (e) {
    await wal?.close();
    unlock();
    throw e;
  }
}
