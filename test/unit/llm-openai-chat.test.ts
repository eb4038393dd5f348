import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { APIConnectionTimeoutError } from "openai";
import { openAICompatibleComplete } from "../../shared/llm/openai-chat";
import { retryingComplete } from "../../shared/llm/retry";

interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
  body: any;
}

/** A local server speaking OpenAI's /v1/chat/completions wire format; `reply` decides each response. */
async function fakeChatServer(reply: (call: number, res: ServerResponse, body: any) => void) {
  const calls: Recorded[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw);
      calls.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, body });
      reply(calls.length, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { baseURL: `http://127.0.0.1:${port}/v1`, calls, close };
}

function completion(res: ServerResponse, model: string, content: string, usage = { prompt_tokens: 812, completion_tokens: 41, total_tokens: 853 }) {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(
    JSON.stringify({
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_735_689_600,
      model,
      choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
      usage,
    }),
  );
}

describe("openAICompatibleComplete", () => {
  it("posts the chat request and returns the answer with its token usage", async () => {
    const server = await fakeChatServer((_, res, body) => completion(res, body.model, "This chunk covers encryption."));
    try {
      const complete = openAICompatibleComplete({ baseURL: server.baseURL, apiKey: "sk-test-123", model: "gpt-4o-mini" });
      const messages = [
        { role: "system" as const, content: "You situate passages." },
        { role: "user" as const, content: "<document>…</document>" },
      ];
      const answer = await complete(messages, { maxTokens: 150 });
      expect(answer).toEqual({ text: "This chunk covers encryption.", tokensIn: 812, tokensOut: 41 });
      expect(server.calls).toHaveLength(1);
      expect(server.calls[0]).toMatchObject({ method: "POST", url: "/v1/chat/completions", authorization: "Bearer sk-test-123" });
      expect(server.calls[0].body).toEqual({ model: "gpt-4o-mini", messages, temperature: 0, max_tokens: 150 });
    } finally {
      await server.close();
    }
  });

  it("makes one attempt per call", async () => {
    const server = await fakeChatServer((_, res) => {
      res.writeHead(503, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "overloaded", type: "server_error", code: null, param: null } }));
    });
    try {
      const complete = openAICompatibleComplete({ baseURL: server.baseURL, apiKey: "k", model: "m" });
      await expect(complete([{ role: "user", content: "hi" }])).rejects.toMatchObject({ status: 503 });
      expect(server.calls).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("retries a server error and counts no usage when the server reports none", async () => {
    const server = await fakeChatServer((call, res, body) => {
      if (call === 1) {
        res.writeHead(503, { "content-type": "application/json", "retry-after-ms": "10" });
        res.end(JSON.stringify({ error: { message: "overloaded", type: "server_error", code: null, param: null } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "x", object: "chat.completion", created: 1, model: body.model, choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }] }));
    });
    try {
      // One attempt per call (the SDK's retries are off); the retries are retry.ts's.
      const complete = retryingComplete(openAICompatibleComplete({ baseURL: server.baseURL, apiKey: "k", model: "llama3.1" }), { maxRetries: 1 });
      await expect(complete([{ role: "user", content: "hi" }])).resolves.toEqual({ text: "ok", tokensIn: 0, tokensOut: 0 });
      expect(server.calls).toHaveLength(2);
      expect(server.calls[1].body).not.toHaveProperty("max_tokens");
    } finally {
      await server.close();
    }
  });

  it("gives up after the timeout when the server does not answer", async () => {
    const server = await fakeChatServer(() => undefined);
    try {
      const complete = openAICompatibleComplete({ baseURL: server.baseURL, apiKey: "k", model: "m", timeoutMs: 200 });
      // The SDK aborts the request; whatever connection error it then reports, one at the deadline is the timeout.
      await expect(complete([{ role: "user", content: "hi" }])).rejects.toBeInstanceOf(APIConnectionTimeoutError);
      expect(server.calls).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
