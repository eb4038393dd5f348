import { ServiceBroker } from "moleculer";

/**
 * A bare Moleculer node on the platform's NATS, so a test can call internal actions
 * (for example `brand-knowledge.retrieve`) the way another service would.
 */
export async function startBrokerClient(natsUrl: string): Promise<ServiceBroker> {
  const broker = new ServiceBroker({
    namespace: "article-platform",
    nodeID: `test-client-${process.pid}-${Date.now()}`,
    transporter: { type: "NATS", options: { url: natsUrl } },
    logger: false,
    requestTimeout: 30000,
  });
  await broker.start();
  return broker;
}
