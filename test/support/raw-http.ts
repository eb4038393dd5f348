import net from "node:net";

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte (no client-side normalization of the target or
 * headers, unlike fetch), read until the server closes the connection. An event stream (`GET
 * /v1/jobs/{id}/events` of a job still queued) stays open by design: it is answered once its
 * head has arrived, with what body came with it.
 */
export function rawRequest(
  baseUrl: string,
  req: { method: string; target: string; headers?: [string, string][]; body?: string },
  timeoutMs = 10000,
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const body = req.body === undefined ? undefined : Buffer.from(req.body, "utf8");
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `host: ${hostname}:${port}`, "connection: close"];
  for (const [name, value] of req.headers ?? []) lines.push(`${name}: ${value}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms to ${req.method} ${req.target}`));
    }, timeoutMs);
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const received = Buffer.concat(chunks).toString("latin1");
      const end = received.indexOf("\r\n\r\n");
      if (end !== -1 && /^content-type:\s*text\/event-stream/im.test(received.slice(0, end))) socket.destroy();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      const [statusLine, ...headerLines] = (split === -1 ? text : text.slice(0, split)).split("\r\n");
      const m = /^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? "");
      if (!m) return reject(new Error(`no HTTP answer to ${req.method} ${JSON.stringify(req.target)}: ${JSON.stringify(text.slice(0, 200))}`));
      const headers: Record<string, string> = {};
      for (const l of headerLines) {
        const i = l.indexOf(":");
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      let rest = split === -1 ? "" : text.slice(split + 4);
      if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
        let decoded = "";
        for (let at = 0; ; ) {
          const eol = rest.indexOf("\r\n", at);
          const size = eol === -1 ? 0 : parseInt(rest.slice(at, eol), 16);
          if (!size) break;
          decoded += rest.slice(eol + 2, eol + 2 + size);
          at = eol + 2 + size + 2;
        }
        rest = decoded;
      }
      resolve({ status: Number(m[1]), headers, body: rest });
    });
    socket.write(body ? Buffer.concat([head, body]) : head);
  });
}
