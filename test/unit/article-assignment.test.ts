import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { assignEvidence, shareOutEvidence } from "../../services/pipeline/article/writers/assignment";
import { relevanceModel } from "../../services/pipeline/article/relevance";
import type { Evidence, Outline, PlannedSection } from "../../services/pipeline/article/types";

const brief = decideBriefByRules(
  { topic: "Route planning for field service teams", target_keyword: "route planning", language: "en", mode: "standard", target_words: 800, derivatives: [], image: false } as never,
  null,
  [],
);

const passage = (id: string, quote: string, heading = ""): Evidence => ({ id, url: `https://guides.example/${id}`, title: "Field service guide", heading, quote, fetched_at: "2026-01-01T00:00:00Z", origin: "web" });

const POOL: Evidence[] = [
  passage("e1", "Route planning decides how much of a technician's day is spent working and how much is spent driving. Cutting that share adds billable jobs."),
  passage("e2", "Teams that cluster jobs within a 15-minute drive radius save between 40 and 70 minutes of driving per technician per day.", "Clustering"),
  passage("e3", "Clustering works best when the office books new jobs into days when a technician is already nearby in the same neighbourhood.", "Clustering"),
  passage("e4", "Most residential service companies offer arrival windows of two to four hours; a two-hour window is a common compromise.", "Arrival windows"),
  passage("e5", "Customers told about a delay before the arrival window ends rarely complain about the late arrival.", "Arrival windows"),
  passage("e6", "Good route planning also makes arrival times predictable and lets dispatchers plan the evening before."),
];

const section = (key: string, role: PlannedSection["role"], heading: string, budget: number): PlannedSection => ({ key, role, heading, brief: heading, query: `${heading} route planning`, budget });

const outline = (sections: PlannedSection[]): Outline => ({ requested_words: 800, target_words: 800, planned_by: "rules", sections });

describe("evidence shared out for sections written side by side", () => {
  it("gives each passage to one section, a body section its own material, the introduction what no heading claims", () => {
    const plan = outline([
      section("intro", "intro", "", 80),
      section("s1", "body", "Clustering jobs by neighbourhood", 200),
      section("s2", "body", "Arrival windows customers trust", 200),
      section("s3", "body", "Keeping parts on the van", 200),
      section("end", "conclusion", "Conclusion", 60),
    ]);
    const assigned = assignEvidence(plan, POOL, brief);
    const all = [...assigned.values()].flat();
    expect(new Set(all).size).toBe(all.length);
    expect(assigned.get("s1")!.sort()).toEqual(["e2", "e3"]);
    expect(assigned.get("s2")!.sort()).toEqual(["e4", "e5"]);
    // Nothing in the pool is about van stock: the section gets nothing rather than another section's material.
    expect(assigned.get("s3")).toEqual([]);
    expect([...assigned.get("intro")!, ...assigned.get("end")!].sort()).toEqual(["e1", "e6"]);
  });

  it("an overview heading takes what no heading claims; a heading sharing one word with a passage does not take it", () => {
    const plan = outline([
      section("s0", "body", "Route planning: the essentials", 300),
      section("s1", "body", "Matching skills to jobs", 200),
      section("s2", "body", "Arrival windows customers trust", 200),
    ]);
    const assigned = assignEvidence(plan, POOL, brief);
    // e2 and e3 say "jobs", not skills: they are not about matching skills to jobs.
    expect(assigned.get("s1")).toEqual([]);
    // The overview takes what no heading claims, the passages naming the topic first; e3 (clustering, no word of
    // the topic) comes last. Every passage given here is one the relevance model judged on topic (shareOutEvidence
    // sends its relevant strips only): pasted notes on a bicycle name it in 2 of 28 facts, and by the topic's words
    // alone three of five sections had nothing to be written from.
    const overview = assigned.get("s0")!;
    expect([...overview].sort()).toEqual(["e1", "e2", "e3", "e6"]);
    expect(overview[overview.length - 1]).toBe("e3");
  });

  it("takes a heading made of angle words only for one about the whole topic (read: « Pourquoi c'est important » left empty with a model)", () => {
    const plan = outline([
      section("s1", "body", "Why this matters", 300),
      section("s2", "body", "Arrival windows customers trust", 200),
    ]);
    const assigned = assignEvidence(plan, POOL, brief);
    // "why" and "matters" are the angle: no passage says them, and the section took nothing before.
    expect([...assigned.get("s1")!].sort()).toEqual(["e1", "e2", "e3", "e6"]);
    expect(assigned.get("s2")!.sort()).toEqual(["e4", "e5"]);
  });

  it("stops giving a section passages once it holds about 1.6 × its budget in words", () => {
    const plan = outline([section("s1", "body", "Clustering jobs by neighbourhood", 10), section("s2", "body", "Arrival windows customers trust", 10)]);
    const assigned = assignEvidence(plan, POOL, brief);
    expect(assigned.get("s1")).toHaveLength(1);
    expect(assigned.get("s2")).toHaveLength(1);
    // A budget of 14 holds 22.4 words: one 21-word passage leaves room, so the section takes its second one.
    const roomier = assignEvidence(outline([section("s1", "body", "Clustering jobs by neighbourhood", 14), section("s2", "body", "Arrival windows customers trust", 10)]), POOL, brief);
    expect(roomier.get("s1")).toHaveLength(2);
  });
});

describe("a long passage shared out in pieces (shareOutEvidence)", () => {
  it("feeds several sections from one pasted text, each piece under its passage's own id", () => {
    // One pasted text of route-planning facts on two subjects: shared out whole, only one section could use it.
    const pasted = passage(
      "e9",
      [
        ...Array.from({ length: 12 }, (_, i) => `Route planning that clusters jobs by neighbourhood saves technicians ${20 + i * 5} minutes of driving on day ${i + 1} of the trial.`),
        ...Array.from({ length: 12 }, (_, i) => `Route planning with arrival windows of ${2 + (i % 3)} hours kept ${80 + i} percent of customers happy in week ${i + 1}.`),
      ].join(" "),
    );
    const pool = [pasted];
    const relevance = relevanceModel(pool, brief);
    const plan = outline([section("intro", "intro", "", 60), section("s1", "body", "Clustering jobs by neighbourhood", 150), section("s2", "body", "Arrival windows customers trust", 150), section("end", "conclusion", "Conclusion", 50)]);
    const shared = shareOutEvidence(plan, relevance, brief);
    const given = (key: string) => shared.get(key) ?? [];
    expect(given("s1").map((e) => e.id)).toEqual(["e9"]);
    expect(given("s2").map((e) => e.id)).toEqual(["e9"]);
    expect(given("s1")[0].quote).toContain("neighbourhood");
    expect(given("s2")[0].quote).toContain("arrival windows");
    // No strip is given twice.
    const strips = [...shared.values()].flat().flatMap((e) => e.quote.split("\n"));
    expect(new Set(strips).size).toBe(strips.length);
  });
});
