import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  FetchAbortedError,
  FetchNetworkError,
  FetchTimeoutError,
  TooLargeError,
  TooManyRedirectsError,
  UnsupportedContentTypeError,
} from "../../shared/net/errors";
import { PLATFORM_USER_AGENT, safeFetch, type SafeFetchOptions } from "../../shared/net/safe-fetch";
import { freePort } from "../support/ports";
import { waitFor } from "../support/wait";

const policy = { allowLoopback: true };

interface Seen {
  url: string;
  method: string;
  headers: http.IncomingHttpHeaders;
}

/** A test server whose routes exercise every bound; it records requests, connections and abandoned bodies. */
async function startServer() {
  const seen: Seen[] = [];
  const abandoned: string[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push({ url: req.url ?? "", method: req.method ?? "", headers: req.headers });
    res.on("close", () => {
      if (!res.writableFinished) abandoned.push(url.pathname);
    });
    const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
    if (chain) {
      const left = Number(chain[1]);
      if (left === 0) res.writeHead(200, { "content-type": "text/plain" }).end("end of chain");
      else res.writeHead(302, { location: `/chain/${left - 1}` }).end("moved");
      return;
    }
    switch (url.pathname) {
      case "/page":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<p>hello</p>");
        return;
      case "/small-pdf": // headers and the whole body in one go: the body has arrived when it is refused
        res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4 tiny");
        return;
      case "/echo":
        req.resume();
        req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end(`${req.method} ${req.headers.authorization ?? "-"}`));
        return;
      case "/see-other":
        req.resume();
        res.writeHead(303, { location: "/echo" }).end();
        return;
      case "/cross-origin":
        res.writeHead(307, { location: `${url.searchParams.get("to")}/echo` }).end();
        return;
      case "/no-headers": // never answers
        return;
      case "/slow-body":
        res.writeHead(200, { "content-type": "text/html" });
        res.write("<p>partial");
        return;
      case "/declared-big":
        res.writeHead(200, { "content-type": "text/plain", "content-length": String(1024 * 1024) });
        res.write(Buffer.alloc(1024, "a"));
        return;
      case "/chunked-big":
        // 128 KiB and then nothing: a client that did not stop at its limit would time out instead.
        res.writeHead(200, { "content-type": "text/plain" });
        for (let i = 0; i < 8; i++) res.write(Buffer.alloc(16 * 1024, "b"));
        return;
      case "/pdf":
        res.writeHead(200, { "content-type": "application/pdf", "content-length": String(512 * 1024) });
        res.write(Buffer.alloc(1024));
        return;
      default:
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    abandoned,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let srv: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  srv = await startServer();
  other = await startServer();
});
afterAll(async () => {
  await srv.close();
  await other.close();
});
beforeEach(() => {
  srv.seen.length = 0;
  srv.abandoned.length = 0;
});

const fetchFrom = (path: string, opts: Partial<SafeFetchOptions> = {}) => safeFetch(`${srv.base}${path}`, { policy, ...opts });
const failure = (p: Promise<unknown>) => p.then(() => new Error("resolved"), (e: unknown) => e);

describe("safeFetch", () => {
  it("returns status, headers, media type and body, with the platform's user agent", async () => {
    const res = await fetchFrom("/page#fragment");
    expect(res).toMatchObject({ status: 200, url: `${srv.base}/page`, redirects: [], contentType: "text/html", truncated: false });
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body.toString()).toBe("<p>hello</p>");
    expect(srv.seen[0]).toMatchObject({ url: "/page", method: "GET" });
    expect(srv.seen[0].headers["user-agent"]).toBe(PLATFORM_USER_AGENT);
  });

  it("returns non-2xx answers instead of throwing", async () => {
    await expect(fetchFrom("/missing")).resolves.toMatchObject({ status: 404 });
  });

  it("reuses connections across requests", async () => {
    const before = srv.connections();
    for (let i = 0; i < 3; i++) await fetchFrom("/page");
    expect(srv.connections() - before).toBeLessThanOrEqual(1);
  });

  describe("timeout", () => {
    it("applies when no headers arrive", async () => {
      const started = Date.now();
      const err = await failure(fetchFrom("/no-headers", { timeoutMs: 200 }));
      expect(err).toBeInstanceOf(FetchTimeoutError);
      expect(err).toMatchObject({ code: "ETIMEDOUT", url: `${srv.base}/no-headers` });
      expect(Date.now() - started).toBeLessThan(5000);
    });

    it("covers the body, not only the headers", async () => {
      await expect(fetchFrom("/slow-body", { timeoutMs: 200 })).rejects.toBeInstanceOf(FetchTimeoutError);
    });
  });

  describe("size limit", () => {
    it("refuses a declared length over the limit without reading it", async () => {
      const err = await failure(fetchFrom("/declared-big", { maxBytes: 64 * 1024, timeoutMs: 5000 }));
      expect(err).toBeInstanceOf(TooLargeError);
      expect(err).toMatchObject({ code: "ETOOLARGE", maxBytes: 64 * 1024 });
      await waitFor(() => (srv.abandoned.includes("/declared-big") ? true : undefined), "the server to see the body abandoned");
    });

    it("stops reading a chunked body at the limit", async () => {
      await expect(fetchFrom("/chunked-big", { maxBytes: 64 * 1024, timeoutMs: 10_000 })).rejects.toBeInstanceOf(TooLargeError);
      await waitFor(() => (srv.abandoned.includes("/chunked-big") ? true : undefined), "the server to see the body abandoned");
    });

    it("can return the first maxBytes marked as truncated", async () => {
      const res = await fetchFrom("/chunked-big", { maxBytes: 40_000, onOversize: "truncate", timeoutMs: 10_000 });
      expect(res.truncated).toBe(true);
      expect(res.body.length).toBe(40_000);
    });
  });

  describe("content-type filter", () => {
    it("refuses an unaccepted type on its headers, without downloading the body", async () => {
      const err = await failure(fetchFrom("/pdf", { accept: ["text/html", "text/plain"], timeoutMs: 10_000 }));
      expect(err).toBeInstanceOf(UnsupportedContentTypeError);
      expect(err).toMatchObject({ code: "EUNSUPPORTEDCONTENTTYPE", contentType: "application/pdf" });
      await waitFor(() => (srv.abandoned.includes("/pdf") ? true : undefined), "the server to see the body abandoned");
      expect(srv.seen[0].headers.accept).toBe("text/html, text/plain");
    });

    it("accepts listed types whatever their parameters", async () => {
      await expect(fetchFrom("/page", { accept: ["text/html"] })).resolves.toMatchObject({ contentType: "text/html" });
    });
  });

  describe("redirects", () => {
    it("follows up to five by default, reporting each hop", async () => {
      const res = await fetchFrom("/chain/5");
      expect(res.url).toBe(`${srv.base}/chain/0`);
      expect(res.redirects).toEqual([5, 4, 3, 2, 1].map((n) => `${srv.base}/chain/${n}`));
      expect(res.body.toString()).toBe("end of chain");
    });

    it("refuses a chain longer than maxRedirects without requesting past it", async () => {
      const err = await failure(fetchFrom("/chain/5", { maxRedirects: 2 }));
      expect(err).toBeInstanceOf(TooManyRedirectsError);
      expect(srv.seen.map((s) => s.url)).toEqual(["/chain/5", "/chain/4", "/chain/3"]);
    });

    it("with maxRedirects 0 returns the 3xx as it is", async () => {
      const res = await fetchFrom("/chain/1", { maxRedirects: 0, accept: ["text/html"] });
      expect(res).toMatchObject({ status: 302, redirects: [], url: `${srv.base}/chain/1` });
      expect(res.headers.location).toBe("/chain/0");
      expect(srv.seen.map((s) => s.url)).toEqual(["/chain/1"]);
    });

    it("turns a POST into a GET on 303", async () => {
      const res = await fetchFrom("/see-other", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
      expect(res.body.toString()).toBe("GET -");
    });

    it("does not forward credentials to another origin", async () => {
      const same = await fetchFrom("/echo", { headers: { Authorization: "Bearer s3cret" } });
      expect(same.body.toString()).toBe("GET Bearer s3cret");
      const res = await fetchFrom(`/cross-origin?to=${encodeURIComponent(other.base)}`, { headers: { Authorization: "Bearer s3cret" } });
      expect(res.url).toBe(`${other.base}/echo`);
      expect(res.body.toString()).toBe("GET -");
    });
  });

  it("refuses a small body that has already arrived without an uncaught error", async () => {
    const uncaught: unknown[] = [];
    const record = (err: unknown) => uncaught.push(err);
    process.on("uncaughtException", record);
    try {
      for (let i = 0; i < 5; i++) {
        await expect(fetchFrom("/small-pdf", { accept: ["text/html"] })).rejects.toBeInstanceOf(UnsupportedContentTypeError);
      }
      // The stream's abort error, when unhandled, surfaces a few ticks after the refusal.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
    } finally {
      process.off("uncaughtException", record);
    }
  });

  it("wraps network failures in a message safe to show", async () => {
    const port = await freePort();
    const err = await failure(safeFetch(`http://127.0.0.1:${port}/`, { policy }));
    expect(err).toBeInstanceOf(FetchNetworkError);
    expect(err).toMatchObject({ code: "EFETCHFAILED", message: `http://127.0.0.1:${port}/: connection refused` });
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const pending = failure(fetchFrom("/no-headers", { signal: controller.signal, timeoutMs: 10_000 }));
    await waitFor(() => (srv.seen.length > 0 ? true : undefined), "the request to arrive");
    controller.abort();
    expect(await pending).toBeInstanceOf(FetchAbortedError);
  });
});
