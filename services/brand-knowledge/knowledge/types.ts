/**
 * Plain shapes passed between the knowledge pipeline's stages. Everything here is
 * JSON/BSON-friendly (strings, numbers, arrays, plain objects) so the service can store it as is.
 */

export interface Chunk {
  /** sha256(sourceId, documentUrl, ordinal) in hex, 24 characters: stable across re-ingestion of the same document. */
  id: string;
  sourceId: string;
  documentUrl: string;
  documentTitle: string;
  headingPath: string[];
  /** Position of the chunk in its document, from 0. */
  ordinal: number;
  text: string;
  /** Estimated model tokens (see estimateTokens). */
  tokenCount: number;
}

export interface ContextualizedChunk extends Chunk {
  /** 1–2 sentences situating the chunk in its document; indexed together with the text. */
  context: string;
  contextSource: "model" | "offline";
}
