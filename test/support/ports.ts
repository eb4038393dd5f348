import fs from "node:fs";
import net from "node:net";

/**
 * The kernel's ephemeral range: where a `listen(0)` (the embedded database's, nats-server's, any client
 * socket's) gets its port. A port taken from it and released, then handed to a process, can be given by the
 * kernel to another `listen(0)` before that process binds it: a test's platform once found its HTTP port taken
 * by its own embedded database (the readiness probe's "GET" read as a MongoDB message length of 542,393,671).
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // Not Linux: the IANA dynamic range.
  }
  return [49152, 65535];
}

/** Ports below the ephemeral range tests may hand out: never chosen by the kernel for a `listen(0)`. */
const FLOOR = 20000;
const given = new Set<number>();

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    // Every interface: a process told to bind 0.0.0.0 (BIND_HOST) must find it free too.
    server.listen(port, "0.0.0.0", () => server.close(() => resolve(true)));
  });
}

/** A TCP port free a moment ago, outside the kernel's ephemeral range, and not handed out before by this process. */
export async function freePort(): Promise<number> {
  const [low, high] = ephemeralRange();
  // Below the ephemeral range when there is room (Linux: 20000–32767), else above it, else the kernel's choice.
  const [from, to] = low - FLOOR > 1000 ? [FLOOR, low - 1] : high < 64535 ? [high + 1, 65535] : [0, -1];
  if (to < from) return kernelsChoice();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (given.has(port) || !(await isFree(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free port found in ${from}–${to}`);
}

/** A port the kernel picks from its ephemeral range (the race above remains possible). */
function kernelsChoice(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
