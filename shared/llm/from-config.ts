import type { Config } from "../config";
import { openAICompatibleComplete } from "./openai-chat";
import type { CompleteFn } from "./types";

type ChatModelConfig = Pick<Config, "LLM_BASE_URL" | "LLM_API_KEY" | "LLM_MODEL"> & Partial<Pick<Config, "LLM_TIMEOUT_MS" | "LLM_MAX_RETRIES">>;

/** The configured OpenAI-compatible chat model, or undefined when none is (offline defaults apply). */
export function chatModelFrom(cfg: ChatModelConfig): CompleteFn | undefined {
  if (!cfg.LLM_BASE_URL || !cfg.LLM_MODEL) return undefined;
  return openAICompatibleComplete({
    baseURL: cfg.LLM_BASE_URL,
    apiKey: cfg.LLM_API_KEY ?? "none",
    model: cfg.LLM_MODEL,
    timeoutMs: cfg.LLM_TIMEOUT_MS,
    maxRetries: cfg.LLM_MAX_RETRIES,
  });
}
