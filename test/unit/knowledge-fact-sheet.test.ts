import { chunkDocument } from "../../services/brand-knowledge/knowledge/chunk";
import { extractDocument } from "../../shared/text/extract";
import { buildFactSheet, classifySentence } from "../../services/brand-knowledge/knowledge/fact-sheet";
import { KNOWLEDGE_CORPUS } from "../support/knowledge-corpus";

const chunks = [
  {
    id: "c-pricing",
    documentUrl: "https://kestrel.example/pricing",
    text: "The Team plan costs $29 per vehicle per month. Annual billing saves 15%. Want to learn more? Contact our sales team today.",
  },
  {
    id: "c-product",
    documentUrl: "https://kestrel.example/product",
    text: "We offer route optimisation, live tracking and proof of delivery for delivery fleets. The platform includes a driver app for Android and iOS. Drivers like it.",
  },
  {
    id: "c-about",
    documentUrl: "https://kestrel.example/about",
    text: "Kestrel was founded in 2015 in Leeds. Kestrel is the leading dispatch platform for independent couriers in the UK. We use cookies to improve this site.",
  },
  {
    // Overlapping chunk: repeats a sentence of the previous one.
    id: "c-about-2",
    documentUrl: "https://kestrel.example/about",
    text: "Kestrel was founded in 2015 in Leeds. Today 1,200 courier companies in 14 countries dispatch with Kestrel.",
  },
];

describe("buildFactSheet (offline)", () => {
  const facts = buildFactSheet(chunks);
  const find = (text: string) => facts.find((f) => f.fact === text);

  it("finds figures with the chunk and source they came from", () => {
    expect(find("The Team plan costs $29 per vehicle per month.")).toEqual({
      fact: "The Team plan costs $29 per vehicle per month.",
      kind: "figure",
      chunkId: "c-pricing",
      sourceUrl: "https://kestrel.example/pricing",
    });
    expect(find("Annual billing saves 15%.")).toMatchObject({ kind: "figure", chunkId: "c-pricing" });
    expect(find("Today 1,200 courier companies in 14 countries dispatch with Kestrel.")).toMatchObject({ kind: "figure", chunkId: "c-about-2" });
  });

  it("finds offerings and claims", () => {
    expect(find("We offer route optimisation, live tracking and proof of delivery for delivery fleets.")).toMatchObject({ kind: "offering", chunkId: "c-product" });
    expect(find("The platform includes a driver app for Android and iOS.")).toMatchObject({ kind: "offering", chunkId: "c-product" });
    expect(find("Kestrel is the leading dispatch platform for independent couriers in the UK.")).toMatchObject({ kind: "claim", chunkId: "c-about" });
  });

  it("skips questions, calls to action, cookie notices and sentences without substance", () => {
    for (const f of facts) expect(f.fact).not.toMatch(/learn more|Contact our sales|cookies|Drivers like it/);
  });

  it("keeps a sentence repeated by overlapping chunks once, from the first chunk", () => {
    const founded = facts.filter((f) => f.fact === "Kestrel was founded in 2015 in Leeds.");
    expect(founded).toEqual([expect.objectContaining({ kind: "figure", chunkId: "c-about" })]);
  });

  it("ranks the most informative facts first and caps the sheet", () => {
    expect(facts[0]).toMatchObject({ kind: "figure", fact: "The Team plan costs $29 per vehicle per month." });
    const capped = buildFactSheet(chunks, { max: 3 });
    expect(capped).toHaveLength(3);
    expect(capped[0]).toEqual(facts[0]);
    for (const f of capped) expect(facts).toContainEqual(f);
  });

  it("keeps a capped sheet varied: no kind takes more than half while others have candidates", () => {
    const many = Array.from({ length: 10 }, (_, i) => ({ id: `f${i}`, documentUrl: "u", text: `Plan ${i} costs $${10 + i} per seat per month for teams of ${i + 2} users.` }));
    const sheet = buildFactSheet([...many, chunks[1]], { max: 4 });
    expect(sheet.filter((f) => f.kind === "figure")).toHaveLength(2);
    expect(sheet.filter((f) => f.kind === "offering")).toHaveLength(2);
  });

  it("reads a whole ingested site: capped, every fact quoted from its cited chunk", () => {
    const corpusChunks = KNOWLEDGE_CORPUS.flatMap((d) => chunkDocument(extractDocument(d), { sourceId: "site" }));
    const sheet = buildFactSheet(corpusChunks);
    expect(sheet).toHaveLength(40);
    const byId = new Map(corpusChunks.map((c) => [c.id, c]));
    for (const f of sheet) {
      expect(byId.get(f.chunkId)?.text).toContain(f.fact);
      expect(f.sourceUrl).toBe(byId.get(f.chunkId)?.documentUrl);
    }
    expect(new Set(sheet.map((f) => f.fact)).size).toBe(sheet.length);
    expect(new Set(sheet.map((f) => f.kind))).toEqual(new Set(["figure", "offering", "claim"]));
    expect(sheet.map((f) => f.fact)).toEqual(expect.arrayContaining(["The Growth plan costs €49 per month and suits small teams."]));
  });
});

describe("classifySentence", () => {
  it.each([
    ["Prices start at €19 per month.", "figure"],
    ["Our API supports webhooks for every invoice event.", "offering"],
    ["We are ISO 27001 certified and SOC 2 compliant.", "figure"],
    ["Lumen is the fastest way to close your books.", "claim"],
  ])("%s → %s", (sentence, kind) => {
    expect(classifySentence(sentence)?.kind).toBe(kind);
  });

  it.each(["How much does it cost per month?", "Sign up for a free trial today.", "Thanks for reading.", "Too short."])("%s is no fact", (sentence) => {
    expect(classifySentence(sentence)).toBeNull();
  });
});
