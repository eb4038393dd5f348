import type { ServiceBroker } from "moleculer";
import { ALL_SERVICES } from "../../shared/config";
import { createOrgWithKey } from "./admin";
import { ADMIN_TOKEN, startCluster, type Cluster } from "./cluster";
import { client } from "./http";
import type { PlatformProcess } from "./platform";

/** A cluster with every service in one process, and the test's own broker on its NATS. */
export interface PlatformCluster {
  cluster: Cluster;
  platform: PlatformProcess;
  broker: ServiceBroker;
  /** A new organization with one API key, and a client calling the platform with that key. */
  newOrg(credits?: number): Promise<{ orgId: string; key: string; keyId: string; api: ReturnType<typeof client> }>;
}

/** Starts the cluster, one process running every service, and the broker; `cluster.stop()` ends all of it. */
export async function startPlatformCluster(extraEnv: Record<string, string> = {}): Promise<PlatformCluster> {
  const cluster = await startCluster(extraEnv);
  try {
    const platform = await cluster.spawn(ALL_SERVICES.join(","));
    const broker = await cluster.broker();
    return {
      cluster,
      platform,
      broker,
      async newOrg(credits = 0) {
        const org = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits });
        return { ...org, api: client(platform.url, org.key) };
      },
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
