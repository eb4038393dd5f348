import labels from "../../bench/held-out/reader-labels.json";
import { judgeArticle } from "../../bench/held-out/reader";
import { HELD_OUT_REQUESTS } from "../../bench/held-out/requests";

describe("the held-out probe's reader labels (bench/held-out/reader-labels.json, report only)", () => {
  it("labels only requests the probe asks, so a renamed request cannot fall silently unlabelled", () => {
    const asked = new Set(HELD_OUT_REQUESTS.map((r) => r.topic));
    expect(Object.keys(labels.articles).filter((request) => !asked.has(request))).toEqual([]);
  });

  it("finds a labelled sentence as a reader reads the article (citation marks and markup aside), and counts one no reader read", () => {
    const markdown = [
      "Mistakes cost colonies. On top of this, a veil and gloves are the minimum protective gear; many beekeepers also wear a full suit for their first season. [[1]](https://notes.example/bees/0)",
      "",
      "## Hive and colony",
      "",
      "Varroa mites are the most serious threat to honey bee colonies. [[2]](https://notes.example/bees/1)",
    ].join("\n");
    const judged = judgeArticle("Common beekeeping mistakes to avoid", markdown, "en", []);
    expect(judged.sentences).toBe(3);
    expect(judged.labelled).toBe(2);
    expect([judged.on_topic, judged.standalone]).toEqual([2, 2]);
    expect(judgeArticle("A request no reader labelled", markdown, "en", []).labelled).toBe(0);
  });
});
