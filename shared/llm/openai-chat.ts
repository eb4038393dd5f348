import { modelTokens } from "../metrics";
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { reportingTimeout } from "./attempt-timeout";
import { isRetriedStatus, RetryAfterTooLong } from "./retry";
import type { ChatMessage, CompleteFn } from "./types";

export interface OpenAICompatibleOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), a vLLM or llama.cpp server. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** 0 by default: contexts and facts should be reproducible, not creative. */
  temperature?: number;
}

/**
 * The injected `complete` for an OpenAI-compatible chat completions endpoint, with token usage for metering
 * (tokens_in / tokens_out). Servers that report no usage count as 0.
 *
 * One HTTP attempt per call (the SDK's own retries are off): retries are `retry.ts`'s, outside the process's
 * scheduler (`call-scheduler.ts`), so that a call waiting to be retried holds no slot. `from-config.ts` composes them.
 */
export function openAICompatibleComplete(options: OpenAICompatibleOptions): CompleteFn {
  const timeout = options.timeoutMs ?? 60_000;
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey, timeout, maxRetries: 0 });
  return async (messages: ChatMessage[], callOptions = {}) => {
    const response = await reportingTimeout(timeout, () =>
      client.chat.completions.create({
        model: options.model,
        messages,
        temperature: callOptions.temperature ?? options.temperature ?? 0,
        // max_tokens rather than max_completion_tokens: it is the one compatible servers all understand.
        ...(callOptions.maxTokens ? { max_tokens: callOptions.maxTokens } : {}),
        ...(callOptions.json ? { response_format: { type: "json_object" as const } } : {}),
      }),
    );
    const tokensIn = response.usage?.prompt_tokens ?? 0;
    const tokensOut = response.usage?.completion_tokens ?? 0;
    modelTokens.inc({ direction: "in", model: options.model }, tokensIn);
    modelTokens.inc({ direction: "out", model: options.model }, tokensOut);
    return { text: response.choices[0]?.message?.content ?? "", tokensIn, tokensOut };
  };
}

/**
 * A failed model call as a sentence a job's error can carry: what failed, after how many retries, and the
 * provider's status and reason ("The model request failed after 3 retries: 500 Internal Server Error").
 * Never includes the request (prompts hold customer content) or the key.
 */
export function describeModelFailure(err: unknown, maxRetries: number): string {
  const retries = maxRetries === 1 ? "1 retry" : `${maxRetries} retries`;
  // Says how long the provider asked to wait, and its status and reason.
  if (err instanceof RetryAfterTooLong) return err.message;
  if (err instanceof APIConnectionTimeoutError) return `The model request timed out after ${retries}.`;
  if (err instanceof APIConnectionError) return `The model could not be reached after ${retries}: ${err.message}`;
  if (err instanceof APIError && err.status !== undefined) {
    const reason = err.message.replace(/\s+/g, " ").slice(0, 200);
    if (isRetriedStatus(err.status)) return `The model request failed after ${retries}: ${reason}`;
    return `The model refused the request: ${reason}`;
  }
  return `The model request failed: ${err instanceof Error ? err.message : String(err)}`;
}
