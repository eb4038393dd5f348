import { MongoClient } from "mongodb";
import type { ServiceBroker } from "moleculer";
import { startBrokerClient } from "./broker-client";
import { startNats, type NatsServer } from "./nats";
import { startTestMongo, type TestMongo } from "./mongo";
import { spawnPlatform, type PlatformProcess } from "./platform";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

const BACKENDS = ["auth", "billing", "articles", "brand-knowledge", "pipeline", "webhooks"];

/** Every service but the gateway and `excluded`, as a SERVICES value: the rest of a cluster in one process. */
export function backendsExcept(...excluded: string[]): string {
  return BACKENDS.filter((s) => !excluded.includes(s)).join(",");
}

export interface Cluster {
  nats: NatsServer;
  mongo: TestMongo;
  env: Record<string, string>;
  /** Starts one more process running `services` on the shared NATS and database. */
  spawn(services: string, extraEnv?: Record<string, string>, nodeArgs?: string[]): Promise<PlatformProcess>;
  /** A broker on the cluster's NATS (a test's own node, for calling actions); closed by `stop`. */
  broker(): Promise<ServiceBroker>;
  /** A driver connection to the cluster's database; closed by `stop`. */
  mongoClient(): Promise<MongoClient>;
  /** Closes the test's broker and database connection, then stops every process, the database and NATS. */
  stop(): Promise<void>;
}

/** Separate service processes over a real nats-server, sharing one database server. */
export async function startCluster(extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const nats = await startNats();
  const mongo = await startTestMongo();
  const env = { NATS_URL: nats.url, MONGO_URL: mongo.url, MONGO_DB_PREFIX: mongo.prefix, ADMIN_TOKEN, ...extraEnv };
  const processes: PlatformProcess[] = [];
  let broker: Promise<ServiceBroker> | undefined;
  let client: Promise<MongoClient> | undefined;
  return {
    nats,
    mongo,
    env,
    async spawn(services, more = {}, nodeArgs) {
      const p = await spawnPlatform({ env: { ...env, SERVICES: services, ...more }, nodeArgs });
      processes.push(p);
      return p;
    },
    broker: () => (broker ??= startBrokerClient(nats.url)),
    mongoClient: () => (client ??= MongoClient.connect(mongo.url)),
    async stop() {
      await Promise.all([broker?.then((b) => b.stop()), client?.then((c) => c.close())]);
      if (process.env.DEBUG_CLUSTER) for (const p of processes) process.stdout.write(`--- ${p.url}\n${p.output().split("\n").filter((l) => process.env.DEBUG_CLUSTER === "all" || !l.includes('"level":30')).join("\n").slice(-3000)}\n`);
      await Promise.all(processes.map((p) => p.stop()));
      await mongo.stop();
      await nats.stop();
    },
  };
}
