/**
 * Standalone server process:
 *   node dist/shared/embedded-mongo/cli.js --port 0 (--dir PATH | --in-memory) [--ttl-interval-ms N] [--compact-bytes N]
 * Prints one JSON line {"url","port"} once listening; stops cleanly on SIGTERM/SIGINT.
 */
import { startEmbeddedMongo } from "./index";

function parseArgs(argv: string[]): Map<string, string | true> {
  const args = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) throw new Error(`unexpected argument: ${a}`);
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith("--")) {
      args.set(a.slice(2), next);
      i++;
    } else args.set(a.slice(2), true);
  }
  return args;
}

function numberArg(args: Map<string, string | true>, name: string): number | undefined {
  const v = args.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v === true || !Number.isFinite(n) || n < 0) throw new Error(`--${name} needs a non-negative number`);
  return n;
}

const log = (level: string) => (obj: object, msg?: string) => process.stderr.write(JSON.stringify({ level, msg, ...obj }) + "\n");

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dir = args.get("dir");
  if (args.has("in-memory") === (dir !== undefined)) throw new Error("exactly one of --dir PATH or --in-memory is required");
  if (dir === true) throw new Error("--dir needs a path");
  const host = args.get("host");
  const server = await startEmbeddedMongo({
    host: typeof host === "string" ? host : undefined,
    port: numberArg(args, "port") ?? 0,
    dataDir: dir,
    ttlMonitorIntervalMs: numberArg(args, "ttl-interval-ms"),
    compactThresholdBytes: numberArg(args, "compact-bytes"),
    logger: { info: log("info"), warn: log("warn"), error: log("error") },
  });
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      (e) => {
        process.stderr.write(`embedded-mongo: close failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  process.stdout.write(JSON.stringify({ url: server.url, port: server.port }) + "\n");
}

main().catch((e) => {
  process.stderr.write(`embedded-mongo: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
