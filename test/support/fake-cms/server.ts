import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The plumbing every fake content system shares: a loopback HTTP server, a log of what arrived
 * (the raw Authorization header included, so tests can check what was sent), and scripted
 * failures: the next N requests matching a path answer a given status and vendor error body, or
 * hang past the platform's request timeout.
 */

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: any;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ScriptedFailure {
  /** Matched against `METHOD /path`. */
  match: RegExp;
  times: number;
  reply?: FakeReply;
  /** Never answers (the platform's timeout fires first); the socket is closed at `close()`. */
  hang?: boolean;
}

export interface FakeServer {
  url: string;
  requests: FakeRequest[];
  fail(failure: ScriptedFailure): void;
  close(): Promise<void>;
}

export async function startFakeServer(handle: (req: FakeRequest) => FakeReply | Promise<FakeReply>): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const failures: ScriptedFailure[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const body = Buffer.concat(chunks);
      let json: any;
      if (/json/.test(String(req.headers["content-type"] ?? ""))) {
        try {
          json = JSON.parse(body.toString("utf8"));
        } catch {
          json = undefined;
        }
      }
      const fr: FakeRequest = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, headers: req.headers, body, json };
      requests.push(fr);
      const failure = failures.find((f) => f.times > 0 && f.match.test(`${fr.method} ${fr.path}`));
      let reply: FakeReply;
      if (failure) {
        failure.times--;
        if (failure.hang) {
          hanging.add(res);
          return;
        }
        reply = failure.reply!;
      } else {
        try {
          reply = await handle(fr);
        } catch (err) {
          reply = { status: 500, body: { message: String(err) } };
        }
      }
      const payload = reply.body === undefined ? "" : typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status, { "content-type": "application/json; charset=utf-8", ...reply.headers });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fail: (f) => failures.push(f),
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The Bearer token of a request, or undefined. */
export function bearer(req: FakeRequest): string | undefined {
  const m = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""));
  return m?.[1];
}

/** The parts of a multipart/form-data body, parsed by the platform's own Response (undici). */
export async function formParts(req: FakeRequest): Promise<FormData> {
  return new Response(new Uint8Array(req.body), { headers: { "content-type": String(req.headers["content-type"]) } }).formData();
}

/** The image type its bytes say (PNG, JPEG, GIF, WebP signatures), as a CMS's file check reads them; null for anything else. */
export function imageTypeOf(bytes: Buffer): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.subarray(0, 6).toString("latin1") === "GIF87a" || bytes.subarray(0, 6).toString("latin1") === "GIF89a") return "image/gif";
  if (bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP") return "image/webp";
  return null;
}

/** The image types by file extension, as WordPress's and Ghost's upload checks match name and content. */
export const IMAGE_EXTENSIONS: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };
export const extensionTypeOf = (filename: string): string | undefined => IMAGE_EXTENSIONS[filename.split(".").pop()?.toLowerCase() ?? ""];
