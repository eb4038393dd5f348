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
});
