/** A chat model call, injected so that callers run against any OpenAI-compatible endpoint or a fake. */

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface Completion {
  text: string;
  tokensIn: number;
  tokensOut: number;
}

export interface CompleteOptions {
  /** Upper bound on the answer's length in tokens. */
  maxTokens?: number;
  /** Ask for a JSON object (`response_format: {type: "json_object"}`); the caller still validates the answer. */
  json?: boolean;
  /** Overrides the client's default temperature for this call (e.g. a little variety when writing prose). */
  temperature?: number;
  /**
   * Whose call this is (the job id): the process-wide model-call scheduler shares `LLM_CONCURRENCY` fairly
   * between jobs by it, so one deep article cannot starve others. Calls without one share a common queue.
   */
  job?: string;
}

/** A language-model call, injected so that stages can run against any OpenAI-compatible endpoint or a fake. */
export type CompleteFn = (messages: ChatMessage[], options?: CompleteOptions) => Promise<Completion>;
