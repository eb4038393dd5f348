import net from "node:net";
import { ADMIN_TOKEN } from "../support/cluster";
import { request } from "../support/http";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";

/**
 * Slow clients (docs/failure-semantics.md#http-edge): sockets that send nothing, trickle their
 * headers or body, or sit idle on keep-alive are closed by the server, and one client cannot hold
 * more than its share of connections, while ordinary requests keep being served.
 */
describe("slow clients", () => {
  let platform: PlatformProcess;
  const CAP = 40;
  beforeAll(async () => {
    platform = await spawnPlatform({
      env: {
        ADMIN_TOKEN,
        DATA_DIR: tempDir("e2e-slow-clients"),
        EMBEDDED_MONGO_IN_MEMORY: "true",
        HTTP_HEADERS_TIMEOUT_MS: "1000",
        HTTP_REQUEST_TIMEOUT_MS: "2000",
        HTTP_KEEP_ALIVE_TIMEOUT_MS: "1000",
        HTTP_MAX_CONNECTIONS_PER_CLIENT: String(CAP),
      },
    });
  });
  afterAll(() => platform?.stop());

  interface Probe {
    socket: net.Socket;
    closed: boolean;
    received: string;
  }
  function open(): Promise<Probe> {
    const { port } = new URL(platform.url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      const probe: Probe = { socket, closed: false, received: "" };
      socket.on("data", (c: Buffer) => (probe.received += c.toString()));
      socket.on("close", () => (probe.closed = true));
      socket.on("error", () => undefined);
      socket.once("connect", () => resolve(probe));
      socket.once("error", reject);
    });
  }
  const allClosed = (probes: Probe[], what: string) => waitFor(() => (probes.every((p) => p.closed) ? true : undefined), what, 15000, 50);

  it("closes connections that send nothing, and keeps serving others meanwhile", async () => {
    const idle = await Promise.all(Array.from({ length: 30 }, () => open()));
    const served = await request(platform.url, "/healthz");
    expect(served.status).toBe(200);
    await allClosed(idle, "idle connections to be closed");
  });

  it("closes a connection whose headers trickle in, and one whose body does", async () => {
    const headers = await open();
    headers.socket.write("GET /v1/usage HTTP/1.1\r\nhost: x\r\n");
    const drip1 = setInterval(() => !headers.closed && headers.socket.write("x-slow: 1\r\n"), 200);
    const body = await open();
    body.socket.write(`POST /admin/orgs HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"name":"`);
    const drip2 = setInterval(() => !body.closed && body.socket.write("a"), 200);
    try {
      await allClosed([headers, body], "trickling connections to be closed");
    } finally {
      clearInterval(drip1);
      clearInterval(drip2);
    }
    expect(headers.received).toMatch(/^HTTP\/1\.1 408/);
    expect(body.received).toMatch(/^HTTP\/1\.1 (408|400)/);
  });

  it("closes an idle keep-alive connection after its answer", async () => {
    const kept = await open();
    kept.socket.write("GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n");
    await waitFor(() => (kept.received.includes("\r\n\r\n") ? true : undefined), "the answer");
    expect(kept.received).toMatch(/^HTTP\/1\.1 200/);
    expect(kept.closed).toBe(false);
    await allClosed([kept], "the idle keep-alive connection to be closed");
  });

  it("answers 429 to the connections one client opens beyond its cap", async () => {
    const held = await Promise.all(Array.from({ length: CAP + 5 }, () => open()));
    await waitFor(() => (held.filter((p) => p.closed).length >= 5 ? true : undefined), "the connections over the cap to be refused");
    const refused = held.filter((p) => p.closed);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    for (const p of refused) expect(p.received).toMatch(/^HTTP\/1\.1 429[\s\S]*"rate_limit_exceeded"/);
    await allClosed(held, "the held connections to time out");
    expect((await request(platform.url, "/healthz")).status).toBe(200);
  });

  describe("authentication before the body", () => {
    const statuses = (p: Probe) => [...p.received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    /** Sends `head`, then body bytes for as long as the socket takes them, until it is closed; counts what was sent. */
    async function sendBody(head: string, chunked = false): Promise<Probe & { sent: number }> {
      const p = Object.assign(await open(), { sent: 0 });
      p.socket.write(head);
      const piece = Buffer.alloc(64 * 1024, 0x20);
      const framed = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]) : piece;
      const pump = () => {
        while (!p.closed && p.sent < 1 << 30) {
          p.sent += piece.length;
          if (!p.socket.write(framed)) return void p.socket.once("drain", pump);
        }
      };
      pump();
      await allClosed([p], "the refused connection to be closed");
      return p;
    }

    it("refuses a large unauthenticated body at once, with connection: close, without reading it or sending 100 Continue", async () => {
      const gb = 1 << 30;
      for (const head of [
        `POST /v1/articles HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${gb}\r\n\r\n`,
        `POST /v1/articles HTTP/1.1\r\nhost: x\r\nauthorization: Bearer svc_test_nope\r\ncontent-type: application/json\r\ncontent-length: ${gb}\r\nexpect: 100-continue\r\n\r\n`,
        `POST /admin/orgs HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
      ]) {
        const p = await sendBody(head, head.includes("chunked"));
        expect(statuses(p)).toEqual(["401"]);
        expect(p.received).toMatch(/\r\nconnection: close\r\n/i);
        // The server stopped reading: what was sent is what fits in the sockets' buffers, not the gigabyte.
        expect(p.sent).toBeLessThan(64 * 1024 * 1024);
      }
    });

    it("answers a slow unauthenticated body once, at once, and closes", async () => {
      const slow = await open();
      const started = Date.now();
      slow.socket.write(`POST /v1/articles HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"topic":"`);
      const drip = setInterval(() => !slow.closed && slow.socket.write("a"), 100);
      try {
        await allClosed([slow], "the slow unauthenticated connection to be closed");
      } finally {
        clearInterval(drip);
      }
      expect(statuses(slow)).toEqual(["401"]);
      // Well before the 2 s request timeout, which would have added a 408.
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it("refuses a declared or streamed body over the limit before reading it, once authenticated", async () => {
      const declared = await sendBody(`POST /admin/orgs HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: ${1 << 30}\r\nexpect: 100-continue\r\n\r\n`);
      expect(statuses(declared)).toEqual(["413"]);
      expect(declared.sent).toBeLessThan(64 * 1024 * 1024);
      const streamed = await sendBody(`POST /admin/orgs HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`, true);
      expect(statuses(streamed)).toEqual(["413"]);
      expect(streamed.sent).toBeLessThan(64 * 1024 * 1024);
    });

    it("sends 100 Continue to an authenticated request whose body is read", async () => {
      const p = await open();
      const body = JSON.stringify({ name: "Continued" });
      p.socket.write(`POST /admin/orgs HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${ADMIN_TOKEN}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nexpect: 100-continue\r\nconnection: close\r\n\r\n`);
      await waitFor(() => (/HTTP\/1\.1 100/.test(p.received) ? true : undefined), "100 Continue");
      p.socket.write(body);
      await allClosed([p], "the answer");
      expect(statuses(p)).toEqual(["100", "201"]);
    });

    it("answers 401 without valid credentials on unknown routes, wrong methods and broken paths under /v1 and /admin", async () => {
      for (const [method, path, authorization] of [
        ["GET", "/v1/nonexistent", undefined],
        ["DELETE", "/v1/articles", undefined],
        ["GET", "/v1/jobs/%zz", "Bearer not-a-key"],
        ["GET", "/admin/nothing", "Bearer not-the-token"],
      ] as const) {
        const r = await request(platform.url, path, { method, headers: authorization ? { authorization } : {} });
        expect({ method, path, status: r.status }).toEqual({ method, path, status: 401 });
        expect(r.headers.get("connection")).toBe("close");
      }
      const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
      expect((await request(platform.url, "/admin/nothing", { headers: admin })).status).toBe(404);
      expect((await request(platform.url, "/admin/orgs", { method: "DELETE", headers: admin })).status).toBe(405);
      expect((await request(platform.url, "/v1/openapi.json")).status).toBe(200);
    });
  });
});
