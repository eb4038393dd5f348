import { languageProfile } from "../../services/pipeline/article/language";
import type { CompleteFn } from "../../shared/llm/types";
import type { RetrievedChunk } from "../../shared/schemas/brand";
import { MeteredModel } from "../../services/pipeline/article/model/metered-model";
import { allocateBudgets, bodySectionCount, clampTargetWords, knowledgeThemes, planOutlineByRules, planOutlineWithModel } from "../../services/pipeline/article/brief/outline";
import { decideBriefByRules, detectSearchIntent, type BrandProfileView } from "../../services/pipeline/article/brief/recon";

const PROFILE: BrandProfileView = {
  id: "9b0c7a52-3f0e-4a53-9d59-0d6f7d6b2a11",
  name: "Dispatch Co",
  description: null,
  website_url: "https://dispatch.example",
  voice_profile: null,
  fact_sheet: {
    facts: [
      { fact: "Teams that cluster jobs within a 15-minute drive radius save 40 to 70 minutes of driving per day.", kind: "figure", chunk_id: "c1", source_url: null },
      { fact: "The support team answers within 1 hour for priority 1 issues.", kind: "figure", chunk_id: "c2", source_url: null },
    ],
  },
};

const input = (over: Record<string, unknown> = {}) => ({
  topic: "Route planning for field service teams",
  target_keyword: "route planning",
  mode: "standard" as const,
  language: "en",
  target_words: 1600,
  image: false,
  derivatives: [],
  ...over,
});

const chunk = (heading: string[], text: string, title = "Guide"): RetrievedChunk => ({ chunk_id: heading.join("/"), source_id: "s", url: null, title, heading_path: heading, ordinal: 0, text, context: "", score: 0 });

describe("word budgets", () => {
  it("add up to the target for every target and section count", () => {
    for (let target = 600; target <= 3000; target += 137) {
      for (let count = 3; count <= 8; count++) {
        const { intro, body, conclusion } = allocateBudgets(target, count);
        expect(intro + conclusion + body.reduce((a, b) => a + b, 0)).toBe(target);
        expect(body).toHaveLength(count);
        expect(Math.max(...body) - Math.min(...body)).toBeLessThanOrEqual(1);
      }
    }
  });

  it("clamps targets to 600–3000 and says so", () => {
    expect(clampTargetWords(400)).toEqual({ used: 600, clamped: { requested: 400, used: 600 } });
    expect(clampTargetWords(4000)).toEqual({ used: 3000, clamped: { requested: 4000, used: 3000 } });
    expect(clampTargetWords(1600)).toEqual({ used: 1600 });
  });

  it("scales the body from 3 to 8 sections", () => {
    expect([600, 1000, 1600, 2400, 3000].map(bodySectionCount)).toEqual([3, 3, 5, 8, 8]);
  });
});

describe("plan", () => {
  const brief = decideBriefByRules(input(), PROFILE);

  it("builds introduction, headed body sections and conclusion whose budgets sum to the target", () => {
    const outline = planOutlineByRules(brief, 1600, []);
    expect(outline.sections.map((s) => s.role)).toEqual(["intro", "body", "body", "body", "body", "body", "conclusion"]);
    expect(outline.sections[0].heading).toBe("");
    expect(outline.sections.slice(1).every((s) => s.heading.length > 0)).toBe(true);
    expect(outline.sections.reduce((n, s) => n + s.budget, 0)).toBe(1600);
    expect(new Set(outline.sections.map((s) => s.key)).size).toBe(outline.sections.length);
    expect(outline.sections.some((s) => s.heading.toLowerCase().includes("route planning"))).toBe(true);
  });

  it("uses the subjects the knowledge base covers near the topic as headings, and its facts in briefs", () => {
    // A section of the knowledge base about a part of the topic says so more than once: one sentence naming the
    // topic under a heading that names none of it is, by readers' labels, as often a passing mention
    // (`RelevanceFeatures.elsewhere`).
    const onTopic = "Route planning for field service teams starts with grouping each technician's jobs by area. A route plan built on areas keeps the drive between jobs short.";
    const themes = knowledgeThemes(
      [
        chunk(["Guide", "Clustering jobs by area"], onTopic),
        chunk(["Route planning"], "Route planning decides how much of a field service team's day is spent driving."),
        chunk(["Guide", "Clustering jobs by area"], onTopic),
        chunk(["Dispatch Co"], "Dispatch Co plans routes for field service teams in twelve countries."),
        chunk(["Payroll exports"], "Payroll exports run every Friday and include overtime and holiday pay for each employee."),
        chunk(["Arrival windows"], "Route planning lets field service teams promise narrower arrival windows to customers. A route plan that groups jobs keeps arrival windows narrow."),
      ],
      brief,
      "en",
    );
    // "Route planning" says nothing beyond the topic; the brand's name is no subject; a chunk about something else lends no heading.
    expect(themes.map((t) => t.heading)).toEqual(["Clustering jobs by area", "Arrival windows"]);
    const outline = planOutlineByRules(brief, 1600, themes);
    const headings = outline.sections.map((s) => s.heading);
    expect(headings).toEqual(expect.arrayContaining(["Clustering jobs by area", "Arrival windows"]));
    const clustering = outline.sections.find((s) => s.heading === "Clustering jobs by area")!;
    expect(clustering.brief).toContain("15-minute drive radius");
    expect(clustering.query).toContain("Clustering jobs by area");
  });

  it("never makes a section of a source's reading list, in any language (the debian-reference manuals' own headings)", () => {
    const line = "Route planning for field service teams is covered by the dispatcher's guide and the routing handbook. Each route plan starts from the jobs of the day.";
    const lists = ["More readings for the package management", "Autres lectures concernant la gestion des paquets", "Weitere Lektüre zum Paketmanagement", "See also"];
    const themes = knowledgeThemes([chunk(["Guide", "Clustering jobs by area"], line), ...lists.map((h) => chunk(["Guide", h], line))], brief, "en");
    expect(themes.map((t) => t.heading)).toEqual(["Clustering jobs by area"]);
    expect(languageProfile("fr").furtherReading.test("Autres lectures concernant la gestion des paquets")).toBe(true);
    expect(languageProfile("de").furtherReading.test("Weitere Lektüre zum Paketmanagement")).toBe(true);
    // A subject that merely starts alike is one: "Other resources" is a list, "More recent releases" is not.
    expect(languageProfile("en").furtherReading.test("More recent releases of APT")).toBe(false);
  });

  it("reports a clamped target in the outline", () => {
    const outline = planOutlineByRules(decideBriefByRules(input({ target_words: 400 }), null), 400, []);
    expect(outline).toMatchObject({ requested_words: 400, target_words: 600 });
    expect(outline.sections.filter((s) => s.role === "body")).toHaveLength(3);
  });

  it("takes the model's headings when its JSON fits, keeps the keyword rule, and falls back otherwise", async () => {
    const tokens: number[][] = [];
    const answer = (text: string): CompleteFn => async () => ({ text, tokensIn: 100, tokensOut: 40 });
    const rules = planOutlineByRules(brief, 1600, []);
    const sections = ["Why drive time matters", "Clustering", "Arrival windows", "Emergencies", "Measuring"].map((heading) => ({ heading, brief: `About ${heading}.` }));
    const model = new MeteredModel(answer("```json\n" + JSON.stringify({ sections }) + "\n```"), async (i, o) => void tokens.push([i, o]), 0);
    const planned = await planOutlineWithModel(model, brief, 1600, [], rules);
    expect(planned.planned_by).toBe("model");
    expect(planned.sections.filter((s) => s.role === "body").map((s) => s.heading)).toEqual(["Route planning: an overview", "Clustering", "Arrival windows", "Emergencies", "Measuring"]);
    expect(planned.sections.reduce((n, s) => n + s.budget, 0)).toBe(1600);
    expect(tokens).toEqual([[100, 40]]);

    const broken = new MeteredModel(answer("Here is your outline: 1. Intro 2. Body"), async () => undefined, 0);
    expect(await planOutlineWithModel(broken, brief, 1600, [], rules)).toBe(rules);
  });
});

describe("recon rules", () => {
  it("tells search intents apart", () => {
    expect(detectSearchIntent("how to plan routes for technicians", "en")).toBe("informational");
    expect(detectSearchIntent("best route planning software 2025", "en")).toBe("commercial");
    expect(detectSearchIntent("Routenplanung Software Vergleich", "de")).toBe("commercial");
    expect(detectSearchIntent("route planner free trial sign up", "en")).toBe("transactional");
    expect(detectSearchIntent("Dispatch Co login", "en", "Dispatch Co")).toBe("navigational");
  });

  it("reads the brand's facts that concern the topic", () => {
    const brief = decideBriefByRules(input({ topic: "Cutting drive time with clustered jobs", target_keyword: "drive time" }), PROFILE);
    expect(brief.key_facts.map((f) => f.chunk_id)).toEqual(["c1"]);
    expect(brief.brand).toMatchObject({ name: "Dispatch Co", writing_sample_ids: [] });
    expect(brief.angle).toContain("Dispatch Co");
  });
});
