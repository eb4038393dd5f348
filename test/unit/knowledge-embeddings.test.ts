import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { cosine, HashedTfIdfEmbedder, l2Normalize, OpenAIEmbedder } from "../../services/brand-knowledge/knowledge/embeddings";

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("HashedTfIdfEmbedder", () => {
  const embedder = new HashedTfIdfEmbedder();
  const texts = {
    invoices: "Customers can pay invoices by card or bank transfer, and reminders go out before the due date.",
    invoicesParaphrase: "Invoice reminders are sent automatically and customers pay by card.",
    offices: "Our headquarters are in Lisbon, with offices in Dublin and Toronto.",
    hiring: "We are hiring a senior backend engineer for the ledger platform team.",
  };

  it("is deterministic across calls and instances, and JSON-safe", async () => {
    const a = await embedder.embed([texts.invoices]);
    const b = await new HashedTfIdfEmbedder().embed([texts.invoices]);
    expect(a).toEqual(b);
    expect(JSON.parse(JSON.stringify(a.vectors))).toEqual(a.vectors);
    expect(a.tokensIn).toBe(0);
  });

  it("makes L2-normalised vectors of the configured size", async () => {
    const { vectors } = await new HashedTfIdfEmbedder({ dimensions: 512 }).embed(Object.values(texts));
    for (const v of vectors) {
      expect(v).toHaveLength(512);
      expect(norm(v)).toBeCloseTo(1, 10);
    }
    expect(embedder.dimensions).toBe(1024);
    expect(embedder.id).toBe("hashed-tfidf-v1:1024");
    expect(new HashedTfIdfEmbedder({ dimensions: 512 }).id).not.toBe(embedder.id);
  });

  it("places texts that share terms closer than unrelated ones", async () => {
    const [invoices, paraphrase, offices, hiring] = (await embedder.embed(Object.values(texts))).vectors;
    const related = cosine(invoices, paraphrase);
    expect(related).toBeGreaterThan(0.25);
    expect(related).toBeGreaterThan(cosine(invoices, offices) + 0.15);
    expect(related).toBeGreaterThan(cosine(invoices, hiring) + 0.15);
    expect(Math.abs(cosine(offices, hiring))).toBeLessThan(0.15);
  });

  it("matches inflected forms through stemming and character trigrams", async () => {
    const [a, b, c] = (await embedder.embed(["integrations with payroll providers", "integrating payroll provider", "office locations"])).vectors;
    expect(cosine(a, b)).toBeGreaterThan(0.6);
    expect(cosine(a, c)).toBeLessThan(0.2);
  });

  it("gives an empty or stopword-only text the zero vector", async () => {
    const { vectors } = await embedder.embed(["", "the and of"]);
    for (const v of vectors) expect(v.every((x) => x === 0)).toBe(true);
    expect(cosine(vectors[0], vectors[1])).toBe(0);
  });

  it("rejects a vector size too small to hash into", () => {
    expect(() => new HashedTfIdfEmbedder({ dimensions: 8 })).toThrow(/dimensions/);
  });
});

describe("cosine and l2Normalize", () => {
  it("compute the cosine of the angle and unit length", () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 2, 3], [2, 4, 6])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
    const [x, y] = l2Normalize([3, 4]);
    expect(x).toBeCloseTo(0.6, 12);
    expect(y).toBeCloseTo(0.8, 12);
    expect(l2Normalize([0, 0])).toEqual([0, 0]);
  });
});

/** A local server speaking OpenAI's /v1/embeddings wire format, answering items in reverse order to test index handling. */
async function fakeEmbeddingServer(options: { dimensions: number; status?: number }) {
  const requests: { authorization?: string; body: any }[] = [];
  const server = createServer((req, res: ServerResponse) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw);
      requests.push({ authorization: req.headers.authorization, body });
      if (req.url !== "/v1/embeddings" || options.status) {
        res.writeHead(options.status ?? 404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "bad request", type: "invalid_request_error", param: null, code: null } }));
        return;
      }
      const inputs: string[] = body.input;
      const data = inputs.map((text, index) => ({
        object: "embedding",
        index,
        // Unnormalised on purpose: the first component is the text's length.
        embedding: Array.from({ length: options.dimensions }, (_, d) => (d === 0 ? text.length : d === 1 ? 1 : 0)),
      }));
      const tokens = inputs.reduce((n, t) => n + t.split(" ").length, 0);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: data.reverse(), model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("OpenAIEmbedder", () => {
  it("embeds in batches over the /v1/embeddings wire format, in input order, normalised, with usage", async () => {
    const server = await fakeEmbeddingServer({ dimensions: 4 });
    try {
      const embedder = new OpenAIEmbedder({ baseURL: server.baseURL, apiKey: "sk-emb", model: "text-embedding-3-small", dimensions: 4, batchSize: 2, maxRetries: 0 });
      expect(embedder.id).toBe("openai-compatible:text-embedding-3-small:4");
      const texts = ["one", "three words here", "", "four words in here", "five"];
      const { vectors, tokensIn } = await embedder.embed(texts);

      expect(server.requests.map((r) => r.body.input)).toEqual([["one", "three words here"], ["four words in here", "five"]]);
      for (const r of server.requests) {
        expect(r.authorization).toBe("Bearer sk-emb");
        expect(r.body).toMatchObject({ model: "text-embedding-3-small", encoding_format: "float" });
      }
      expect(tokensIn).toBe(1 + 3 + 4 + 1);
      expect(vectors).toHaveLength(5);
      expect(vectors[2]).toEqual([0, 0, 0, 0]);
      texts.forEach((text, i) => {
        if (!text) return;
        expect(norm(vectors[i])).toBeCloseTo(1, 10);
        // In input order: the first component still encodes the text's length.
        expect(vectors[i][0] / vectors[i][1]).toBeCloseTo(text.length, 10);
      });
    } finally {
      await server.close();
    }
  });

  it("rejects vectors of another size than configured", async () => {
    const server = await fakeEmbeddingServer({ dimensions: 3 });
    try {
      const embedder = new OpenAIEmbedder({ baseURL: server.baseURL, apiKey: "k", model: "m", dimensions: 4, maxRetries: 0 });
      await expect(embedder.embed(["a text"])).rejects.toThrow(/3 dimensions; expected 4/);
    } finally {
      await server.close();
    }
  });

  it("surfaces the provider's error", async () => {
    const server = await fakeEmbeddingServer({ dimensions: 4, status: 400 });
    try {
      const embedder = new OpenAIEmbedder({ baseURL: server.baseURL, apiKey: "k", model: "m", dimensions: 4, maxRetries: 0 });
      await expect(embedder.embed(["a text"])).rejects.toMatchObject({ status: 400 });
    } finally {
      await server.close();
    }
  });

  it("makes no request when there is nothing to embed", async () => {
    const server = await fakeEmbeddingServer({ dimensions: 4 });
    try {
      const embedder = new OpenAIEmbedder({ baseURL: server.baseURL, apiKey: "k", model: "m", dimensions: 4 });
      expect(await embedder.embed(["", "  "])).toEqual({ vectors: [[0, 0, 0, 0], [0, 0, 0, 0]], tokensIn: 0 });
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
