import { assertEnoughEvidence, draftArticle, fitOutlineToEvidence, NotEnoughEvidenceError, requiredEvidenceSentences } from "../../services/pipeline/article/writers/draft";
import { relevanceModel, requestedAngle } from "../../services/pipeline/article/relevance";
import { ANGLE_BONUS } from "../../services/pipeline/article/relevance/model";
import { unitsOfEvidence, unitsOfPool } from "../../services/pipeline/article/evidence/units";
import { ExtractiveSectionWriter, inDocumentOrder } from "../../services/pipeline/article/writers/extractive-writer";
import { renderArticle } from "../../services/pipeline/article/quality/render";
import { isStep } from "../../services/pipeline/article/evidence/units";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { tokenize } from "../../shared/text/tokenize";
import { sectionWords } from "../../services/pipeline/article/writers/section-writer";
import type { Evidence } from "../../services/pipeline/article/types";
import { evidenceFromPages } from "../support/article-evidence";
import { ROUTE_PLANNING_PAGES } from "../support/fake-searxng";
import { notesBrief, notesPool } from "../support/pasted-notes";

const EVIDENCE: Evidence[] = evidenceFromPages(ROUTE_PLANNING_PAGES, { host: "guides.example", origin: "web" });

const brief = decideBriefByRules(
  { topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard", language: "en", target_words: 1000, image: false, derivatives: [] },
  null,
);

describe("the extractive writer", () => {
  const outline = planOutlineByRules(brief, 1000, [{ heading: "Clustering jobs by area", weight: 1 }, { heading: "Arrival windows and customers", weight: 0.5 }]);

  it("writes only evidence sentences, each citing the passage it was taken from", async () => {
    const { body, report } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, EVIDENCE);
    const byId = new Map(EVIDENCE.map((e) => [e.id, e]));
    const sentences = body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences));
    expect(sentences.length).toBeGreaterThan(20);
    for (const sentence of sentences) {
      expect(sentence.cites).toHaveLength(1);
      expect(byId.get(sentence.cites[0])!.quote).toContain(sentence.text);
    }
    expect(report).toMatchObject({ writer: "extractive", cited_sentences: sentences.length, dropped_citations: 0 });
  });

  it("says nothing twice, writes only sentences about the topic, stays within budgets, and keeps paragraphs short", async () => {
    const { body, report } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, EVIDENCE);
    const texts = body.sections.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text)));
    expect(new Set(texts).size).toBe(texts.length);
    const words = body.sections.reduce((n, s) => n + sectionWords(s, "en"), 0);
    // Sentences not about route planning are left out rather than padding the budget: the guides' pages on
    // phone triage or van apps say nothing of it, so the draft is shorter than the target, and says so.
    expect(words).toBeGreaterThan(0.3 * 1000);
    expect(words).toBeLessThan(1000);
    expect(report.shortfall_words).toBe(1000 - words);
    const relevance = relevanceModel(EVIDENCE, brief);
    const about = new Set(relevance.aboutUnits.flatMap((u) => u.sentences));
    for (const text of texts) expect(about.has(text)).toBe(true);
    for (const section of body.sections) {
      const budget = outline.sections.find((s) => s.key === section.key)!.budget;
      expect(sectionWords(section, "en")).toBeLessThanOrEqual(budget * 1.25);
      for (const p of section.paragraphs) expect(p.sentences.length).toBeLessThanOrEqual(4);
    }
    // Sections take the passages their headings name.
    const clustering = body.sections.find((s) => s.heading === "Clustering jobs by area")!;
    expect(clustering.paragraphs[0].sentences[0].text).toMatch(/group each technician's jobs by neighbourhood|cluster jobs/);
  });

  it("opens every paragraph with its source's own words (an editor found 49 of 91 connectives the writer had added wrong)", async () => {
    const { body } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, EVIDENCE);
    const quotes = EVIDENCE.map((e) => e.quote.replace(/\s+/g, " "));
    const openings = body.sections.flatMap((s) => s.paragraphs.map((p) => p.sentences[0]).filter((x) => x.cites.length));
    expect(openings.length).toBeGreaterThan(1);
    for (const sentence of openings) expect([sentence.text, quotes.some((q) => q.includes(sentence.text))]).toEqual([sentence.text, true]);
    // As the reader sees it: every paragraph of the rendered body opens with a quoted sentence, no word before it.
    const { markdown } = renderArticle(body, [], EVIDENCE, "en");
    const paragraphs = markdown.split("\n\n").filter((p) => p && !p.startsWith("#") && !/^\d+\. /.test(p));
    for (const p of paragraphs) expect([p.slice(0, 40), openings.some((o) => p.startsWith(o.text.slice(0, 30).replace(/([*_`[\]])/g, "\\$1")))]).toEqual([p.slice(0, 40), true]);
  });
});

describe("a step told apart from a statement (isStep)", () => {
  it("reads a sentence telling the reader to do something as a step, in each language", () => {
    expect(isStep("Ändern Sie die Passphrase für das root-Passwort regelmäßig mit dem Befehl passwd.", "de")).toBe(true);
    expect(isStep("Créez un environnement isolé (« chroot ») et faites-y tourner la dernière version.", "fr")).toBe(true);
    expect(isStep("Chez Debian, les paquets sont signés.", "fr")).toBe(false);
    expect(isStep("Edit \"/etc/passwd\" and make the second entry for the root account empty.", "en")).toBe(true);
    expect(isStep("Install the sudo package and enable it by setting options in \"/etc/sudoers\".", "en")).toBe(true);
    for (const statement of ["After the installation, the first user account is created.", "Using the iproute2 commands, you can configure every interface.", "Users the administrator trusts get sudo."]) expect([statement, isStep(statement, "en")]).toEqual([statement, false]);
    expect(isStep("Wenn Sie das root-Passwort kennen, können Sie jeden Befehl ausführen.", "de")).toBe(false);
  });
});

describe("passages of one document in a section", () => {
  // Read in the German password article: the steps of one procedure, split over two passages of ch04, came out
  // with the later passage ("Editieren Sie /etc/passwd …") before the earlier one ("Booten Sie …").
  const at = (id: string, url: string, position?: number): Evidence => ({ id, url, title: "", quote: "", fetched_at: "", origin: "brand", ...(position === undefined ? {} : { position }) });
  const evidence = [at("e1", "https://a.example/ch04", 12), at("e2", "https://b.example/x", 3), at("e3", "https://a.example/ch04", 11), at("e4", "https://a.example/ch04"), at("e5", "https://a.example/ch04", 2)];
  const order = (ids: string[]) => inDocumentOrder(ids.map((evidenceId) => ({ evidenceId })), evidence).map((g) => g.evidenceId);

  it("are read in the document's order, in the places the ranking gave that document", () => {
    expect(order(["e1", "e2", "e3"])).toEqual(["e3", "e2", "e1"]);
    expect(order(["e1", "e3", "e5"])).toEqual(["e5", "e3", "e1"]);
  });

  it("leave other documents' passages, and passages with no known place, where the ranking put them", () => {
    expect(order(["e2", "e4", "e1", "e3"])).toEqual(["e2", "e4", "e3", "e1"]);
    expect(order(["e4", "e2"])).toEqual(["e4", "e2"]);
  });
});

describe("citable units", () => {
  it("keeps a sentence that leans on the one before with it, and drops one whose antecedent was cut off", () => {
    const evidence: Evidence = { ...EVIDENCE[0], quote: "They arrive late. Kestrel Field is the mobile app for technicians on phones. It works offline for up to 72 hours in basements." };
    const units = unitsOfEvidence(evidence, "en");
    expect(units.map((u) => u.sentences)).toEqual([["Kestrel Field is the mobile app for technicians on phones.", "It works offline for up to 72 hours in basements."]]);
  });
});

describe("the evidence threshold", () => {
  const outline = planOutlineByRules(brief, 1600, []);

  it("needs a usable sentence per 40 planned words, at least 10", () => {
    expect(requiredEvidenceSentences(1600)).toBe(40);
    expect(requiredEvidenceSentences(600)).toBe(15);
    expect(requiredEvidenceSentences(300)).toBe(10);
  });

  it("refuses before writing when nothing in the pool is about the topic, naming what is missing", () => {
    expect(() => assertEnoughEvidence(brief, outline, [])).toThrow(/^No passages about “Route planning for field service teams”/);
    const crm = decideBriefByRules({ topic: "Best CRM software for small real estate agencies", mode: "standard", language: "en", target_words: 1600, image: false, derivatives: [], target_keyword: "CRM software" }, null);
    let error: unknown;
    try {
      assertEnoughEvidence(crm, planOutlineByRules(crm, 1600, []), EVIDENCE);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(NotEnoughEvidenceError);
    expect((error as Error).message).toMatch(/^No passages about “CRM”, “agencies” in the sources research found/);
    expect((error as Error).message).toContain("configure web research (SEARCH_PROVIDER)");
  });

  it("refuses a pool in another language than the article's", () => {
    const fr = decideBriefByRules({ topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard", language: "fr", target_words: 1000, image: false, derivatives: [] }, null);
    expect(() => assertEnoughEvidence(fr, planOutlineByRules(fr, 1000, []), EVIDENCE)).toThrow(/^No passages in the requested language \(fr\) in the sources research found \(they are in en\)/);
  });

  it("plans a shorter article when the evidence about the topic is thin, rather than padding it", () => {
    const thin = assertEnoughEvidence(brief, outline, EVIDENCE.slice(0, 4));
    expect(thin.usable).toBeGreaterThanOrEqual(8);
    expect(thin.usable).toBeLessThan(thin.needed);
    const fitted = fitOutlineToEvidence(outline, thin);
    expect(fitted.target_words).toBe(Math.max(320, thin.usable * 40));
    expect(fitted.sections.reduce((n, s) => n + s.budget, 0)).toBe(fitted.target_words);
    expect(fitted.sections.map((s) => s.heading)).toEqual(outline.sections.map((s) => s.heading));
    const full = assertEnoughEvidence(brief, outline, EVIDENCE);
    expect(full).toEqual({ usable: expect.any(Number), needed: 40, pool_coverage: 1 });
  });
});

describe("the introduction's lead (read: « Un nettoyeur haute pression chasse la graisse des roulements et les abîme. » opening a bicycle article)", () => {
  it("opens with a source's own opening on the topic, not the strongest warning from the middle of its notes", async () => {
    const velo = notesBrief("velo", "Comment entretenir son vélo", "entretien vélo");
    const { body } = await draftArticle(new ExtractiveSectionWriter(), velo, planOutlineByRules(velo, 600, []), notesPool("velo"));
    expect(body.sections[0].paragraphs[0].sentences[0].text).toBe("Un vélo bien entretenu roule plus longtemps et coûte moins cher en réparations.");
  });
});

describe("the request's angle steers the material, never its relevance (read: \"Common composting mistakes to avoid\" opening on 'A closed compost bin keeps rain off the heap …')", () => {
  const lang = "en";
  const pool = notesPool("composting");
  const briefOf = (topic: string, keyword: string) => notesBrief("composting", topic, keyword);
  const mistakes = briefOf("Common composting mistakes to avoid", "composting mistakes");
  const plain = briefOf("Composting at home", "composting");

  it("ranks a strip serving the angle higher by ANGLE_BONUS and judges every strip as relevant as without the angle", () => {
    const [withAngle, without] = [relevanceModel(pool, mistakes), relevanceModel(pool, plain)];
    const units = unitsOfPool(pool, lang);
    const serving = units.find((u) => u.text.startsWith("Too much green material"))!;
    const other = units.find((u) => u.text.startsWith("Finished compost is dark brown"))!;
    expect([withAngle.servesAngle(serving.text), withAngle.servesAngle(other.text), without.servesAngle(serving.text)]).toEqual([true, false, undefined]);
    expect(withAngle.strength(serving) - withAngle.strength(other)).toBeCloseTo(without.strength(serving) - without.strength(other) + ANGLE_BONUS, 6);
    for (const u of units) expect(withAngle.onTopic(withAngle.unit(u))).toBe(without.onTopic(without.unit(u)));
  });

  it("opens the introduction with what serves the angle, not with the notes' general opening", async () => {
    const { body } = await draftArticle(new ExtractiveSectionWriter(), mistakes, planOutlineByRules(mistakes, 600, []), pool);
    const opening = body.sections[0].paragraphs[0].sentences.filter((s) => s.cites.length).map((s) => s.text);
    const serves = relevanceModel(pool, mistakes);
    // What fills the introduction's budget after its strongest strips may serve the subject only; its opening serves the angle.
    expect(serves.servesAngle(opening[0])).toBe(true);
    expect(opening[0]).not.toMatch(/^Home composting turns|^A closed compost bin/);
  });
});

describe("a beginner's angle is served by an introduction's place (the held-out probe's \"Getting started with Valgrind\", fifteenth stop)", () => {
  const page = (id: string, title: string, heading: string, quote: string): Evidence => ({ id, url: `https://docs.example/${id}`, title, heading, quote, fetched_at: "2025-01-01T00:00:00.000Z", origin: "brand" });
  const pool = [
    page("qs", "The Valgrind Quick Start Guide", "Introduction", "The Valgrind tool suite provides a number of debugging and profiling tools for your programs."),
    page("core", "Using and understanding the Valgrind core", "Error suppression", "Valgrind reads a list of errors to suppress at startup from a default suppression file."),
  ];
  const brief = (topic: string, language = "en") => ({ ...decideBriefByRules({ topic, target_keyword: topic, mode: "standard" as const, language, target_words: 600, image: false, derivatives: [] }, null) });

  it("ranks a strip under an introduction's title or heading higher by ANGLE_BONUS, its relevance unchanged", () => {
    const [start, plain] = [relevanceModel(pool, brief("Getting started with Valgrind")), relevanceModel(pool, brief("Valgrind"))];
    const [intro, other] = unitsOfPool(pool, "en");
    expect(start.strength(intro) - start.strength(other)).toBeCloseTo(plain.strength(intro) - plain.strength(other) + ANGLE_BONUS, 6);
    // The angle's material is told by its place, not its words: no text alone serves it.
    expect(start.servesAngle(intro.text)).toBeUndefined();
    for (const u of [intro, other]) expect(start.onTopic(start.unit(u))).toBe(plain.onTopic(plain.unit(u)));
  });

  it("is asked for in every language, and a German compound of \"Fehler\" naming something else asks for no mistakes", () => {
    const angleOf = (topic: string, language: string) => requestedAngle({ topic, keyword: topic, language })?.angle;
    expect(angleOf("Getting started with Valgrind", "en")).toBe("start");
    expect(angleOf("Construire un paquet Debian pour la première fois", "fr")).toBe("start");
    expect(angleOf("Erste Schritte mit Valgrind", "de")).toBe("start");
    expect(angleOf("Cómo crear un paquete Debian desde cero", "es")).toBe("start");
    // The Developer's Reference's focused request: a bug report, not a mistake.
    expect(angleOf("Einen Fehlerbericht richtig beantworten", "de")).toBeUndefined();
    expect(angleOf("Häufige Fehler beim Paketbau", "de")).toBe("problems");
  });
});

describe("paragraphs follow the subject (read: one paragraph of pasted notes went from yellow leaves to a Monstera's window)", () => {
  it("opens a new paragraph where a unit shares no word beyond the topic's with a paragraph of two sentences or more", async () => {
    const lang = "de";
    const pflanzen = notesBrief("zimmerpflanzen", "Zimmerpflanzen richtig pflegen", "Zimmerpflanzen pflegen");
    const { body } = await draftArticle(new ExtractiveSectionWriter(), pflanzen, planOutlineByRules(pflanzen, 600, []), notesPool("zimmerpflanzen"));
    const topic = new Set(tokenize(`${pflanzen.topic} ${pflanzen.keyword}`, lang));
    const words = (texts: readonly string[]) => new Set(texts.flatMap((t) => tokenize(t, lang)).filter((t) => !topic.has(t)));
    let checked = 0;
    for (const paragraph of body.sections.flatMap((s) => s.paragraphs)) {
      const texts = paragraph.sentences.map((s) => s.text);
      // Every sentence after the second shares a word beyond the topic's with the sentences before it.
      for (let i = 2; i < texts.length; i++) {
        const before = words(texts.slice(0, i));
        expect([texts[i], [...words([texts[i]])].some((t) => before.has(t))]).toEqual([texts[i], true]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});
