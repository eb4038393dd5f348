import OpenAI from "openai";
import type { ChatMessage, CompleteFn } from "./types";

export interface OpenAICompatibleOptions {
  /** e.g. https://api.openai.com/v1, http://localhost:11434/v1 (Ollama), a vLLM or llama.cpp server. */
  baseURL: string;
  apiKey: string;
  model: string;
  /** Per attempt. */
  timeoutMs?: number;
  /** Retries on connection errors, 408, 409, 429 and 5xx, with the SDK's backoff (honouring retry-after). */
  maxRetries?: number;
  /** 0 by default: contexts and facts should be reproducible, not creative. */
  temperature?: number;
}

/**
 * The injected `complete` for an OpenAI-compatible chat completions endpoint, with token usage for metering
 * (tokens_in / tokens_out). Servers that report no usage count as 0.
 */
export function openAICompatibleComplete(options: OpenAICompatibleOptions): CompleteFn {
  const client = new OpenAI({
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    timeout: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
  });
  return async (messages: ChatMessage[], callOptions = {}) => {
    const response = await client.chat.completions.create({
      model: options.model,
      messages,
      temperature: options.temperature ?? 0,
      // max_tokens rather than max_completion_tokens: it is the one compatible servers all understand.
      ...(callOptions.maxTokens ? { max_tokens: callOptions.maxTokens } : {}),
    });
    return {
      text: response.choices[0]?.message?.content ?? "",
      tokensIn: response.usage?.prompt_tokens ?? 0,
      tokensOut: response.usage?.completion_tokens ?? 0,
    };
  };
}
