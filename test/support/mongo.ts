import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EMBEDDED_MONGO_CLI as CLI } from "./paths";
import { stopChild } from "./child-process";

export interface TestMongo {
  url: string;
  /** A database prefix unique to this run, so tests against a real MongoDB never collide. */
  prefix: string;
  /** The embedded server's process, when this run started one. */
  pid?: number;
  stop(): Promise<void>;
}

/**
 * The database several test processes share: the real MongoDB at MONGO_URL when set,
 * otherwise the embedded server in its own process, in memory.
 */
export async function startTestMongo(): Promise<TestMongo> {
  const prefix = `t${randomBytes(4).toString("hex")}_`;
  if (process.env.MONGO_URL) return { url: process.env.MONGO_URL, prefix, stop: async () => undefined };
  const child = spawn(process.execPath, [CLI, "--in-memory", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`embedded mongo did not start: ${out}`)), 10000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  });
  return {
    url,
    prefix,
    pid: child.pid,
    stop: () => stopChild(child),
  };
}
