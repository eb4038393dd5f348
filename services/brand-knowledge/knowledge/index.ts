/** The knowledge pipeline's pure parts: extract → chunk → contextualize → embed → index, retrieval, fact sheet, voice. */
export * from "./types";
export { extractDocument, extractPlainText, extractableKind, type ExtractableKind, type FetchedDocument, type PlainTextInput } from "./extract";
export { chunkDocument, chunkId, DEFAULT_CHUNK_TOKENS, DEFAULT_OVERLAP_RATIO, type ChunkOptions } from "./chunk";
export { contextualizeChunks, offlineContext, CONTEXT_MAX_WORDS, type ContextualizeOptions, type ContextualizeResult } from "./contextualize";
export { openAICompatibleComplete, type OpenAICompatibleOptions } from "./llm-context";
export { cosine, HashedTfIdfEmbedder, OpenAIEmbedder, type Embedder, type HashedEmbedderOptions, type OpenAIEmbedderOptions } from "./embeddings";
export { tokenize } from "./tokenize";
export { Bm25Index, indexText, termFrequencies, type Bm25Entry, type Bm25Hit, type TermFrequencies } from "./bm25";
export { hybridSearch, rankHybrid, RRF_K, type HybridHit, type HybridIndex, type HybridOptions } from "./hybrid";
export { buildFactSheet, buildFactSheetWithModel, DEFAULT_MAX_FACTS, type Fact, type FactKind, type FactSourceChunk, type ModelFactSheet } from "./fact-sheet";
export { countSyllables, fleschReadingEase, readingLevel, textStatistics, type ReadingLevel } from "./flesch";
export { buildVoiceProfile, type Person, type VoiceInput, type VoiceProfile } from "./voice";
export { countWords, estimateTokens, sentencesOf } from "./segment";
