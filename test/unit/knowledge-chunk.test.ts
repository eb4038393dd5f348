import { createHash } from "node:crypto";
import { chunkDocument, chunkId } from "../../services/brand-knowledge/knowledge/chunk";
import { extractPlainText } from "../../shared/text/extract";
import { estimateTokens, sentencesOf } from "../../shared/text/segment";

const TOPICS = ["routing", "dispatch", "billing", "tracking", "reporting", "onboarding"];

/** `count` distinct sentences of eleven to fifteen words, each tagged with its section and number so it can be traced. */
function sentences(tag: string, count: number): string {
  return Array.from({ length: count }, (_, i) => {
    const filler = ["the", "team", "keeps", "every", "van", "on", "schedule", "for", "customers"].slice(0, 5 + (i % 5)).join(" ");
    return `Sentence ${tag}${i} about ${TOPICS[i % TOPICS.length]} says ${filler} today.`;
  }).join(" ");
}

const markdown = [
  "# Fleet handbook",
  sentences("intro", 4),
  "## Operations",
  sentences("ops", 60),
  "## Pricing",
  sentences("price", 3),
  "### Add-ons",
  sentences("addon", 2),
  "### Discounts",
  sentences("disc", 2),
  "## Security",
  sentences("sec", 30),
].join("\n\n");

const doc = { ...extractPlainText({ content: markdown }), url: "https://kestrel.example/handbook" };
const chunks = chunkDocument(doc, { sourceId: "src_1" });
const tags = (text: string): string[] => text.match(/Sentence \w+?\d+/g) ?? [];

describe("chunkDocument", () => {
  it("keeps every chunk within the token budget and long sections in even chunks", () => {
    for (const c of chunks) {
      expect(c.tokenCount).toBeLessThanOrEqual(300);
      expect(c.tokenCount).toBe(estimateTokens(c.text));
    }
    const operations = chunks.filter((c) => c.headingPath[0] === "Operations");
    expect(operations.length).toBeGreaterThanOrEqual(4);
    for (const c of operations) expect(c.tokenCount).toBeGreaterThanOrEqual(150);
  });

  it("covers every sentence, in order", () => {
    const seen = chunks.flatMap((c) => tags(c.text));
    const unique = seen.filter((s, i) => seen.indexOf(s) === i);
    expect(unique).toEqual(tags(doc.text));
  });

  it("repeats about 15% of a split section at the start of the next chunk", () => {
    const operations = chunks.filter((c) => c.headingPath[0] === "Operations");
    const overlaps: number[] = [];
    for (let i = 1; i < operations.length; i++) {
      const previous = tags(operations[i - 1].text);
      const current = tags(operations[i].text);
      const shared = current.filter((s) => previous.includes(s)).length;
      expect(shared).toBeGreaterThanOrEqual(1);
      // The shared sentences end the previous chunk and start this one.
      expect(current.slice(0, shared)).toEqual(previous.slice(previous.length - shared));
      overlaps.push(estimateTokens(sentencesOf(operations[i].text).slice(0, shared).join(" ")));
    }
    const mean = overlaps.reduce((a, b) => a + b, 0) / overlaps.length;
    expect(mean).toBeGreaterThanOrEqual(0.05 * 300);
    expect(mean).toBeLessThanOrEqual(0.2 * 300);
  });

  it("never spans two top-level sections and carries heading paths", () => {
    const sectionOf = (sentence: string) => (/intro/.test(sentence) ? undefined : /ops/.test(sentence) ? "Operations" : /price|addon|disc/.test(sentence) ? "Pricing" : "Security");
    for (const c of chunks) {
      const tops = new Set(tags(c.text).map(sectionOf));
      expect(tops.size).toBe(1);
      expect(c.headingPath[0]).toBe([...tops][0]);
    }
    expect(chunks[0].headingPath).toEqual([]);
  });

  it("lets small subsections share a chunk, each introduced by its heading as a markdown heading of its level", () => {
    const pricing = chunks.filter((c) => c.headingPath[0] === "Pricing");
    expect(pricing).toHaveLength(1);
    expect(pricing[0].headingPath).toEqual(["Pricing"]);
    expect(pricing[0].text).toMatch(/Sentence price2 [^\n]*\n## Add-ons\nSentence addon0/);
    expect(pricing[0].text).toMatch(/\n## Discounts\nSentence disc0/);
  });

  it("gives a subsection its own heading path when its chunk holds only it", () => {
    const solo = chunkDocument(
      { ...extractPlainText({ content: ["## Plans", sentences("plan", 30), "### Team", sentences("team", 30)].join("\n\n") }), url: "u" },
      { sourceId: "s" },
    );
    expect(solo.map((c) => c.headingPath)).toContainEqual(["Plans", "Team"]);
    const team = solo.filter((c) => c.headingPath[1] === "Team");
    expect(team[0].text.startsWith("## Team\nSentence team0")).toBe(true);
  });

  // Read in the Debian FAQ crawled: a chunk from the middle of one question's answer into the next had the
  // chapter's heading only, and its first sentences were taken as the chapter's.
  it("opens a chunk that starts inside a subsection and runs into the next with that subsection's heading line", () => {
    const doc = { ...extractPlainText({ content: ["## Plans", sentences("plan", 2), "### Team", sentences("team", 6), "### Solo", sentences("solo", 1)].join("\n\n") }), url: "u" };
    const pieces = chunkDocument(doc, { sourceId: "s", targetTokens: 60 });
    const across = pieces.filter((c) => c.headingPath.length === 1 && /\n## Solo\n/.test(c.text));
    expect(across).toHaveLength(1);
    expect(across[0].text).toMatch(/^## Team\nSentence team\d+ [^\n]*\n## Solo\nSentence solo0/);
    // A chunk whose heading path already names its subsection needs no such line: it opens on its own heading, or on a sentence.
    const named = pieces.filter((c) => c.headingPath.length === 2);
    expect(named.length).toBeGreaterThan(0);
    for (const c of named) expect(c.text.startsWith("#") ? c.text.startsWith(`## ${c.headingPath[1]}\n`) : /^Sentence /.test(c.text)).toBe(true);
  });

  it("numbers chunks from 0 and copies the document's identity into each", () => {
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
    for (const c of chunks) {
      expect(c).toMatchObject({ sourceId: "src_1", documentUrl: "https://kestrel.example/handbook", documentTitle: "Fleet handbook" });
    }
  });

  it("has stable, distinct ids: sha256 of source, url and ordinal, 24 hex characters", () => {
    const again = chunkDocument(doc, { sourceId: "src_1" });
    expect(again.map((c) => c.id)).toEqual(chunks.map((c) => c.id));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(chunks.length);
    for (const c of chunks) expect(c.id).toMatch(/^[0-9a-f]{24}$/);
    expect(chunks[3].id).toBe(createHash("sha256").update("src_1\u0000https://kestrel.example/handbook\u00003").digest("hex").slice(0, 24));
    expect(chunkId("src_2", doc.url, 3)).not.toBe(chunks[3].id);
  });

  it("honours a smaller budget and cuts a sentence that is longer than a chunk", () => {
    const small = chunkDocument(doc, { sourceId: "src_1", targetTokens: 100 });
    expect(small.length).toBeGreaterThan(chunks.length);
    for (const c of small) expect(c.tokenCount).toBeLessThanOrEqual(100);

    const runOn = Array.from({ length: 600 }, (_, i) => `word${i}`).join(" ");
    const pieces = chunkDocument({ ...extractPlainText({ content: runOn, title: "List" }), url: "u" }, { sourceId: "s" });
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    for (const c of pieces) expect(c.tokenCount).toBeLessThanOrEqual(300);
    expect(pieces.map((c) => c.text).join(" ")).toContain("word0 word1");
    expect(pieces[pieces.length - 1].text.endsWith("word599")).toBe(true);
  });

  it("returns no chunks for a document without text", () => {
    expect(chunkDocument({ url: "u", title: "Empty", sections: [], text: "", leadSentences: [], wordCount: 0 }, { sourceId: "s" })).toEqual([]);
  });
});
