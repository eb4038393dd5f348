import { ServiceBroker } from "moleculer";
import ApiGateway from "moleculer-web";

/**
 * The calibration path: a moleculer-web gateway calling an action over NATS that answers a fixed
 * JSON body, with no authentication and no database. Run as `node empty-path.js gateway|echo`.
 */
async function main(): Promise<void> {
  const role = process.argv[2];
  const body = JSON.parse(process.env.BARE_BODY ?? "{}");
  const broker = new ServiceBroker({
    namespace: "bench-empty",
    nodeID: `empty-${role}-${process.pid}`,
    transporter: { type: "NATS", options: { url: process.env.NATS_URL } },
    logger: false,
  });
  if (role === "echo") broker.createService({ name: "echo", actions: { get: () => body } });
  else {
    broker.createService({
      name: "gateway",
      mixins: [ApiGateway],
      settings: { port: Number(process.env.PORT), ip: "127.0.0.1", routes: [{ path: "/", aliases: { "GET /echo": "echo.get" }, bodyParsers: false }] },
    });
  }
  await broker.start();
  if (role !== "echo") await broker.waitForServices(["echo"]);
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  process.on("SIGTERM", () => void broker.stop().then(() => process.exit(0)));
}

void main();
