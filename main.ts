import type { Server } from "node:http";
import { ConfigError, loadConfig } from "./shared/config";
import { rootLogger } from "./shared/logger";
import { startPlatform, type RunningPlatform } from "./services/runner";

/**
 * Where the gateway really listens (its server's own address, so PORT=0 shows the port taken), and the
 * base URL to call it with from this machine: a wildcard bind is called on loopback.
 */
function listening(p: RunningPlatform): { bound: string; base: string } {
  const gateway = p.broker.getLocalService("gateway") as unknown as { server?: Server } | undefined;
  const address = gateway?.server?.address();
  const host = address && typeof address === "object" ? address.address : p.config.BIND_HOST;
  const port = address && typeof address === "object" ? address.port : p.config.PORT;
  const wildcard = host === "0.0.0.0" || host === "::";
  const hostForUrl = (h: string) => (h.includes(":") ? `[${h}]` : h);
  const base = `http://${wildcard ? (host === "::" ? "[::1]" : "127.0.0.1") : hostForUrl(host)}:${port}`;
  return { bound: `${hostForUrl(host)}:${port}`, base };
}

/** What a new user needs to see on the embedded default: where the API is and how to call it. */
function printWelcome(p: RunningPlatform): void {
  if (!p.config.SERVICES.includes("gateway")) return;
  const { bound, base } = listening(p);
  const lines = [``, base.includes(bound) ? `Article platform listening on ${base}` : `Article platform listening on ${bound} (every interface); from this machine: ${base}`];
  if (p.generatedAdminToken) lines.push(`Admin token (generated, kept in ${p.generatedAdminToken.file}): ${p.generatedAdminToken.token}`);
  else if (p.adminTokenFile) lines.push(`Admin token: in ${p.adminTokenFile}`);
  if (p.demo) {
    lines.push(
      `Demo organization ${p.demo.org_id} with ${p.demo.credit_balance} credits. Its test API key (shown once):`,
      `  ${p.demo.api_key}`,
      `Try: curl -H "Authorization: Bearer ${p.demo.api_key}" ${base}/v1/usage?days=7`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

async function main(): Promise<void> {
  let cfg;
  try {
    cfg = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const platform = await startPlatform(cfg);
  printWelcome(platform);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    rootLogger().info({ signal }, "shutting down");
    platform.stop().then(
      () => process.exit(0),
      (err) => {
        rootLogger().error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err) => {
  rootLogger().fatal({ err }, "failed to start");
  process.exit(1);
});
