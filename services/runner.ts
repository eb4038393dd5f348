import fs from "node:fs/promises";
import path from "node:path";
import type { Server } from "node:http";
import { ServiceBroker } from "moleculer";
import { brokerOptions } from "../moleculer.config";
import { SERVICE_LOADERS } from "./index";
import { useConfig, type Config } from "../shared/config";
import { closeDatabase, configureDatabase } from "../shared/db/client";
import { startEmbeddedMongo, type EmbeddedMongo } from "../shared/embedded-mongo";
import { initLogger, rootLogger } from "../shared/logger";
import { bootstrapDemo, ensureAdminToken, ensureIntegrationsKey, type DemoCredentials } from "../shared/runtime/bootstrap";
import { startHealthServer } from "../shared/runtime/health";

export interface RunningPlatform {
  broker: ServiceBroker;
  config: Config;
  mongoUrl: string;
  /** Set when this start generated the admin token (embedded default only). */
  generatedAdminToken?: { token: string; file: string };
  adminTokenFile?: string;
  demo?: DemoCredentials;
  stop(): Promise<void>;
}

/**
 * The runner: the one module that knows every service (it lives beside them, so `shared/` never imports `services/`).
 * Starts the services named by SERVICES, on NATS or in one process, on MongoDB or the embedded server. */
export async function startPlatform(initial: Config): Promise<RunningPlatform> {
  let cfg = useConfig(initial);
  initLogger({ level: cfg.LOG_LEVEL, pretty: cfg.LOG_PRETTY });
  const log = rootLogger().child({ mod: "runtime" });

  let embedded: EmbeddedMongo | undefined;
  let mongoUrl = cfg.MONGO_URL;
  let adminToken: { token: string; file: string; generated: boolean } | undefined;
  if (!mongoUrl) {
    await fs.mkdir(cfg.dataDir, { recursive: true });
    embedded = await startEmbeddedMongo({
      port: cfg.EMBEDDED_MONGO_PORT,
      dataDir: cfg.EMBEDDED_MONGO_IN_MEMORY ? undefined : path.join(cfg.dataDir, "mongo"),
      logger: log,
    });
    mongoUrl = embedded.url;
    log.info({ url: embedded.url, in_memory: cfg.EMBEDDED_MONGO_IN_MEMORY }, "embedded MongoDB-compatible server started (development and tests only)");
    if (!cfg.ADMIN_TOKEN) {
      adminToken = await ensureAdminToken(cfg.dataDir);
      cfg = useConfig({ ...cfg, ADMIN_TOKEN: adminToken.token });
    }
    if (!cfg.INTEGRATIONS_ENCRYPTION_KEYS) cfg = useConfig({ ...cfg, INTEGRATIONS_ENCRYPTION_KEYS: [await ensureIntegrationsKey(cfg.dataDir)] });
  }
  if (!cfg.ADMIN_TOKEN && cfg.SERVICES.includes("gateway")) log.warn("ADMIN_TOKEN is not set: the /admin API refuses every request");
  configureDatabase({ url: mongoUrl, prefix: cfg.MONGO_DB_PREFIX });

  const broker = new ServiceBroker(brokerOptions(cfg));
  for (const name of cfg.SERVICES) broker.createService(SERVICE_LOADERS[name]());
  await broker.start();

  let demo: DemoCredentials | undefined;
  // A demo organization and its printed key are a development convenience: production starts empty (README#first-start).
  if (embedded && cfg.NODE_ENV !== "production" && cfg.SERVICES.includes("auth") && cfg.SERVICES.includes("billing")) {
    demo = await bootstrapDemo(broker, cfg.dataDir);
  }

  let health: Server | undefined;
  if (cfg.HEALTH_PORT) health = await startHealthServer(broker, cfg.HEALTH_PORT, [], cfg.BIND_HOST);

  return {
    broker,
    config: cfg,
    mongoUrl,
    generatedAdminToken: adminToken?.generated ? { token: adminToken.token, file: adminToken.file } : undefined,
    adminTokenFile: adminToken?.file,
    demo,
    async stop() {
      await new Promise<void>((resolve) => (health ? health.close(() => resolve()) : resolve()));
      await broker.stop();
      await closeDatabase();
      await embedded?.close();
    },
  };
}
