import { spawn, type ChildProcess } from "node:child_process";
import { EMBEDDED_MONGO_CLI } from "./paths";
import { freePort } from "./ports";

/** A server process the chaos suite kills with SIGKILL and starts again on the same port (and data). */
export interface Restartable {
  url: string;
  pid(): number | undefined;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function exited(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function launch(command: string, args: string[], ready: (out: string) => boolean, what: string): Promise<ChildProcess> {
  for (let attempt = 0; ; attempt++) {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const ok = await new Promise<boolean>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`${what} did not start: ${out}`)), 10000);
      const onData = (c: Buffer) => {
        out += c.toString();
        if (ready(out)) {
          clearTimeout(timer);
          resolve(true);
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", () => {
        clearTimeout(timer);
        resolve(false);
      });
      child.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    if (ok) return child;
    // The port of the killed process may not be free yet: try again shortly.
    if (attempt >= 20) throw new Error(`${what} keeps exiting at start`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** A child process started by `launch`, on a fixed address, that can be killed, stopped and started again. */
async function restartable(url: string, launchChild: () => Promise<ChildProcess>): Promise<Restartable> {
  let child: ChildProcess | undefined;
  const start = async () => {
    child = await launchChild();
  };
  await start();
  return {
    url,
    pid: () => child?.pid,
    start,
    async kill() {
      child?.kill("SIGKILL");
      await exited(child);
    },
    async stop() {
      child?.kill("SIGTERM");
      await exited(child);
    },
  };
}

/** nats-server on a fixed loopback port, restartable. */
export async function restartableNats(): Promise<Restartable> {
  const port = await freePort();
  return restartable(`nats://127.0.0.1:${port}`, () => launch("nats-server", ["-a", "127.0.0.1", "-p", String(port)], (o) => o.includes("Server is ready"), "nats-server"));
}

/** The embedded MongoDB-compatible server on a fixed port with its data in `dir` (it survives a kill -9 through its log). */
export async function restartableMongo(dir: string): Promise<Restartable> {
  const port = await freePort();
  return restartable(`mongodb://127.0.0.1:${port}/`, () =>
    launch(process.execPath, [EMBEDDED_MONGO_CLI, "--port", String(port), "--dir", dir], (o) => o.includes('"url"'), "embedded mongo"),
  );
}
