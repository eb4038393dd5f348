import { registry } from "../../shared/metrics";
import { openAICompatibleComplete } from "../../shared/llm/openai-chat";
import { startFakeOpenAI, type FakeOpenAI } from "../support/fake-openai";

/** Model tokens are counted as the provider reports them, labelled by direction and the configured model only. */
describe("model token metrics", () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ chat: () => ({ content: "ok", usage: { prompt_tokens: 11, completion_tokens: 4 } }) });
  });
  afterAll(() => fake.close());

  const tokens = async (direction: string, model: string) => {
    const metric = await registry.getSingleMetric("model_tokens_total")!.get();
    return metric.values.find((v) => v.labels.direction === direction && v.labels.model === model)?.value ?? 0;
  };

  it("adds each call's prompt and completion tokens", async () => {
    const complete = openAICompatibleComplete({ baseURL: fake.baseURL, apiKey: "test", model: "metrics-model" });
    const [inBefore, outBefore] = [await tokens("in", "metrics-model"), await tokens("out", "metrics-model")];
    await complete([{ role: "user", content: "hello" }]);
    await complete([{ role: "user", content: "again" }]);
    expect(await tokens("in", "metrics-model")).toBe(inBefore + 22);
    expect(await tokens("out", "metrics-model")).toBe(outBefore + 8);
    const labels = (await registry.getSingleMetric("model_tokens_total")!.get()).values.map((v) => Object.keys(v.labels).sort());
    for (const l of labels) expect(l).toEqual(["direction", "model"]);
  });
});
