import http from "node:http";
import type { AddressInfo } from "node:net";
import { multipart, upstreamClient, UpstreamError } from "../../services/articles/publishing/http";
import { retryAfterHeaderMs as retryAfterMs } from "../../shared/net/retry-after";

const readError = (d: any) => (typeof d?.message === "string" ? d.message : undefined);

describe("publishing's upstream client", () => {
  let server: http.Server;
  let url: string;
  let answers: { status: number; headers?: Record<string, string>; body?: string }[];
  let seen: number;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        seen++;
        const a = answers.shift() ?? { status: 200, body: '{"ok":true}' };
        res.writeHead(a.status, { "content-type": "application/json", ...a.headers });
        res.end(a.body ?? "");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => {
    answers = [];
    seen = 0;
  });

  function client(opts: { maxRetries?: number; deadlineMs?: number; now?: () => number } = {}) {
    const waits: number[] = [];
    const send = upstreamClient(
      {
        policy: { allowLoopback: true },
        requestTimeoutMs: 2000,
        deadlineAt: Date.now() + (opts.deadlineMs ?? 60_000),
        maxRetries: opts.maxRetries ?? 3,
        sleep: async (ms) => void waits.push(ms),
      },
      readError,
    );
    return { send, waits };
  }

  it("retries 429 and 5xx, waiting what Retry-After says, then answers the success", async () => {
    answers = [{ status: 429, headers: { "retry-after": "2" } }, { status: 503 }, { status: 201, body: '{"id":7}' }];
    const { send, waits } = client();
    expect((await send({ method: "POST", url, json: {} })).data).toEqual({ id: 7 });
    expect(seen).toBe(3);
    expect(waits[0]).toBe(2000);
    expect(waits[1]).toBeGreaterThan(0);
  });

  it("gives up after the retries with the upstream status and the vendor's reason", async () => {
    answers = [1, 2, 3].map(() => ({ status: 500, body: '{"message":"database is down"}' }));
    const { send } = client({ maxRetries: 2 });
    await expect(send({ method: "GET", url })).rejects.toEqual(new UpstreamError(500, "database is down"));
    expect(seen).toBe(3);
  });

  it("does not retry a 4xx, nor wait past the deadline", async () => {
    answers = [{ status: 422, body: '{"message":"slug taken"}' }];
    await expect(client().send({ method: "GET", url })).rejects.toEqual(new UpstreamError(422, "slug taken"));
    expect(seen).toBe(1);
    answers = [{ status: 503, headers: { "retry-after": "120" }, body: '{"message":"maintenance"}' }];
    await expect(client({ deadlineMs: 5000 }).send({ method: "GET", url })).rejects.toEqual(new UpstreamError(503, "maintenance"));
    expect(seen).toBe(2);
  });

  it("answers allowed statuses as they are", async () => {
    answers = [{ status: 404, body: '{"message":"gone"}' }];
    expect((await client().send({ method: "GET", url, allow: [404] })).status).toBe(404);
  });

  it("goes through the URL guard: a forbidden address is refused before any request, with the guard's reason", async () => {
    const send = upstreamClient({ policy: { allowLoopback: false }, requestTimeoutMs: 2000, deadlineAt: Date.now() + 5000, maxRetries: 3 }, readError);
    const refused = await send({ method: "GET", url }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UpstreamError);
    expect(refused).toMatchObject({ status: null, reason: expect.stringMatching(/^blocked by URL guard: /) });
    expect(seen).toBe(0);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs("3", 0)).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs("soon", 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });

  it("builds multipart bodies a form parser reads back", async () => {
    const { body, contentType } = await multipart({ purpose: "image", file: { bytes: Buffer.from([1, 2, 3]), filename: "a.png", contentType: "image/png" } });
    const form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
    expect(form.get("purpose")).toBe("image");
    const file = form.get("file") as File;
    expect(file.name).toBe("a.png");
    expect(Buffer.from(await file.arrayBuffer())).toEqual(Buffer.from([1, 2, 3]));
  });
});
