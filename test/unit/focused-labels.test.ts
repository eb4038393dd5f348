import labels from "../../bench/relevance/focused-labels.json";
import { FOCUSED_REQUESTS } from "../../bench/relevance/focused";

describe("a reader's labels on the focused book (bench/relevance/focused-labels.json, report only)", () => {
  const asked = new Map(FOCUSED_REQUESTS.map((r) => [r.topic, r.lang]));

  it("labels only requests the bench asks, in their language, so a renamed request cannot fall silently unlabelled", () => {
    expect(labels.labels.filter((l) => asked.get(l.request) !== l.lang).map((l) => l.request)).toEqual([]);
    expect(FOCUSED_REQUESTS.filter((r) => !labels.labels.some((l) => l.request === r.topic)).map((r) => r.topic)).toEqual([]);
  });

  it("labels each strip of a request once, and both ways", () => {
    const keys = labels.labels.map((l) => `${l.request}\u0000${l.text}`);
    expect(new Set(keys).size).toBe(keys.length);
    const onTopic = labels.labels.filter((l) => l.on_topic).length;
    expect(onTopic).toBeGreaterThan(0);
    expect(onTopic).toBeLessThan(labels.labels.length);
  });
});
