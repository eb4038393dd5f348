import { z } from "zod";
import { MeteredModel } from "../../services/pipeline/article/model/metered-model";
import type { CompleteOptions } from "../../shared/llm/types";

describe("MeteredModel's job", () => {
  it("adds the job it was made for to every call's options, so the scheduler can share slots between jobs", async () => {
    const seen: (CompleteOptions | undefined)[] = [];
    const model = new MeteredModel(async (_, options) => (seen.push(options), { text: "{}", tokensIn: 0, tokensOut: 0 }), async () => undefined, 0, "job-42");
    await model.text([{ role: "user", content: "a" }]);
    await model.text([{ role: "user", content: "b" }], { maxTokens: 10 });
    await model.json([{ role: "user", content: "c" }], z.object({}));
    expect(seen).toEqual([{ job: "job-42" }, { maxTokens: 10, job: "job-42" }, { json: true, job: "job-42" }]);
  });

  it("passes the options as they are without a job", async () => {
    const seen: (CompleteOptions | undefined)[] = [];
    const model = new MeteredModel(async (_, options) => (seen.push(options), { text: "", tokensIn: 0, tokensOut: 0 }), async () => undefined, 0);
    await model.text([{ role: "user", content: "a" }], { temperature: 0.4 });
    expect(seen).toEqual([{ temperature: 0.4 }]);
  });
});
