import { countWords, sentencesOf, wordSpans } from "../../../shared/text/segment";
import type { CompleteFn } from "../../../shared/llm/types";
import type { ExtractedDocument } from "../../../shared/text/document";
import type { Chunk, ContextualizedChunk } from "./types";

/** Contexts are prepended to every chunk for indexing; longer ones would drown the chunk's own terms. */
export const CONTEXT_MAX_WORDS = 60;

type DocumentInfo = Pick<ExtractedDocument, "title" | "leadSentences" | "lang">;

/** The first maxWords words with the punctuation between them, and an ellipsis when something was cut. */
function clampWords(text: string, maxWords: number, lang?: string): string {
  const spans = wordSpans(text, lang);
  return spans.length <= maxWords ? text : `${text.slice(0, spans[maxWords - 1].end)}…`;
}

/**
 * Offline context, deterministic: the document title and heading path, then the document's lead sentence
 * (what the whole page is about), skipping a lead sentence the chunk already contains.
 */
export function offlineContext(chunk: Pick<Chunk, "headingPath" | "text">, doc: DocumentInfo): string {
  const where = chunk.headingPath.length ? `, section "${chunk.headingPath.join(" › ")}"` : "";
  const first = `This passage is from "${doc.title}"${where}.`;
  const lead = doc.leadSentences.find((s) => !chunk.text.includes(s));
  if (!lead) return clampWords(first, CONTEXT_MAX_WORDS, doc.lang);
  const room = CONTEXT_MAX_WORDS - countWords(first, doc.lang);
  return room >= 5 ? `${first} ${clampWords(lead, room, doc.lang)}` : clampWords(first, CONTEXT_MAX_WORDS, doc.lang);
}

export interface ContextualizeOptions {
  /** A language model; without one every context is the offline one. */
  complete?: CompleteFn;
  /** Model calls in flight at once. */
  concurrency?: number;
  /** The document text sent with each chunk is cut to this many characters (~4k tokens by default). */
  documentCharLimit?: number;
}

export interface ContextualizeResult {
  chunks: ContextualizedChunk[];
  tokensIn: number;
  tokensOut: number;
  /** Chunks whose model call failed or answered nothing usable; they carry the offline context instead. */
  modelFailures: number;
}

/**
 * The document a model sees with a chunk: the whole text when it fits, otherwise its beginning (what the
 * document is) and the chunk's own top-level section (what surrounds the chunk).
 */
export function documentExcerpt(doc: ExtractedDocument, chunk: Pick<Chunk, "headingPath">, limit: number): string {
  if (doc.text.length <= limit) return doc.text;
  const head = doc.text.slice(0, Math.floor(limit * 0.4));
  const top = chunk.headingPath[0];
  const section = top === undefined ? "" : doc.sections.filter((s) => s.headingPath[0] === top).map((s) => s.text).join("\n");
  return `${head}\n…\n${top ?? ""}\n${section.slice(0, limit - head.length)}`.trim();
}

/**
 * The prompt of Anthropic's "contextual retrieval" (2024). The document comes first and is the same for every
 * chunk of a document, so providers with prefix caching bill it once.
 */
export function contextPrompt(documentText: string, chunkText: string) {
  return [
    { role: "system" as const, content: "You situate passages within their source document to improve search retrieval. Answer in the document's language." },
    {
      role: "user" as const,
      content:
        `<document>\n${documentText}\n</document>\n` +
        `Here is the chunk we want to situate within the whole document\n<chunk>\n${chunkText}\n</chunk>\n` +
        "Please give a short succinct context to situate this chunk within the overall document for the purposes of " +
        `improving search retrieval of the chunk. Use at most two sentences and ${CONTEXT_MAX_WORDS} words. ` +
        "Answer only with the succinct context and nothing else.",
    },
  ];
}

/** A model answer made fit for indexing: no label or quotes, at most two sentences and CONTEXT_MAX_WORDS words. */
export function cleanModelContext(answer: string, lang?: string): string {
  let text = answer.replace(/\s+/g, " ").trim();
  text = text.replace(/^(?:succinct\s+)?context\s*:\s*/i, "");
  if (text.length > 1 && /^["“'].*["”']$/.test(text)) text = text.slice(1, -1).trim();
  return clampWords(sentencesOf(text, lang).slice(0, 2).join(" "), CONTEXT_MAX_WORDS, lang);
}

export async function contextualizeChunks(doc: ExtractedDocument, chunks: Chunk[], options: ContextualizeOptions = {}): Promise<ContextualizeResult> {
  const { complete } = options;
  if (!complete) {
    return { chunks: chunks.map((c) => ({ ...c, context: offlineContext(c, doc), contextSource: "offline" })), tokensIn: 0, tokensOut: 0, modelFailures: 0 };
  }
  const limit = options.documentCharLimit ?? 16_000;
  const out: ContextualizedChunk[] = new Array(chunks.length);
  let tokensIn = 0;
  let tokensOut = 0;
  let modelFailures = 0;
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      const chunk = chunks[i];
      let context = "";
      try {
        const answer = await complete(contextPrompt(documentExcerpt(doc, chunk, limit), chunk.text), { maxTokens: 150 });
        tokensIn += answer.tokensIn;
        tokensOut += answer.tokensOut;
        context = cleanModelContext(answer.text, doc.lang);
      } catch {
        // One failed call must not fail the ingest: the chunk keeps the offline context and is counted.
      }
      if (context) {
        out[i] = { ...chunk, context, contextSource: "model" };
      } else {
        modelFailures++;
        out[i] = { ...chunk, context: offlineContext(chunk, doc), contextSource: "offline" };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, chunks.length)) }, worker));
  return { chunks: out, tokensIn, tokensOut, modelFailures };
}
