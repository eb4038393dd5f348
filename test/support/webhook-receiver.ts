import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { waitFor } from "./wait";

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body exactly as received: what the signature covers. */
  rawBody: string;
  receivedAt: number;
}

/** How the receiver answers one request: a status (optionally late), or never. */
export type ReceiverAnswer = { status: number; headers?: Record<string, string>; delayMs?: number } | "hang";

export interface WebhookReceiver {
  url: string;
  /** Every request, in arrival order. */
  requests: ReceivedWebhook[];
  /** Answers for the next requests, in order; after them, the default answer. */
  script(...answers: ReceiverAnswer[]): void;
  setDefault(answer: ReceiverAnswer): void;
  /** Most requests ever being answered at the same time. */
  maxConcurrent(): number;
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A local HTTP receiver on 127.0.0.1 with scripted answers and a log of raw requests. */
export async function startWebhookReceiver(defaultAnswer: ReceiverAnswer = { status: 200 }): Promise<WebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const queue: ReceiverAnswer[] = [];
  let fallback = defaultAnswer;
  let open = 0;
  let peak = 0;

  const server = http.createServer((req, res) => {
    open++;
    peak = Math.max(peak, open);
    res.once("close", () => open--);
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers, rawBody: Buffer.concat(chunks).toString("utf8"), receivedAt: Date.now() });
      const answer = queue.shift() ?? fallback;
      if (answer === "hang") return;
      const reply = () => res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers }).end("ok");
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    script: (...answers) => void queue.push(...answers),
    setDefault: (answer) => void (fallback = answer),
    maxConcurrent: () => peak,
    waitForRequests: (count, timeoutMs = 15000) =>
      waitFor(() => (requests.length >= count ? requests.slice(0, count) : undefined), `${count} webhook requests (have ${requests.length})`, timeoutMs, 20),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies a received request with the Standard Webhooks reference library and returns its parsed body. */
export function verifyWebhook(secret: string, request: ReceivedWebhook): { event: string; data: Record<string, any> } {
  return new Webhook(secret).verify(request.rawBody, request.headers) as { event: string; data: Record<string, any> };
}
