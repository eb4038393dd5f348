import { spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./ports";
import { stopChild } from "./child-process";

export interface NatsServer {
  url: string;
  /** The nats-server process (benchmarks read its CPU time). */
  pid?: number;
  stop(): Promise<void>;
}

/** A real nats-server on a free loopback port (the test command installs Debian's package). */
export async function startNats(): Promise<NatsServer> {
  const port = await freePort();
  const child: ChildProcess = spawn("nats-server", ["-a", "127.0.0.1", "-p", String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => reject(new Error(`nats-server did not start: ${log}`)), 10000);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run nats-server (the test command installs it): ${err.message}`));
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("Server is ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `nats://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () => stopChild(child),
  };
}
