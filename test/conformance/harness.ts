/**
 * Runs the same conformance cases against the embedded server and, when
 * MONGO_URL is set, against that real MongoDB. Each run uses its own database
 * and drops it afterwards.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Db, MongoClient, ObjectId } from "mongodb";
import { startEmbeddedMongo } from "../../shared/embedded-mongo";

export interface Target {
  name: string;
  embedded: boolean;
  /** Start (or reach) the server; returns its URL and how to stop it. */
  start(opts?: { ttlMonitorIntervalMs?: number }): Promise<{ url: string; stop(): Promise<void> }>;
}

const embedded: Target = {
  name: "embedded (in memory)",
  embedded: true,
  async start(opts) {
    const server = await startEmbeddedMongo({ port: 0, ...opts });
    return { url: server.url, stop: () => server.close() };
  },
};

/** The same server writing through its write-ahead log, so every command's journaling is exercised too. */
const embeddedOnDisk: Target = {
  name: "embedded (on disk)",
  embedded: true,
  async start(opts) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-conf-"));
    const server = await startEmbeddedMongo({ port: 0, dataDir, ...opts });
    return {
      url: server.url,
      stop: async () => {
        await server.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const real: Target[] = process.env.MONGO_URL
  ? [{ name: "real MongoDB", embedded: false, start: async () => ({ url: process.env.MONGO_URL!, stop: async () => undefined }) }]
  : [];

export const targets: Target[] = [embedded, embeddedOnDisk, ...real];

export interface Session {
  client: MongoClient;
  db: Db;
  url: string;
}

/** Wires beforeAll/afterAll for one target and returns a live session object filled in by beforeAll. */
export function useTarget(target: Target, opts?: { ttlMonitorIntervalMs?: number }): Session {
  const session = {} as Session;
  let stop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const started = await target.start(opts);
    stop = started.stop;
    session.url = started.url;
    session.client = await MongoClient.connect(started.url, { serverSelectionTimeoutMS: 5000 });
    session.db = session.client.db(`conformance_${randomBytes(6).toString("hex")}`);
  });
  afterAll(async () => {
    await session.db?.dropDatabase().catch(() => undefined);
    await session.client?.close();
    await stop();
  });
  return session;
}

/** Loosely typed documents: tests use numeric and string _ids freely. */
export interface Loose {
  _id?: number | string | ObjectId;
  [key: string]: any;
}

/** A fresh collection name per test. */
let counter = 0;
export const collName = (prefix = "c") => `${prefix}_${++counter}`;

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(p: Promise<unknown>): Promise<Error & { code?: number; [k: string]: unknown }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: number; [k: string]: unknown };
  }
  throw new Error("expected the operation to fail");
}
