import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MAIN, ROOT } from "./paths";
import { freePort } from "./ports";
import { waitFor } from "./wait";

export interface PlatformProcess {
  /** The gateway's base URL (when this process runs the gateway). */
  url: string;
  healthUrl: string;
  child: ChildProcess;
  output(): string;
  /** Graceful stop (SIGTERM), resolved when the process has exited. */
  stop(): Promise<void>;
  /** `kill -9`, resolved when the process has exited. */
  kill(): Promise<void>;
}

export interface SpawnOptions {
  env?: Record<string, string | undefined>;
  /** Extra node flags, e.g. `--cpu-prof` when profiling a benchmark. */
  nodeArgs?: string[];
  waitReady?: boolean;
}

/** Starts `node dist/main.js` (what `npm start` runs after installing and building) and waits for /readyz. */
export async function spawnPlatform(opts: SpawnOptions = {}): Promise<PlatformProcess> {
  const port = Number(opts.env?.PORT ?? (await freePort()));
  const healthPort = Number(opts.env?.HEALTH_PORT ?? (await freePort()));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? os.tmpdir(),
    NODE_ENV: "test",
    LOG_LEVEL: "info",
    LOG_PRETTY: "false",
  };
  for (const [k, v] of Object.entries({ ...opts.env, PORT: String(port), HEALTH_PORT: String(healthPort) })) {
    if (v !== undefined) env[k] = v;
  }
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), MAIN], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // A platform that dies on its own makes every later request fail with ECONNRESET: say why, once.
  child.once("exit", (code, signal) => {
    if (!stopping) process.stderr.write(`platform ${MAIN} exited unexpectedly (code ${code}, signal ${signal}); its last output:\n${out.slice(-4000)}\n`);
  });

  const proc: PlatformProcess = {
    url: `http://127.0.0.1:${port}`,
    healthUrl: `http://127.0.0.1:${healthPort}`,
    child,
    output: () => out,
    async stop() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
    async kill() {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
  // A gateway is ready when every service it routes to is reachable; other processes when their own parts are.
  const servesApi = env.SERVICES === undefined || env.SERVICES.split(",").includes("gateway");
  if (opts.waitReady !== false) {
    try {
      await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`platform exited with ${child.exitCode}`);
          const res = await fetch(`${servesApi ? proc.url : proc.healthUrl}/readyz`);
          return res.status === 200 ? true : undefined;
        },
        "platform readiness",
        30000,
        100,
      );
    } catch (err) {
      await proc.kill();
      throw new Error(`${(err as Error).message}\n--- platform output ---\n${out.slice(-4000)}`);
    }
  }
  return proc;
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}
