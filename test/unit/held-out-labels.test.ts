import labels from "../../bench/held-out/reader-labels.json";
import { judgeArticle, sourceText } from "../../bench/held-out/reader";
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

  it("counts a sentence a reader found leaning on another as in its place only right after what it follows in its source", () => {
    const source = sourceText(["<Nulgrind> Nulgrind is the simplest possible Valgrind tool.[3] It performs no instrumentation or analysis of a program, just runs it normally. It is mainly of use for Valgrind's developers."]);
    const after = (first: string) =>
      judgeArticle("Getting started with Valgrind", `${first} [[1]](https://v.example/nl) It performs no instrumentation or analysis of a program, just runs it normally. [[1]](https://v.example/nl)\n`, "en", [], source);
    expect(after("Nulgrind is the simplest possible Valgrind tool.")).toMatchObject({ labelled: 2, standalone: 1, in_place: 2 });
    expect(after("DHAT is a different kind of heap profiler.")).toMatchObject({ labelled: 2, standalone: 1, in_place: 1 });
    // A connective the writer put before a sentence is not its source's.
    expect(source.follows("Nulgrind is the simplest possible Valgrind tool.", "In addition, it performs no instrumentation or analysis of a program, just runs it normally.")).toBe(true);
  });
});
