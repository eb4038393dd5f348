import net from "node:net";
import { spawnPlatform, tempDir } from "../test/support/platform";
import { cpuMicros } from "./cpu";

/**
 * What an unauthenticated request with a large body costs the gateway (docs/benchmarks.md#unauthenticated-bodies):
 * the CPU of the one process running every service while a client without credentials sends
 * `POST /v1/articles` with a body of `BODY_MB` MiB (Content-Length, then chunked), against a normal
 * refusal (a `GET` without credentials). Run: `node dist/bench/unauthenticated-body.js [MiB]`.
 */

const CHUNK = Buffer.alloc(1 << 20, 0x20);

interface Sent {
  status: string;
  connection: string | undefined;
  bytesSent: number;
  ms: number;
  cpuMs: number;
}

/** Sends the head, then writes body bytes as fast as the socket takes them until all are sent or the server closes. */
function send(baseUrl: string, head: string, bodyBytes: number, chunked: boolean, pid: number): Promise<Sent> {
  const { hostname, port } = new URL(baseUrl);
  const cpu0 = cpuMicros(pid);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = "";
    let sent = 0;
    let closed = false;
    const finish = () => {
      if (closed) return;
      closed = true;
      // Give the server a moment to finish what it does with bytes already in its buffers.
      setTimeout(() => {
        const status = /HTTP\/1\.1 (\d{3})/g;
        const statuses = [...answer.matchAll(status)].map((m) => m[1]).join(",");
        resolve({ status: statuses, connection: /\r\nconnection: ([^\r]+)/i.exec(answer)?.[1], bytesSent: sent, ms: Date.now() - t0, cpuMs: (cpuMicros(pid) - cpu0) / 1000 });
      }, 200);
    };
    socket.on("data", (c: Buffer) => (answer += c.toString("latin1")));
    socket.on("error", finish);
    socket.on("close", finish);
    socket.on("connect", () => {
      socket.write(head);
      const pump = () => {
        while (!closed && sent < bodyBytes) {
          const n = Math.min(CHUNK.length, bodyBytes - sent);
          const piece = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), CHUNK.subarray(0, n), Buffer.from("\r\n")]) : CHUNK.subarray(0, n);
          sent += n;
          if (!socket.write(piece)) return void socket.once("drain", pump);
        }
        if (!closed && sent >= bodyBytes) {
          if (chunked) socket.write("0\r\n\r\n");
          // The whole body is out: wait for the answer, then close.
          setTimeout(() => socket.end(), 2000);
        }
      };
      pump();
    });
  });
}

export async function benchUnauthenticatedBody(megabytes = 1024): Promise<Record<string, unknown>> {
  const p = await spawnPlatform({ env: { DATA_DIR: tempDir("bench-unauth-body"), EMBEDDED_MONGO_IN_MEMORY: "true", LOG_LEVEL: "warn" } });
  const pid = p.child.pid!;
  const bytes = megabytes * CHUNK.length;
  try {
    const host = `host: ${new URL(p.url).host}\r\n`;
    const refusal = await send(p.url, `GET /v1/usage HTTP/1.1\r\n${host}\r\n`, 0, false, pid);
    const withLength = await send(p.url, `POST /v1/articles HTTP/1.1\r\n${host}content-type: application/json\r\ncontent-length: ${bytes}\r\n\r\n`, bytes, false, pid);
    const withContinue = await send(
      p.url,
      `POST /v1/articles HTTP/1.1\r\n${host}content-type: application/json\r\ncontent-length: ${bytes}\r\nexpect: 100-continue\r\n\r\n`,
      bytes,
      false,
      pid,
    );
    const chunked = await send(p.url, `POST /v1/articles HTTP/1.1\r\n${host}content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`, bytes, true, pid);
    return { body_mib: megabytes, refusal_without_body: refusal, content_length: withLength, expect_continue: withContinue, chunked };
  } finally {
    await p.stop();
  }
}

if (require.main === module) {
  benchUnauthenticatedBody(Number(process.argv[2] ?? 1024)).then(
    (r) => process.stdout.write(`${JSON.stringify(r, null, 2)}\n`),
    (err) => {
      process.stderr.write(`${(err as Error).stack}\n`);
      process.exit(1);
    },
  );
}
