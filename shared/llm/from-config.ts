import { createHash } from "node:crypto";
import { DEFAULT_LLM_CONCURRENCY, DEFAULT_LLM_MAX_RETRIES, type Config } from "../config";
import { CallScheduler, scheduledComplete } from "./call-scheduler";
import { openAICompatibleComplete } from "./openai-chat";
import { openAICompatibleImages, type GenerateImageFn } from "./openai-images";
import { retryingComplete, withRetries, type RetryPolicy } from "./retry";
import type { CompleteFn } from "./types";

/** How long a model call may take, how often we retry it, and how many run at once: the same for every model. */
type CallLimits = Partial<Pick<Config, "LLM_TIMEOUT_MS" | "LLM_MAX_RETRIES" | "LLM_CONCURRENCY">>;
type ChatModelConfig = Pick<Config, "LLM_BASE_URL" | "LLM_API_KEY" | "LLM_MODEL"> & CallLimits;
type ImageModelConfig = Pick<Config, "IMAGES_BASE_URL" | "IMAGES_API_KEY" | "IMAGES_MODEL"> & CallLimits;


/**
 * The process's scheduler for a provider account (address and key): every model built from the config in this
 * process shares it, whichever service builds it and however often. The provider's rate limit is per key, so
 * a 429's pause holds back all of that account's calls; in the usual set-up (one model endpoint) it is the one
 * scheduler of the process. The first caller's LLM_CONCURRENCY sets its limit.
 */
const schedulers = new Map<string, CallScheduler>();

function schedulerFor(baseURL: string, apiKey: string, limit: number): CallScheduler {
  // The key is hashed: the map holds no secret of its own.
  const account = `${baseURL}\n${createHash("sha256").update(apiKey).digest("hex")}`;
  let scheduler = schedulers.get(account);
  if (!scheduler) schedulers.set(account, (scheduler = new CallScheduler({ limit })));
  return scheduler;
}

/** An OpenAI-compatible endpoint's client options, its scheduler and retry policy; undefined when its address or model is not configured. */
function endpoint(baseURL: string | undefined, apiKey: string | undefined, model: string | undefined, limits: CallLimits) {
  if (!baseURL || !model) return undefined;
  const key = apiKey ?? "none";
  const scheduler = schedulerFor(baseURL, key, limits.LLM_CONCURRENCY ?? DEFAULT_LLM_CONCURRENCY);
  const retries: RetryPolicy = { maxRetries: limits.LLM_MAX_RETRIES ?? DEFAULT_LLM_MAX_RETRIES, onRateLimited: (until) => scheduler.pauseUntil(until) };
  return { client: { baseURL, apiKey: key, model, timeoutMs: limits.LLM_TIMEOUT_MS }, scheduler, retries };
}

/**
 * The configured OpenAI-compatible chat model, or undefined when none is (offline defaults apply). Each
 * attempt waits for a slot of the process's scheduler (fair between jobs by `options.job`); retries wait
 * outside it, so a call sleeping before its retry holds no slot.
 */
export function chatModelFrom(cfg: ChatModelConfig): CompleteFn | undefined {
  const found = endpoint(cfg.LLM_BASE_URL, cfg.LLM_API_KEY, cfg.LLM_MODEL, cfg);
  if (!found) return undefined;
  return retryingComplete(scheduledComplete(openAICompatibleComplete(found.client), found.scheduler), found.retries);
}

/** The configured images model, or undefined when none is (the offline SVG title card applies). Scheduled and retried as chat calls are (in the shared queue). */
export function imageModelFrom(cfg: ImageModelConfig): GenerateImageFn | undefined {
  const found = endpoint(cfg.IMAGES_BASE_URL, cfg.IMAGES_API_KEY, cfg.IMAGES_MODEL, cfg);
  if (!found) return undefined;
  const generate = openAICompatibleImages(found.client);
  const { scheduler, retries } = found;
  return (prompt) => withRetries(() => scheduler.run(undefined, () => generate(prompt)), retries);
}
