import { startNats, type NatsServer } from "./nats";
import { startTestMongo, type TestMongo } from "./mongo";
import { spawnPlatform, type PlatformProcess } from "./platform";

export const ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export interface Cluster {
  nats: NatsServer;
  mongo: TestMongo;
  env: Record<string, string>;
  /** Starts one more process running `services` on the shared NATS and database. */
  spawn(services: string, extraEnv?: Record<string, string>): Promise<PlatformProcess>;
  stop(): Promise<void>;
}

/** Separate service processes over a real nats-server, sharing one database server. */
export async function startCluster(extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const nats = await startNats();
  const mongo = await startTestMongo();
  const env = { NATS_URL: nats.url, MONGO_URL: mongo.url, MONGO_DB_PREFIX: mongo.prefix, ADMIN_TOKEN, ...extraEnv };
  const processes: PlatformProcess[] = [];
  return {
    nats,
    mongo,
    env,
    async spawn(services, more = {}) {
      const p = await spawnPlatform({ env: { ...env, SERVICES: services, ...more } });
      processes.push(p);
      return p;
    },
    async stop() {
      await Promise.all(processes.map((p) => p.stop()));
      await mongo.stop();
      await nats.stop();
    },
  };
}
