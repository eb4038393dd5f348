import type { Config } from "../../shared/config";
import { HashedTfIdfEmbedder, OpenAIEmbedder, type Embedder } from "./knowledge/embeddings";

/** The configured embeddings endpoint, or the offline lexical embedding (docs/knowledge.md). */
export function embedderFrom(cfg: Config): Embedder {
  if (cfg.EMBEDDINGS_BASE_URL && cfg.EMBEDDINGS_MODEL && cfg.EMBEDDINGS_DIMENSIONS) {
    return new OpenAIEmbedder({
      baseURL: cfg.EMBEDDINGS_BASE_URL,
      apiKey: cfg.EMBEDDINGS_API_KEY ?? "none",
      model: cfg.EMBEDDINGS_MODEL,
      dimensions: cfg.EMBEDDINGS_DIMENSIONS,
    });
  }
  return new HashedTfIdfEmbedder();
}
