import { chunkDocument } from "../../services/brand-knowledge/knowledge/chunk";
import { CONTEXT_MAX_WORDS, cleanModelContext, contextualizeChunks, documentExcerpt, offlineContext } from "../../services/brand-knowledge/knowledge/contextualize";
import { extractDocument } from "../../shared/text/extract";
import { countWords } from "../../shared/text/segment";
import type { ChatMessage, CompleteFn } from "../../shared/llm/types";
import { KNOWLEDGE_CORPUS } from "../support/knowledge-corpus";

const security = extractDocument(KNOWLEDGE_CORPUS.find((d) => d.id === "security")!);
const chunks = chunkDocument(security, { sourceId: "src_security" });
const encryption = chunks.find((c) => c.headingPath[0] === "Encryption")!;

describe("offline contexts", () => {
  it("situate a chunk by document title, heading path and the document's lead sentence", () => {
    expect(offlineContext(encryption, security)).toBe(
      'This passage is from "Security and compliance | Lumen Ledger", section "Encryption". ' +
        "Your books hold some of the most sensitive information a business has.",
    );
  });

  it("are deterministic and marked offline, with no model tokens", async () => {
    const first = await contextualizeChunks(security, chunks);
    const second = await contextualizeChunks(security, chunks);
    expect(first).toEqual(second);
    expect(first).toMatchObject({ tokensIn: 0, tokensOut: 0, modelFailures: 0 });
    for (const c of first.chunks) {
      expect(c.contextSource).toBe("offline");
      expect(c.context).toContain(security.title);
      if (c.headingPath.length) expect(c.context).toContain(c.headingPath.join(" › "));
      expect(countWords(c.context)).toBeLessThanOrEqual(CONTEXT_MAX_WORDS);
    }
    expect(first.chunks.map(({ context: _context, contextSource: _source, ...chunk }) => chunk)).toEqual(chunks);
  });

  it("skip lead sentences the chunk already contains and stay within the word limit", () => {
    const intro = chunks[0];
    expect(intro.text).toContain(security.leadSentences[0]);
    expect(offlineContext(intro, security)).not.toContain(security.leadSentences[0]);

    const longTitle = { ...security, title: Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ") };
    const context = offlineContext(encryption, longTitle);
    expect(countWords(context)).toBeLessThanOrEqual(CONTEXT_MAX_WORDS);
    expect(context.endsWith("…")).toBe(true);
  });
});

describe("model contexts", () => {
  it("send the document and the chunk, and keep a cleaned answer with its token usage", async () => {
    const calls: ChatMessage[][] = [];
    const complete: CompleteFn = async (messages) => {
      calls.push(messages);
      return { text: ' Context: "The chunk describes how Lumen Ledger encrypts customer data. It belongs to the security page. It lists key rotation."', tokensIn: 700, tokensOut: 30 };
    };
    const result = await contextualizeChunks(security, [encryption], { complete });
    expect(calls).toHaveLength(1);
    const prompt = calls[0].map((m) => m.content).join("\n");
    expect(prompt).toContain(`<document>\n${security.text}\n</document>`);
    expect(prompt).toContain(`<chunk>\n${encryption.text}\n</chunk>`);
    expect(result.chunks[0]).toMatchObject({
      id: encryption.id,
      context: "The chunk describes how Lumen Ledger encrypts customer data. It belongs to the security page.",
      contextSource: "model",
    });
    expect(result).toMatchObject({ tokensIn: 700, tokensOut: 30, modelFailures: 0 });
  });

  it("fall back to the offline context for a chunk whose call fails or answers nothing", async () => {
    let call = 0;
    const complete: CompleteFn = async () => {
      call++;
      if (call === 1) throw new Error("502 from the model server");
      if (call === 2) return { text: "   ", tokensIn: 10, tokensOut: 0 };
      return { text: "Explains the encryption of data.", tokensIn: 10, tokensOut: 5 };
    };
    const result = await contextualizeChunks(security, chunks.slice(0, 3), { complete, concurrency: 1 });
    expect(result.chunks.map((c) => c.contextSource)).toEqual(["offline", "offline", "model"]);
    expect(result.chunks[0].context).toBe(offlineContext(chunks[0], security));
    expect(result).toMatchObject({ modelFailures: 2, tokensIn: 20, tokensOut: 5 });
  });

  it("keep at most `concurrency` calls in flight and the chunks in order", async () => {
    let inFlight = 0;
    let peak = 0;
    const complete: CompleteFn = async (messages) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const chunk = /<chunk>\n([\s\S]*?)\n<\/chunk>/.exec(messages[messages.length - 1].content)![1];
      return { text: `About: ${chunk.slice(0, 20)}.`, tokensIn: 1, tokensOut: 1 };
    };
    const result = await contextualizeChunks(security, chunks, { complete, concurrency: 2 });
    expect(peak).toBe(2);
    expect(result.chunks.map((c) => c.id)).toEqual(chunks.map((c) => c.id));
    result.chunks.forEach((c) => expect(c.context).toBe(`About: ${c.text.slice(0, 20)}.`));
    expect(result.tokensIn).toBe(chunks.length);
  });

  it("see the beginning of a long document and the chunk's own section", () => {
    const excerpt = documentExcerpt(security, encryption, 1000);
    expect(excerpt.length).toBeLessThanOrEqual(1000 + "Encryption".length + 4);
    expect(excerpt.startsWith(security.text.slice(0, 300))).toBe(true);
    expect(excerpt).toContain("All data is encrypted in transit");
    expect(documentExcerpt(security, encryption, 1e6)).toBe(security.text);
  });
});

describe("cleanModelContext", () => {
  it("strips labels and quotes and keeps two sentences within the word limit", () => {
    expect(cleanModelContext("Succinct context: 'From the pricing page.'")).toBe("From the pricing page.");
    expect(cleanModelContext("One. Two. Three.")).toBe("One. Two.");
    expect(countWords(cleanModelContext(Array.from({ length: 100 }, () => "word").join(" ")))).toBe(CONTEXT_MAX_WORDS);
  });
});
