import { APIConnectionError, APIConnectionTimeoutError, APIError } from "openai";
import { describeModelFailure } from "../../shared/llm/openai-chat";
import { backoffMs, MAX_RETRY_AFTER_MS, RetryAfterTooLong, retryAfterMs, withRetries } from "../../shared/llm/retry";

/** An error as the openai SDK makes it from an HTTP answer. */
const answer = (status: number, headers: Record<string, string> = {}, message = "Rate limit reached") =>
  APIError.generate(status, { error: { message, type: "requests", param: null, code: null } }, undefined, new Headers(headers));

/** An attempt that throws the given errors in turn, then answers "ok". */
function failing(...errors: unknown[]) {
  let calls = 0;
  const attempt = async () => {
    const err = errors[calls++];
    if (err) throw err;
    return "ok";
  };
  return { attempt, calls: () => calls };
}

const NOW = Date.parse("2026-01-01T00:00:00Z");

/** A policy that sleeps nothing and records the waits it was asked for. */
function policy(maxRetries: number, extra: Partial<Parameters<typeof withRetries>[1]> = {}) {
  const sleeps: number[] = [];
  const pauses: number[] = [];
  return {
    sleeps,
    pauses,
    policy: { maxRetries, sleep: async (ms: number) => void sleeps.push(ms), now: () => NOW, random: () => 0, onRateLimited: (until: number) => void pauses.push(until), ...extra },
  };
}

describe("retryAfterMs", () => {
  it("reads retry-after-ms, then retry-after in seconds or as an HTTP date", () => {
    expect(retryAfterMs(answer(429, { "retry-after-ms": "1500", "retry-after": "9" }), NOW)).toBe(1500);
    expect(retryAfterMs(answer(429, { "retry-after": "2" }), NOW)).toBe(2000);
    expect(retryAfterMs(answer(503, { "retry-after": new Date(NOW + 30_000).toUTCString() }), NOW)).toBe(30_000);
    // A date already past: retry now.
    expect(retryAfterMs(answer(503, { "retry-after": new Date(NOW - 5_000).toUTCString() }), NOW)).toBe(0);
  });

  it("is undefined when the answer says nothing usable", () => {
    expect(retryAfterMs(answer(429), NOW)).toBeUndefined();
    expect(retryAfterMs(answer(429, { "retry-after": "soon" }), NOW)).toBeUndefined();
    expect(retryAfterMs(new APIConnectionTimeoutError(), NOW)).toBeUndefined();
    expect(retryAfterMs(new Error("x"), NOW)).toBeUndefined();
  });
});

describe("backoffMs", () => {
  it("doubles from 0.5 s up to 8 s, less up to a quarter of jitter", () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffMs(0, () => 1)).toBe(375);
  });
});

describe("withRetries", () => {
  it("retries connection errors, timeouts, 408, 409, 429 and 5xx, with backoff when no Retry-After is given", async () => {
    const errors = [new APIConnectionError({ message: "Connection error." }), new APIConnectionTimeoutError(), answer(408), answer(409), answer(429), answer(500), answer(502), answer(503)];
    const call = failing(...errors);
    const { policy: p, sleeps, pauses } = policy(errors.length);
    await expect(withRetries(call.attempt, p)).resolves.toBe("ok");
    expect(call.calls()).toBe(errors.length + 1);
    expect(sleeps).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000, 8000]);
    // A 429 without Retry-After does not say until when: no pause.
    expect(pauses).toEqual([]);
  });

  it.each([400, 401, 403, 404, 422])("fails at once on %i", async (status) => {
    const call = failing(answer(status, {}, "no"));
    const { policy: p, sleeps } = policy(3);
    await expect(withRetries(call.attempt, p)).rejects.toMatchObject({ status });
    expect(call.calls()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it("does not retry an error that is not the provider's (a bug, a refusal of ours)", async () => {
    const call = failing(new TypeError("cannot read x"));
    await expect(withRetries(call.attempt, policy(3).policy)).rejects.toThrow("cannot read x");
    expect(call.calls()).toBe(1);
  });

  it("waits what a 429 or 503 asks, and pauses everyone's new calls on a 429", async () => {
    const call = failing(answer(429, { "retry-after": "1" }), answer(503, { "retry-after-ms": "250" }));
    const { policy: p, sleeps, pauses } = policy(2);
    await expect(withRetries(call.attempt, p)).resolves.toBe("ok");
    expect(sleeps).toEqual([1000, 250]);
    expect(pauses).toEqual([NOW + 1000]);
  });

  it("throws the last error after the last retry (a 429's pause still applies)", async () => {
    const last = answer(429, { "retry-after": "3" });
    const call = failing(answer(500), last, answer(200));
    const { policy: p, sleeps, pauses } = policy(1);
    await expect(withRetries(call.attempt, p)).rejects.toBe(last);
    expect(call.calls()).toBe(2);
    expect(sleeps).toEqual([500]);
    expect(pauses).toEqual([NOW + 3000]);
    expect(describeModelFailure(last, 1)).toBe("The model request failed after 1 retry: 429 Rate limit reached");
  });

  it("fails at once, saying so, when the wait asked is longer than the most we wait", async () => {
    const call = failing(answer(429, { "retry-after": "120" }));
    const { policy: p, sleeps, pauses } = policy(3);
    const failure = withRetries(call.attempt, p);
    await expect(failure).rejects.toBeInstanceOf(RetryAfterTooLong);
    expect(call.calls()).toBe(1);
    expect(sleeps).toEqual([]);
    // Not a pause of the whole process for minutes: each call learns it for itself.
    expect(pauses).toEqual([]);
    const message = describeModelFailure(await failure.catch((e) => e), 3);
    expect(message).toBe(`The model provider asked to wait 120 s before retrying (we wait at most ${MAX_RETRY_AFTER_MS / 1000} s): 429 Rate limit reached`);
  });

  it("takes its bound on Retry-After from the policy", async () => {
    const call = failing(answer(503, { "retry-after": "2" }));
    await expect(withRetries(call.attempt, policy(3, { maxRetryAfterMs: 1000 }).policy)).rejects.toThrow("asked to wait 2 s before retrying (we wait at most 1 s)");
  });
});

describe("describeModelFailure", () => {
  it("names what failed and after how many retries, never the request", () => {
    expect(describeModelFailure(new APIConnectionTimeoutError(), 3)).toBe("The model request timed out after 3 retries.");
    expect(describeModelFailure(new APIConnectionError({ message: "Connection error." }), 1)).toBe("The model could not be reached after 1 retry: Connection error.");
    expect(describeModelFailure(answer(500, {}, "Internal Server Error"), 2)).toBe("The model request failed after 2 retries: 500 Internal Server Error");
    expect(describeModelFailure(answer(401, {}, "Incorrect API key provided"), 2)).toBe("The model refused the request: 401 Incorrect API key provided");
  });
});
