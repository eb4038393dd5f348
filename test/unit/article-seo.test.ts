import jsonld from "jsonld";
import { GeneratedArticle } from "../../shared/schemas/articles";
import { draftArticle } from "../../services/pipeline/article/writers/draft";
import { ExtractiveSectionWriter } from "../../services/pipeline/article/writers/extractive-writer";
import { MeteredModel } from "../../services/pipeline/article/model/metered-model";
import { overviewHeading, planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { containsKeyword, namesKeyword, placeKeyword, slugify, truncateAtWord } from "../../services/pipeline/article/search/seo";
import { optimizeForSearch, planSearchMetadata } from "../../services/pipeline/article/search/metadata";
import { faqPassages } from "../../services/pipeline/article/search/faq";
import type { ArticleBody, Evidence } from "../../services/pipeline/article/types";
import { evidenceFromPages } from "../support/article-evidence";
import { ROUTE_PLANNING_PAGES } from "../support/fake-searxng";

const EVIDENCE: Evidence[] = evidenceFromPages(ROUTE_PLANNING_PAGES, { host: "guides.example", origin: "web" });
const input = { topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard" as const, language: "en", target_words: 1000, image: false, derivatives: [] };
const brief = decideBriefByRules(input, { id: "9b0c7a52-3f0e-4a53-9d59-0d6f7d6b2a11", name: "Dispatch Co", description: null, website_url: "https://dispatch.example", voice_profile: null, fact_sheet: null });
const outline = planOutlineByRules(brief, 600, []);
/** The body is written from the first guides; the FAQ may then answer from passages the body did not quote. */
const draft = () => draftArticle(new ExtractiveSectionWriter(), brief, outline, EVIDENCE.slice(0, 6)).then((d) => d.body);

/** schema.org's context as a local document (no network): `@vocab` is what the real context declares. */
const documentLoader = async (url: string) => ({ contextUrl: undefined, documentUrl: url, document: { "@context": { "@vocab": "http://schema.org/" } } });
const lower = (t: string) => t.toLowerCase();

describe("slugs and bounds", () => {
  it("folds accents, drops punctuation and stays within 60 characters at a word boundary", () => {
    expect(slugify("Café Übersicht: Größe & Preis")).toBe("cafe-ubersicht-grosse-preis");
    expect(slugify("  Route planning -- for field service teams!  ")).toBe("route-planning-for-field-service-teams");
    const long = slugify("route planning ".repeat(10));
    expect(long.length).toBeLessThanOrEqual(60);
    expect(long).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(slugify("東京の配車計画")).toBe("");
  });

  it("cuts text at a word with an ellipsis", () => {
    expect(truncateAtWord("short", 60)).toBe("short");
    const cut = truncateAtWord("Route planning decides how much of a technician's day is spent working and how much is spent driving.", 40);
    expect(cut.length).toBeLessThanOrEqual(40);
    expect(cut.endsWith("…")).toBe(true);
  });
});

/** The sentence `placeKeyword` opens an article with when its first paragraph does not name the keyword. */
function framingOf(keyword: string, language: string, audience: string | null): string {
  const body: ArticleBody = {
    writer: "extractive",
    sections: [{ key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "Mirrors are needed.", cites: ["e1"] }] }] }],
  };
  return placeKeyword(body, { ...brief, topic: keyword, keyword, language, audience }).body.sections[0].paragraphs[0].sentences[0].text;
}

describe("seo", () => {
  it("produces bounded metadata, variants, a grounded FAQ and JSON-LD, with the keyword where it belongs", async () => {
    // A glossary entry defines the keyword: what "What is route planning?" needs for an answer that answers it.
    const GLOSSARY: Evidence = {
      id: "e99",
      url: "https://guides.example/glossary",
      title: "Field service glossary",
      heading: "Route planning",
      quote: "Route planning is the work of deciding the order in which a technician visits the day's jobs.\nRoute planning software is a tool that re-orders the remaining stops when a job runs long, so the technician keeps moving.",
      fetched_at: "2025-01-01T00:00:00.000Z",
      origin: "web",
    };
    const { seo, body, report } = await optimizeForSearch(await draft(), brief, [...EVIDENCE, GLOSSARY]);
    expect(seo.meta_title.length).toBeLessThanOrEqual(60);
    expect(seo.meta_description.length).toBeLessThanOrEqual(160);
    expect(seo.slug).toBe("route-planning");
    expect(seo.title_variants.length).toBeGreaterThanOrEqual(3);
    expect(new Set([seo.title, ...seo.title_variants]).size).toBe(seo.title_variants.length + 1);
    for (const t of [seo.title, seo.meta_title, seo.meta_description, ...seo.title_variants]) expect(lower(t)).toContain("route planning");
    expect(lower(body.sections[0].paragraphs[0].sentences.map((s) => s.text).join(" "))).toContain("route planning");
    expect(body.sections.some((s) => lower(s.heading).includes("route planning"))).toBe(true);

    // FAQ answers are evidence, cited, and not sentences the body already quotes.
    expect(seo.faq.length).toBeGreaterThanOrEqual(3);
    const byId = new Map(EVIDENCE.map((e) => [e.id, e]));
    const quoted = new Set(body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text))));
    for (const item of seo.faq) {
      expect(item.question.endsWith("?")).toBe(true);
      expect(item.question).not.toMatch(/:\s/);
      expect(quoted.has(item.answer)).toBe(false);
      expect(item.cites.length).toBeGreaterThan(0);
      expect(item.cites.some((id) => (byId.get(id) ?? GLOSSARY).quote.includes(item.answer))).toBe(true);
    }
    // A "what is" question is answered by a definition, not by a sentence that merely mentions the keyword.
    const whatIs = seo.faq.find((f) => f.question === "What is route planning?");
    expect(whatIs?.answer).toMatch(/^Route planning is /);
    expect(report.faq).toBe(seo.faq.length);

    // JSON-LD that a processor accepts, with Article and FAQPage.
    const expanded = await jsonld.expand(seo.json_ld as never, { documentLoader: documentLoader as never });
    const types = expanded.flatMap((n) => (n["@type"] as string[]) ?? []);
    expect(types).toEqual(expect.arrayContaining(["http://schema.org/Article", "http://schema.org/FAQPage"]));
    const faqPage = expanded.find((n) => (n["@type"] as string[]).includes("http://schema.org/FAQPage"))!;
    expect((faqPage["http://schema.org/mainEntity"] as unknown[]).length).toBe(seo.faq.length);
    expect(JSON.stringify(seo.json_ld)).toContain('"publisher":{"@type":"Organization","name":"Dispatch Co","url":"https://dispatch.example"}');

    // It fits the contract of articles.saveGenerated.
    const shape = GeneratedArticle.pick({ meta_title: true, meta_description: true, slug: true, title_variants: true, json_ld: true });
    const { meta_title, meta_description, slug, title_variants, json_ld } = seo;
    expect(shape.safeParse({ meta_title, meta_description, slug, title_variants, json_ld }).success).toBe(true);
  });

  it("frames the first paragraph and names a heading when the evidence does not carry the keyword", () => {
    const body: ArticleBody = {
      writer: "extractive",
      sections: [
        { key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "Dispatchers plan the day before.", cites: ["e1"] }] }] },
        { key: "s1", role: "body", heading: "Clustering jobs", paragraphs: [{ sentences: [{ text: "Jobs are grouped by area.", cites: ["e2"] }] }] },
      ],
    };
    const placed = placeKeyword(body, { ...brief, audience: "small service companies" });
    expect(placed).toMatchObject({ framed: true, headingChanged: true });
    expect(placed.body.sections[0].paragraphs[0].sentences[0]).toEqual({ text: "This article looks at route planning for small service companies.", cites: [] });
    expect(placed.body.sections[1].heading).toBe("Route planning: Clustering jobs");
    expect(body.sections[1].heading).toBe("Clustering jobs");
  });

  it("frames a keyword written as a question as a question, in each language, never embedded as it was asked", () => {
    const framing = (keyword: string, language: string) => framingOf(keyword, language, "volunteers");
    // "This article looks at how can I contribute …" was no English (the held-out probe, tenth stop).
    expect(framing("How can I contribute to the Debian project?", "en")).toBe("This article answers the question: How can I contribute to the Debian project?");
    expect(framing("Where do I get help with Debian", "en")).toBe("This article answers the question: Where do I get help with Debian?");
    expect(framing("Comment fonctionne sudo ?", "fr")).toBe("Cet article répond à la question : Comment fonctionne sudo ?");
    expect(framing("¿Qué puede comer un gato?", "es")).toBe("Este artículo responde a la pregunta: ¿Qué puede comer un gato?");
    expect(framing("Wie funktioniert sudo?", "de")).toBe("Dieser Artikel beantwortet die Frage: Wie funktioniert sudo?");
    // A clause that is no question is embedded as before.
    expect(framing("How to schedule tasks with cron", "en")).toBe("This article looks at how to schedule tasks with cron for volunteers.");
  });

  it("frames and heads a request for an explanation by its subject, the participle left to the title, in each language", () => {
    const framing = (keyword: string, language: string) => framingOf(keyword, language, null);
    // «Este artículo trata sobre el archivo debian/control explicado.» and «…explicado: una visión general» (the held-out probe).
    expect(framing("El archivo debian/control explicado", "es")).toBe("Este artículo trata sobre el archivo debian/control.");
    expect(overviewHeading("El archivo debian/control explicado", "es")).toBe("El archivo debian/control: una visión general");
    expect(framing("Green and brown material explained", "en")).toBe("This article looks at green and brown material.");
    expect(overviewHeading("Les distributions Debian expliquées", "fr")).toBe("Les distributions Debian : vue d'ensemble");
    expect(overviewHeading("Die Datei debian/rules erklärt", "de")).toBe("Die Datei debian/rules: ein Überblick");
    // Nothing else is taken from a keyword, and a keyword that is only the participle stays whole.
    expect(overviewHeading("Explained", "en")).toBe("Explained: an overview");
    expect(overviewHeading("Composting at home", "en")).toBe("Composting at home: an overview");
  });

  it("keeps a model's proposals only where they follow the rules", async () => {
    const answer = {
      title: "Route planning that gives technicians their afternoons back",
      title_variants: ["Route planning, minute by minute", "A guide without the keyword"],
      meta_description: "x".repeat(150) + " route planning and more words beyond the limit",
      faq_questions: ["How long should arrival windows be?", "What should a well-stocked van carry?"],
    };
    const model = new MeteredModel(async () => ({ text: JSON.stringify(answer), tokensIn: 1, tokensOut: 1 }), async () => undefined, 0);
    const { seo, report } = await optimizeForSearch(await draft(), brief, EVIDENCE, model);
    expect(report.by).toBe("model");
    expect(seo.title).toBe(answer.title);
    expect(seo.title_variants[0]).toBe("Route planning, minute by minute");
    expect(seo.title_variants).not.toContain("A guide without the keyword");
    expect(seo.meta_description.length).toBeLessThanOrEqual(160);
    // The model's questions come first, each answered by a relevant passage the body does not quote.
    const body = await draft();
    const quoted = new Set(body.sections.flatMap((x) => x.paragraphs.flatMap((p) => p.sentences.map((y) => y.text))));
    for (const f of seo.faq) expect(quoted.has(f.answer)).toBe(false);
    const byQuestion = new Map(seo.faq.map((f) => [f.question, f.answer]));
    expect(byQuestion.get("How long should arrival windows be?")).toMatch(/arrival windows/);
    // The van's stock is parts, not routes: no passage about route planning answers it, so it is not asked.
    expect(byQuestion.has("What should a well-stocked van carry?")).toBe(false);
    expect(seo.meta_title.length).toBeLessThanOrEqual(60);
  });

  it("lets a model ask the FAQ's questions of the passages it is shown, and keeps a pair only where the passage answers it", async () => {
    const passages = faqPassages(brief, EVIDENCE, new Set()).map((u) => ({ key: u.key, text: u.text }));
    expect(passages.slice(0, 2).map((p) => p.text)).toEqual([
      "Good route planning also makes arrival times predictable for customers.",
      "Dispatchers who plan routes the evening before can promise narrower arrival windows the next morning.",
    ]);
    let prompt = "";
    // What real models return varies: labels as "f1", 2 or "[f3]"; an unknown label, a pair that is not one.
    const answer = {
      title: "Route planning",
      meta_description: "",
      faq: [
        { passage: "f1", question: "How does route planning make arrival times predictable?" },
        { passage: 2, question: "When should dispatchers plan routes to promise narrower arrival windows?" },
        { passage: "[f3]", question: "How should a florist arrange tulips?" },
        { passage: "f9", question: "How long should arrival windows be?" },
        { question: "Is this a pair?" },
      ],
    };
    const model = new MeteredModel(
      async (messages) => {
        prompt = messages.map((m) => m.content).join("\n");
        return { text: JSON.stringify(answer), tokensIn: 1, tokensOut: 1 };
      },
      async () => undefined,
      0,
    );
    const plan = await planSearchMetadata(brief, { headings: ["Route planning"], opening: "", faqPassages: passages }, EVIDENCE, model);
    // The prompt shows each passage under its label.
    expect(prompt).toContain(`f1: ${passages[0].text}`);
    expect(plan.by).toBe("model");
    const byQuestion = new Map(plan.faq_candidates.map((f) => [f.question, f.answer]));
    expect(byQuestion.get(answer.faq[0].question!)).toBe(passages[0].text);
    expect(byQuestion.get(answer.faq[1].question!)).toBe(passages[1].text);
    // Tulips are not what the third passage says; an unknown label answers nothing.
    expect(byQuestion.has("How should a florist arrange tulips?")).toBe(false);
    expect([...byQuestion.values()].filter((a) => a === passages[2].text).length).toBeLessThanOrEqual(1);
    // The empty description did not cost the model's FAQ; the rules' description stands in.
    expect(plan.meta_description).toBeNull();
  });
});

describe("naming the keyword in the opening paragraph", () => {
  it("reads hyphens and underscores as spaces, and counts every content term of the keyword present as naming it", () => {
    expect(containsKeyword("Use apt-pinning with care on a stable system.", "APT pinning")).toBe(true);
    expect(containsKeyword("Use apt_pinning with care on a stable system.", "apt-pinning")).toBe(true);
    expect(containsKeyword("Pinning keeps APT from upgrading a package.", "APT pinning")).toBe(false);
    expect(namesKeyword("Recovery of a broken system starts from the last full backup.", "backup and recovery", "en")).toBe(true);
    expect(namesKeyword("Backups are copies of the data kept on another disk.", "backup and recovery", "en")).toBe(false);
  });

  it("asks the keyword's subject of the paragraph, not its angle words (read: « Sujet de cet article : entretien vélo. » framing a paragraph on the bicycle)", () => {
    expect(namesKeyword("Un vélo bien entretenu roule plus longtemps et coûte moins cher en réparations.", "entretien vélo", "fr")).toBe(true);
    expect(namesKeyword("Die meisten Zimmerpflanzen sterben an zu viel Wasser, nicht an zu wenig.", "Zimmerpflanzen pflegen", "de")).toBe(true);
    expect(namesKeyword("Home composting turns kitchen scraps into soil.", "composting mistakes", "en")).toBe(true);
    expect(namesKeyword("Bacteria, fungi and worms do the work of breaking it down.", "composting mistakes", "en")).toBe(false);
    // A heading with a subtitle takes no second one ("Composting mistakes: Composting: an overview").
    const mistakes = decideBriefByRules({ ...input, topic: "Common composting mistakes to avoid", target_keyword: "composting mistakes" }, null);
    const body: ArticleBody = { writer: "extractive", sections: [
      { key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "Meat attracts rats to a compost heap.", cites: ["e1"] }] }] },
      { key: "s1", role: "body", heading: "Composting: an overview", paragraphs: [{ sentences: [{ text: "A closed bin keeps rain off the heap.", cites: ["e1"] }] }] },
    ] };
    const placed = placeKeyword(body, mistakes);
    expect([placed.headingChanged, placed.body.sections[1].heading]).toEqual([false, "Composting: an overview"]);
    // The subject is still asked whole.
    expect(namesKeyword("La chaîne doit être nettoyée et graissée.", "entretien vélo", "fr")).toBe(false);
  });
});
