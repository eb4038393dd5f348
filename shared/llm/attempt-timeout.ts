import { performance } from "node:perf_hooks";
import { APIConnectionError, APIConnectionTimeoutError } from "openai";

/** A connection error this close to the deadline (timer granularity) is the deadline's abort. */
const SLACK_MS = 10;

/**
 * One SDK request whose timeout is reported as a timeout. The SDK aborts an attempt at its timeout, but
 * whether it then reports `APIConnectionTimeoutError` or a plain `APIConnectionError` depends on where the
 * abort lands (and, under a test runner's separate realm, the abort error is not recognised at all). A
 * connection error at or past the deadline is the timeout: retried alike, and described as "timed out".
 */
export async function reportingTimeout<T>(timeoutMs: number, request: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await request();
  } catch (err) {
    if (err instanceof APIConnectionError && !(err instanceof APIConnectionTimeoutError) && performance.now() - started >= timeoutMs - SLACK_MS) {
      throw new APIConnectionTimeoutError();
    }
    throw err;
  }
}
