import { buildDerivatives, buildLinkedInPost, buildThread, isFaithful, keyClaims } from "../../services/pipeline/article/media/derivatives";
import { MeteredModel } from "../../services/pipeline/article/model/metered-model";
import type { ArticleBody, Evidence, SeoResult } from "../../services/pipeline/article/types";

const EVIDENCE: Evidence[] = [
  { id: "e1", url: "https://guides.example/a", title: "A", quote: "", fetched_at: "", origin: "web" },
  { id: "e2", url: "kb-source:123", title: "B", quote: "", fetched_at: "", origin: "brand" },
];
const CLAIMS = [
  "Teams that cluster jobs within a 15-minute drive radius typically save between 40 and 70 minutes of driving per technician per day.",
  "A two-hour window is a common compromise for routine maintenance visits.",
  "It works offline for up to 72 hours.",
  "Industry benchmarks put a good first-time fix rate at around 80%, while struggling teams sit near 60%.",
];
const BODY: ArticleBody = {
  writer: "extractive",
  sections: [
    { key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "Route planning decides how much of a day is spent driving.", cites: ["e2"] }] }] },
    { key: "s1", role: "body", heading: "Clustering", paragraphs: [{ sentences: [{ text: CLAIMS[0], cites: ["e1"] }, { text: CLAIMS[2], cites: ["e1"] }] }] },
    { key: "s2", role: "body", heading: "Windows", paragraphs: [{ sentences: [{ text: CLAIMS[1], cites: ["e2"] }, { text: CLAIMS[3], cites: ["e1"] }] }] },
  ],
};
const SEO = { title: "Route planning: what you need to know", meta_title: "Route planning: what you need to know", meta_description: "Route planning, explained." } as SeoResult;
const KINDS = ["x_thread", "linkedin", "newsletter"] as const;

describe("derivatives", () => {
  it("takes the key claims that stand alone, with their web links", () => {
    expect(keyClaims(BODY, EVIDENCE, "en")).toEqual([
      { text: CLAIMS[0], url: "https://guides.example/a" },
      { text: CLAIMS[1], url: null },
      { text: "Route planning decides how much of a day is spent driving.", url: null },
      { text: CLAIMS[3], url: "https://guides.example/a" },
    ]);
  });

  it("numbers the thread, keeps every post within 280 characters, and never cuts a claim", () => {
    const long = { text: `${"Very long claim about dispatch ".repeat(10)}.`, url: "https://guides.example/a" };
    const thread = buildThread(SEO.title, [{ text: CLAIMS[0], url: "https://guides.example/a" }, long, { text: CLAIMS[1], url: null }], "en");
    expect(thread).toEqual([`1/3 ${SEO.title} — a thread`, `2/3 ${CLAIMS[0]} https://guides.example/a`, `3/3 ${CLAIMS[1]}`]);
    for (const post of thread) expect(post.length).toBeLessThanOrEqual(280);
  });

  it("keeps the LinkedIn post within 3000 characters however many claims there are", () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ text: `Claim number ${i} about route planning and technicians on the road every day.`, url: "https://guides.example/a" }));
    const post = buildLinkedInPost(SEO.title, "Opening.", many, "en");
    expect(post.length).toBeLessThanOrEqual(3000);
    expect(post.startsWith(`${SEO.title}\n\nOpening.\n\nKey points:\n• Claim number 0`)).toBe(true);
  });

  it("builds only the kinds requested, within bounds", async () => {
    const { derivatives, by } = await buildDerivatives({ kinds: ["x_thread", "newsletter"], body: BODY, seo: SEO, evidence: EVIDENCE, lang: "en" });
    expect(Object.keys(derivatives).sort()).toEqual(["newsletter", "x_thread"]);
    expect(derivatives.newsletter!.subject).toBe(SEO.meta_title);
    expect(derivatives.newsletter!.body).toContain(CLAIMS[0]);
    expect(by).toEqual({ x_thread: "rules", newsletter: "rules" });
  });

  it("uses a model's versions when they are faithful and within bounds, and its own otherwise", async () => {
    const answer = {
      x_thread: ["1/2 Route planning, a thread", `2/2 ${"x".repeat(290)}`],
      linkedin: "Clustered jobs save 40 to 70 minutes a day. https://guides.example/a",
      newsletter: { subject: "Route planning", body: "Clustered jobs save 90 minutes a day." },
    };
    const model = new MeteredModel(async () => ({ text: JSON.stringify(answer), tokensIn: 1, tokensOut: 1 }), async () => undefined, 0);
    const { derivatives, by } = await buildDerivatives({ kinds: [...KINDS], body: BODY, seo: SEO, evidence: EVIDENCE, lang: "en" }, model);
    expect(by).toEqual({ x_thread: "rules", linkedin: "model", newsletter: "rules" });
    expect(derivatives.linkedin).toBe(answer.linkedin);
    expect(derivatives.x_thread!.every((p) => p.length <= 280)).toBe(true);
  });

  it("calls a text faithful when its figures and links are the article's", () => {
    const article = CLAIMS.join(" ");
    const urls = new Set(["https://guides.example/a"]);
    expect(isFaithful("Save 40 to 70 minutes: https://guides.example/a", article, urls)).toBe(true);
    expect(isFaithful("Save 90 minutes.", article, urls)).toBe(false);
    expect(isFaithful("Read https://elsewhere.example/x", article, urls)).toBe(false);
  });
});
