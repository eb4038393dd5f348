import { performance } from "node:perf_hooks";
import type { z } from "zod";
import { describeModelFailure } from "../../../../shared/llm/openai-chat";
import type { ChatMessage, CompleteFn, CompleteOptions } from "../../../../shared/llm/types";

export interface ModelUsage {
  calls: number;
  tokens_in: number;
  tokens_out: number;
  /** Wall time spent waiting for the model, for the stage's meta and the overhead benchmark. */
  model_ms: number;
}

/** A failed model call after its retries: fails the stage (and so the job, whose credits are refunded). */
export class ModelFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelFailure";
  }
}

/**
 * The chat model as the stages use it: every call's tokens are sent to billing as soon as it returns (without
 * holding up the next step; the stage settles them before it ends), and its usage and time are counted for
 * the stage's meta (the time a call waits for a slot of the process's scheduler included). A transport failure
 * (after the retries) throws a ModelFailure with a readable reason; an answer that is not what was asked is the
 * caller's to handle.
 */
export class MeteredModel {
  readonly usage: ModelUsage = { calls: 0, tokens_in: 0, tokens_out: 0, model_ms: 0 };
  private metering: Promise<void>[] = [];

  constructor(
    private readonly complete: CompleteFn,
    private readonly recordTokens: (tokensIn: number, tokensOut: number) => Promise<void>,
    private readonly maxRetries: number,
    /** The job whose calls these are: every call carries it (`options.job`), so the process's scheduler shares slots fairly between jobs. */
    private readonly job?: string,
  ) {}

  async text(messages: ChatMessage[], options?: CompleteOptions): Promise<string> {
    const started = performance.now();
    let answer;
    try {
      answer = await this.complete(messages, this.job === undefined ? options : { ...options, job: this.job });
    } catch (err) {
      throw new ModelFailure(describeModelFailure(err, this.maxRetries));
    } finally {
      this.usage.model_ms += performance.now() - started;
      this.usage.calls++;
    }
    this.usage.tokens_in += answer.tokensIn;
    this.usage.tokens_out += answer.tokensOut;
    // Recorded while the stage goes on; `settle` (before the stage returns) waits for every record and fails on any.
    if (answer.tokensIn || answer.tokensOut) this.metering.push(this.recordTokens(answer.tokensIn, answer.tokensOut));
    return answer.text;
  }

  /** Waits until every call's tokens are recorded; throws the first failure. */
  async settle(): Promise<void> {
    const pending = this.metering;
    this.metering = [];
    await Promise.all(pending);
  }

  /** A JSON answer validated by `schema`; null when the answer is not valid JSON of that shape (callers fall back). */
  async json<S extends z.ZodType>(messages: ChatMessage[], schema: S, options: CompleteOptions = {}): Promise<z.output<S> | null> {
    const text = await this.text(messages, { ...options, json: true });
    return parseJsonAnswer(text, schema);
  }

  meta(): Record<string, number> {
    return { model_calls: this.usage.calls, tokens_in: this.usage.tokens_in, tokens_out: this.usage.tokens_out, model_ms: Math.round(this.usage.model_ms) };
  }
}

/** A model's JSON answer: the object in it (code fences and chatter around it tolerated), validated; null otherwise. */
export function parseJsonAnswer<S extends z.ZodType>(text: string, schema: S): z.output<S> | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
