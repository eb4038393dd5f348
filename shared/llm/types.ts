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
}

/** A language-model call, injected so that stages can run against any OpenAI-compatible endpoint or a fake. */
export type CompleteFn = (messages: ChatMessage[], options?: CompleteOptions) => Promise<Completion>;
