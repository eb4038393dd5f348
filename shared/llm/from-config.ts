import type { Config } from "../config";
import { openAICompatibleComplete } from "./openai-chat";
import { openAICompatibleImages, type GenerateImageFn } from "./openai-images";
import type { CompleteFn } from "./types";

/** How long a model call may take and how often the client retries it: the same for every model. */
type CallLimits = Partial<Pick<Config, "LLM_TIMEOUT_MS" | "LLM_MAX_RETRIES">>;
type ChatModelConfig = Pick<Config, "LLM_BASE_URL" | "LLM_API_KEY" | "LLM_MODEL"> & CallLimits;
type ImageModelConfig = Pick<Config, "IMAGES_BASE_URL" | "IMAGES_API_KEY" | "IMAGES_MODEL"> & CallLimits;

/** An OpenAI-compatible endpoint's client options, or undefined when its address or model is not configured. */
function endpoint(baseURL: string | undefined, apiKey: string | undefined, model: string | undefined, limits: CallLimits) {
  if (!baseURL || !model) return undefined;
  return { baseURL, apiKey: apiKey ?? "none", model, timeoutMs: limits.LLM_TIMEOUT_MS, maxRetries: limits.LLM_MAX_RETRIES };
}

/** The configured OpenAI-compatible chat model, or undefined when none is (offline defaults apply). */
export function chatModelFrom(cfg: ChatModelConfig): CompleteFn | undefined {
  const options = endpoint(cfg.LLM_BASE_URL, cfg.LLM_API_KEY, cfg.LLM_MODEL, cfg);
  return options && openAICompatibleComplete(options);
}

/** The configured images model, or undefined when none is (the offline SVG title card applies). */
export function imageModelFrom(cfg: ImageModelConfig): GenerateImageFn | undefined {
  const options = endpoint(cfg.IMAGES_BASE_URL, cfg.IMAGES_API_KEY, cfg.IMAGES_MODEL, cfg);
  return options && openAICompatibleImages(options);
}
