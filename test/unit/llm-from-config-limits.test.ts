import { chatModelFrom } from "../../shared/llm/from-config";
import { describeModelFailure } from "../../shared/llm/openai-chat";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai";

/**
 * The chat model as the platform builds it (chatModelFrom: scheduler + our retries, SDK retries off) against a
 * real HTTP server. Bounds on time are generous: they tell "waited for Retry-After" from "did not wait".
 */
describe("chatModelFrom: retries, Retry-After and the process's scheduler over HTTP", () => {
  let server: FakeOpenAI;
  beforeEach(async () => {
    server = await startFakeOpenAI();
  });
  afterEach(() => server.close());

  const modelWith = (limits: { LLM_MAX_RETRIES?: number; LLM_TIMEOUT_MS?: number; LLM_CONCURRENCY?: number }) =>
    chatModelFrom({ LLM_BASE_URL: server.baseURL, LLM_API_KEY: "sk-limits", LLM_MODEL: "gpt-test", ...limits })!;
  const hi = [{ role: "user" as const, content: "hi" }];
  const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (err: unknown) => err);

  it("waits what a 429's Retry-After asks, then succeeds", async () => {
    server.setChat((_, n) => (n === 1 ? { status: 429, headers: { "retry-after": "1" } } : "answered"));
    const answer = await modelWith({ LLM_MAX_RETRIES: 2 })(hi, { job: "job-1" });
    expect(answer.text).toBe("answered");
    const [first, retry] = server.chatRequests();
    expect(server.chatRequests().map((r) => r.status)).toEqual([429, 200]);
    expect(retry.receivedAt - first.answeredAt!).toBeGreaterThanOrEqual(900);
  });

  it("holds back other jobs' new calls until a 429's Retry-After has passed", async () => {
    let limited = false;
    server.setChat((request) => {
      if (request.messages[0].content === "first" && !limited) {
        limited = true;
        return { status: 429, headers: { "retry-after": "2" } };
      }
      return "ok";
    });
    const complete = modelWith({ LLM_MAX_RETRIES: 1 });
    const first = complete([{ role: "user", content: "first" }], { job: "job-a" });
    // Asked well after the 429 has come back: it is the provider's limit for the key, so job-b waits too.
    while (!server.chatRequests()[0]?.answeredAt) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 500));
    const other = complete([{ role: "user", content: "other" }], { job: "job-b" });
    await Promise.all([first, other]);
    const limitedAt = server.chatRequests()[0].answeredAt!;
    const otherRequest = server.chatRequests().find((r) => r.body.messages[0].content === "other")!;
    expect(otherRequest.receivedAt - limitedAt).toBeGreaterThanOrEqual(1_800);
  }, 15_000);

  it("retries 500 twice and succeeds with LLM_MAX_RETRIES=2", async () => {
    server.setChat((_, n) => (n <= 2 ? { status: 500 } : "third time"));
    await expect(modelWith({ LLM_MAX_RETRIES: 2 })(hi)).resolves.toMatchObject({ text: "third time" });
    expect(server.chatRequests().map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it("retries a timed-out request, then fails saying it timed out after the retries", async () => {
    server.setDelay(3_000);
    const failure = await failureOf(modelWith({ LLM_MAX_RETRIES: 2, LLM_TIMEOUT_MS: 200 })(hi));
    expect(server.chatRequests()).toHaveLength(3);
    expect(describeModelFailure(failure, 2)).toBe("The model request timed out after 2 retries.");
  }, 20_000);

  it("does not retry a 401", async () => {
    server.setChat(() => ({ status: 401 }));
    const failure = await failureOf(modelWith({ LLM_MAX_RETRIES: 3 })(hi));
    expect(server.chatRequests()).toHaveLength(1);
    expect(describeModelFailure(failure, 3)).toBe("The model refused the request: 401 Incorrect API key provided");
    // Neither the key nor the prompt is in what a job's error would say.
    expect(describeModelFailure(failure, 3)).not.toContain("sk-limits");
  });

  it("shares one scheduler between the models a process builds from the same config: LLM_CONCURRENCY holds across them", async () => {
    server.setDelay(100);
    const [a, b] = [modelWith({ LLM_CONCURRENCY: 1 }), modelWith({ LLM_CONCURRENCY: 1 })];
    await Promise.all([a(hi, { job: "x" }), b(hi, { job: "y" }), a(hi, { job: "x" })]);
    const requests = server.chatRequests().sort((p, q) => p.receivedAt - q.receivedAt);
    expect(requests).toHaveLength(3);
    for (let i = 1; i < requests.length; i++) expect(requests[i].receivedAt).toBeGreaterThanOrEqual(requests[i - 1].answeredAt!);
  });
});
