import { assertEnoughEvidence, draftArticle, MIN_TOPIC_SENTENCES, NotEnoughEvidenceError } from "../../services/pipeline/article/writers/draft";
import { evidenceFromPages } from "../support/article-evidence";
import { unitsOfPool } from "../../services/pipeline/article/evidence/units";
import { ExtractiveSectionWriter } from "../../services/pipeline/article/writers/extractive-writer";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { CALIBRATION, gradePoolWithModel, relevanceModel, relevanceProbability, subjectFromPool } from "../../services/pipeline/article/relevance";
import { readGrade } from "../../services/pipeline/article/relevance/model-grades";
import { MeteredModel } from "../../services/pipeline/article/model/metered-model";
import type { CompleteFn } from "../../shared/llm/types";
import { analyseRequest } from "../../services/pipeline/article/relevance/request";
import { SMALL_KNOWLEDGE_BASES } from "../../bench/relevance/knowledge-bases";
import { supportShare, topicalShare } from "../../services/pipeline/article/quality/score";
import { groundFaq } from "../../services/pipeline/article/search/faq";
import { metaDescriptionFrom, placeKeyword, readsAsOneTitle, titleCandidates } from "../../services/pipeline/article/search/seo";
import { optimizeForSearch } from "../../services/pipeline/article/search/metadata";
import { embedPhrase, gerund, isVerbPhrase, topicShape } from "../../services/pipeline/article/search/topic-phrasing";
import { type ArticleBody, type Evidence, SEARCH_INTENTS, sentencesIn } from "../../services/pipeline/article/types";
import { tokenize } from "../../shared/text/tokenize";
import { FIXTURE_PAGES, FIXTURE_TEXT_PAGE } from "../support/fixture-site";
import { notesPool, pastedBrief, pastedPool } from "../support/pasted-notes";
import { HELD_OUT_KNOWLEDGE_BASES } from "../../bench/held-out/knowledge-bases";

/** The fixture company's site as research stores it: one evidence item per page section, plus the getting-started text. */
const KESTREL: Evidence[] = [
  ...evidenceFromPages(FIXTURE_PAGES, { host: "kestrel.example", origin: "brand" }),
  {
    id: "e99",
    url: `https://kestrel.example${FIXTURE_TEXT_PAGE.path}`,
    title: "Getting started with Kestrel",
    quote: FIXTURE_TEXT_PAGE.text.replace(/^\d\. /gm, ""),
    fetched_at: "2025-01-01T00:00:00.000Z",
    origin: "brand" as const,
  },
];

const TOPIC = "How field-service contractors can cut drive time with smarter scheduling";
const brief = decideBriefByRules({ topic: TOPIC, target_keyword: TOPIC, mode: "standard", language: "en", target_words: 900, image: false, derivatives: [] }, null);
const OFF_TOPIC = [/data region/, /publish once or twice a month/, /release notes/, /Calendar sync/, /Import your customers from a CSV/];

const allSentences = (body: ArticleBody) => sentencesIn(body.sections);

describe("relevance of evidence to the topic", () => {
  it("ranks the case study above the sign-up steps and the blog schedule", () => {
    const relevance = relevanceModel(KESTREL, brief);
    const units = unitsOfPool(KESTREL, "en");
    const scoreOf = (re: RegExp) => relevance.unit(units.find((u) => re.test(u.text))!);
    expect(scoreOf(/Average drive time fell/)).toBeGreaterThan(scoreOf(/Kestrel Ledger turns/));
    expect(relevance.onTopic(scoreOf(/Average drive time fell/))).toBe(true);
    for (const re of [/data region/, /publish once or twice/, /Calendar sync/]) expect(relevance.onTopic(scoreOf(re))).toBe(false);
    // A known miss: the invoicing sentence says "field service contractors", the request's audience, which a
    // lexical model cannot tell from its subject; it ranks far below the case study all the same.
    expect(relevance.strength(units.find((u) => /Kestrel Ledger turns/.test(u.text))!)).toBeLessThan(relevance.strength(units.find((u) => /Average drive time fell/.test(u.text))!) / 2);
  });

  it("never puts an off-topic sentence of the pool into the draft, and reports the shortfall instead of padding", async () => {
    const outline = planOutlineByRules(brief, 900, [{ heading: "Why contractors switch to Kestrel", weight: 1 }]);
    const { body, report } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, KESTREL);
    const texts = allSentences(body).map((s) => s.text);
    expect(texts.length).toBeGreaterThan(5);
    for (const re of OFF_TOPIC) expect(texts.filter((t) => re.test(t))).toEqual([]);
    // The introduction leads with the strongest on-topic evidence (the model's log-odds): the case study's drive-time figures.
    const intro = body.sections[0].paragraphs.flatMap((p) => p.sentences.map((s) => s.text)).join(" ");
    expect(intro).toMatch(/drive time/);
    expect(report.target_words).toBe(900);
    expect(report.shortfall_words).toBeGreaterThan(0);
  });

  it("scores topical relevance down for true sentences about something else, and support only by the quotes", () => {
    const cite = (re: RegExp) => {
      const e = KESTREL.find((x) => re.test(x.quote))!;
      return { text: e.quote.split(/(?<=\.)\s+/).find((t) => re.test(t))!, cites: [e.id] };
    };
    const body = (sentences: ReturnType<typeof cite>[]): ArticleBody => ({ writer: "extractive", sections: [{ key: "intro", role: "intro", heading: "", paragraphs: [{ sentences }] }] });
    const onTopic = body([cite(/Average drive time fell/), cite(/drive time averaged/)]);
    const offTopic = body([cite(/Average drive time fell/), cite(/publish once or twice/), cite(/Import your customers/), cite(/Calendar sync/)]);
    expect(topicalShare(onTopic, KESTREL, brief)).toBe(1);
    expect(topicalShare(offTopic, KESTREL, brief)).toBeLessThanOrEqual(0.25);
    // True quotations are supported whatever their subject: support and relevance are separate parts of the score.
    expect(supportShare(offTopic, KESTREL, "en")).toBe(1);
  });
});

describe("the topic in the pipeline's own words", () => {
  const shapes = [
    { topic: "How field-service contractors can cut drive time with smarter scheduling", shape: "how-can" },
    { topic: "Best scheduling software for HVAC contractors", shape: "best" },
    { topic: "Route batching vs manual dispatching", shape: "versus" },
    { topic: "Why first-time fix rate matters", shape: "why" },
    { topic: "Route planning for small plumbing firms", shape: "noun" },
    { topic: "How to plan routes for a small team", shape: "how-to" },
  ] as const;

  it.each(shapes)("writes grammatical titles for '$topic'", ({ topic, shape }) => {
    expect(topicShape(topic)).toBe(shape);
    const b = decideBriefByRules({ topic, target_keyword: topic, mode: "standard", language: "en", target_words: 900, image: false, derivatives: [] }, null);
    const titles = titleCandidates(b);
    expect(titles.length).toBeGreaterThanOrEqual(4);
    expect(new Set(titles).size).toBe(titles.length);
    const first = topic.split(" ")[0];
    for (const t of titles) {
      expect(t[0]).toBe(t[0].toUpperCase());
      // The topic's capitalised first word never stands mid-sentence, and no template wraps a clause.
      expect(t.slice(1)).not.toContain(` ${first} `);
      expect(t).not.toMatch(/^(What is|A practical guide to|Understanding) (How|Why|Best)\b/);
      expect(t).not.toMatch(/: what you need to know: /);
    }
    // A long topic is the title as it is, with nothing appended.
    if (topic.length > 50) expect(titles[0]).toBe(topic);
    const framed = placeKeyword({ writer: "extractive", sections: [{ key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "Dispatch boards show every job.", cites: ["e1"] }] }] }] }, b);
    const framing = framed.body.sections[0].paragraphs[0].sentences[0].text;
    expect(framing).not.toContain(` ${first} `);
    expect(framing.toLowerCase()).toContain(topic.slice(1).toLowerCase());
  });

  // Two requests of a held-out probe (the Debian FAQ crawled, 2026-11-27) that failed their jobs: a subtitle
  // left two titles where the API promises three variants, and "How can I …?" was taken for "How <who> can …".
  it.each(["en", "fr", "de", "es"])("gives a title and three variants that each read as one title, whatever the request's shape (%s)", (language) => {
    const topics = [
      "Customizing a Debian installation: tips for beginners",
      "How can I contribute to the Debian project?",
      "How do I keep Debian up to date",
      "Backups: a checklist",
      "Tips",
      { fr: "Personnaliser Debian : conseils pour débutants", de: "Debian anpassen: Tipps für Einsteiger", es: "Personalizar Debian: consejos para principiantes", en: "Route planning" }[language]!,
    ];
    for (const topic of topics) {
      for (const intent of SEARCH_INTENTS) {
        const titles = titleCandidates({ ...decideBriefByRules({ topic, target_keyword: topic, mode: "standard", language, target_words: 900, image: false, derivatives: [] }, null), intent });
        expect({ topic, intent, enough: titles.length >= 4 }).toEqual({ topic, intent, enough: true });
        for (const t of titles) expect(readsAsOneTitle(t)).toBe(true);
      }
    }
    expect(topicShape("How can I contribute to the Debian project?")).toBe("how");
  });

  // The article-quality bench's variants (2026-11-28): "Understanding getting started with systemd: the essentials",
  // "Understanding managing user accounts and passwords: the essentials", "Common composting mistakes to avoid explained".
  it.each(["Getting started with systemd", "Managing user accounts and passwords", "Common composting mistakes to avoid"])("wraps no noun template around a verb phrase ('%s')", (topic) => {
    expect(isVerbPhrase(topic)).toBe(true);
    for (const keyword of [topic, topic.split(" ").pop()!]) {
      for (const intent of SEARCH_INTENTS) {
        const titles = titleCandidates({ ...decideBriefByRules({ topic, target_keyword: keyword, mode: "standard", language: "en", target_words: 900, image: false, derivatives: [] }, null), intent });
        expect(titles.length).toBeGreaterThanOrEqual(4);
        // The noun templates around the phrase: "Understanding {K}", "Choosing {K}", "Finding your way around {K}",
        // "Getting started with {K}", "{K} explained", "{K} compared".
        const phrase = topic.toLowerCase();
        const wrapped = [`understanding ${phrase}`, `choosing ${phrase}`, `finding your way around ${phrase}`, `getting started with ${phrase}`, `${phrase} explained`, `${phrase} compared`];
        for (const t of titles) expect([t, wrapped.some((w) => t.toLowerCase().includes(w))]).toEqual([t, false]);
      }
    }
    // A noun phrase keeps every template.
    expect(isVerbPhrase("Route planning")).toBe(false);
    expect(isVerbPhrase("Marketing")).toBe(false);
    expect(titleCandidates(decideBriefByRules({ topic: "Route planning", target_keyword: "Route planning", mode: "standard", language: "en", target_words: 900, image: false, derivatives: [] }, null))).toContain("Understanding route planning: the essentials");
  });

  it("builds the how-to shapes from the clause", () => {
    const titles = titleCandidates(brief);
    expect(titles).toEqual([
      TOPIC,
      "Cutting drive time with smarter scheduling: a guide for field-service contractors",
      "How can field-service contractors cut drive time with smarter scheduling?",
      "Practical ways field-service contractors can cut drive time with smarter scheduling",
    ]);
    expect(gerund("plan")).toBe("planning");
    expect(gerund("reduce")).toBe("reducing");
    expect(gerund("boost")).toBe("boosting");
  });

  it("lower-cases a phrase mid-sentence unless it opens with a name or an acronym", () => {
    expect(embedPhrase("How contractors can cut drive time")).toBe("how contractors can cut drive time");
    expect(embedPhrase("CRM tools for plumbers")).toBe("CRM tools for plumbers");
    expect(embedPhrase("HubSpot for contractors")).toBe("HubSpot for contractors");
    expect(embedPhrase("Google Ads for plumbers")).toBe("Google Ads for plumbers");
    // A verb in -ing before a name is no part of the name (read in the held-out probe's framing sentence).
    expect(embedPhrase("Understanding Debian's package management tools")).toBe("understanding Debian's package management tools");
    expect(embedPhrase("Choosing Google Ads for plumbers")).toBe("choosing Google Ads for plumbers");
    expect(embedPhrase("Kestrel pricing", "Kestrel Grove Software")).toBe("Kestrel pricing");
  });
});

describe("FAQ and meta description from on-topic evidence", () => {
  const contentTerms = (text: string) => tokenize(text).filter((t) => !["much", "do", "doe", "did"].includes(t));

  it("asks only what its answers answer, never 'What is How …'", async () => {
    const outline = planOutlineByRules(brief, 900, []);
    const { body: drafted } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, KESTREL);
    // The full draft quotes every strip the model judges relevant, which leaves the FAQ nothing to add: it is
    // empty rather than malformed. With only the introduction written, the rest is left for questions.
    expect(groundFaq([], brief, KESTREL, { body: drafted })).toEqual([]);
    const body = { ...drafted, sections: drafted.sections.slice(0, 1) };
    const faq = groundFaq([], brief, KESTREL, { body });
    expect(faq.length).toBeGreaterThanOrEqual(2);
    const quoted = new Set(allSentences(body).map((s) => s.text));
    for (const f of faq) {
      expect(quoted.has(f.answer)).toBe(false);
      expect(f.question).not.toMatch(/\b(is|does|about) How\b/);
      expect(f.question.endsWith("?")).toBe(true);
      const asked = contentTerms(f.question);
      const answer = new Set(tokenize(f.answer));
      // The subject the question asks about is quoted from the answer (the verb may be inflected: "fell" / "fall").
      expect(asked.filter((t) => answer.has(t)).length).toBeGreaterThanOrEqual(Math.ceil((asked.length * 2) / 3));
      expect(KESTREL.find((e) => e.id === f.cites[0])!.quote).toContain(f.answer);
      for (const re of OFF_TOPIC) expect(f.answer).not.toMatch(re);
    }
  });

  it("summarises with the strongest on-topic evidence, not a framing sentence", async () => {
    const outline = planOutlineByRules(brief, 900, []);
    const { body } = await draftArticle(new ExtractiveSectionWriter(), brief, outline, KESTREL);
    const { seo } = await optimizeForSearch(body, brief, KESTREL);
    expect(seo.meta_description.length).toBeLessThanOrEqual(160);
    expect(seo.meta_description).not.toMatch(/This article looks at/);
    expect(seo.meta_description).toMatch(/drive time/);
    const cited = allSentences(body).filter((s) => s.cites.length).map((s) => s.text);
    expect(cited.some((t) => seo.meta_description.replace(/…$/, "").startsWith(t.slice(0, 40)))).toBe(true);
    // A noun-phrase keyword the sentences do not name still opens the description.
    const nounBrief = { ...brief, topic: "Route batching for contractors", keyword: "route batching" };
    expect(metaDescriptionFrom(body, nounBrief, KESTREL).toLowerCase()).toContain("route batching");
  });

  it("does not say the keyword twice when the description names its words in another order (read: \"Composting at home: Home composting turns …\")", () => {
    const sentence = "Home composting turns kitchen scraps and garden waste into a dark, crumbly soil improver.";
    const body: ArticleBody = { writer: "extractive", sections: [{ key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: sentence, cites: ["e1"] }] }] }] };
    const composting = { ...brief, topic: "How to start composting at home", keyword: "composting at home" };
    expect(metaDescriptionFrom(body, composting)).toBe(sentence);
  });
});

describe("a small profile's name and description say what its notes are about (bench/relevance/knowledge-bases.ts)", () => {
  // Pasted maintenance notes say "chaîne", "pneus", "freins" and name the bicycle in 2 of 28 facts; houseplant
  // notes name "Zimmerpflanzen" in 4. Read as a customer types them, the requests below are covered.
  const usableFor = (kb: "velo" | "zimmerpflanzen" | "huerto", topic: string, withBrand: boolean) => {
    const { lang, brand } = SMALL_KNOWLEDGE_BASES[kb];
    const pool = notesPool(kb);
    const request = { topic, keyword: topic, language: lang, brand: withBrand ? brand : null };
    const model = relevanceModel(pool, { ...request, subject: subjectFromPool(pool, request) });
    return unitsOfPool(pool, lang).filter((u) => model.coverage.isAbout(u)).reduce((n, u) => n + u.sentences.length, 0);
  };

  it.each([
    ["velo", "Comment entretenir son vélo"],
    ["zimmerpflanzen", "Zimmerpflanzen richtig pflegen"],
  ] as const)("covers %s: “%s” from the notes as a whole", (kb, topic) => {
    // Without them, only the notes naming the subject (2 and 4) are about it.
    expect(usableFor(kb, topic, false)).toBeLessThanOrEqual(4);
    expect(usableFor(kb, topic, true)).toBeGreaterThan(20);
  });

  it("still asks the notes for a narrower subject: four facts on brakes are not an article", () => {
    expect(usableFor("velo", "Entretien des freins de vélo", true)).toBeLessThan(MIN_TOPIC_SENTENCES);
  });

  it("takes the profile's own words for what it is about, not for the request's subject (read: “Cultivar tomates en casa” written from the whole garden)", () => {
    const { lang, brand } = SMALL_KNOWLEDGE_BASES.huerto;
    const pool = notesPool("huerto");
    const request = { topic: "Cultivar tomates en casa", keyword: "tomates en casa", language: lang, brand };
    const terms = subjectFromPool(pool, request).terms;
    // "cultivar" and "casa" are the profile's ("Huerto en Casa", "Consejos para cultivar un huerto urbano");
    // "tomates", in 3 of 26 notes, is the subject: under the fitted threshold over a small pool's sentences.
    expect(Object.fromEntries(terms.map((t) => [t.surface.toLowerCase(), t.ubiquitous]))).toEqual({ cultivar: true, tomates: false, casa: true });
    expect(usableFor("huerto", "Cultivar tomates en casa", true)).toBeLessThan(usableFor("huerto", "Cómo empezar un huerto en casa", true) / 2);
  });

  it("reads German contractions as function words and care verbs as the angle (read: No passages about “beim”, “richtig”, “pflegen”)", () => {
    const { subject, angle } = analyseRequest("Häufige Fehler beim Gießen von Zimmerpflanzen richtig pflegen", "", "de");
    expect(subject.map((t) => t.surface)).toEqual(["Gießen", "Zimmerpflanzen"]);
    expect(angle).toEqual(expect.arrayContaining(["häufige", "fehler", "richtig", "pflegen"]));
    expect(analyseRequest("Comment entretenir son vélo", "", "fr").subject.map((t) => t.surface)).toEqual(["vélo"]);
  });
});

describe("what the held-out probe's pasted notes showed (bench/held-out: beekeeping notes in English, cat care in Spanish)", () => {
  const heldOutPool = (kb: "bees" | "gatos") => {
    const { lang, texts } = HELD_OUT_KNOWLEDGE_BASES[kb];
    return pastedPool(texts.map((t, i) => ({ ...t, url: `https://notes.example/${kb}/${i}` })), lang);
  };
  const about = (kb: "bees" | "gatos", topic: string) => {
    const { lang, name, description } = HELD_OUT_KNOWLEDGE_BASES[kb];
    const pool = heldOutPool(kb);
    const request = { topic, keyword: topic, language: lang, brand: { name, description } };
    const model = relevanceModel(pool, { ...request, subject: subjectFromPool(pool, request) });
    return { model, units: unitsOfPool(pool, lang).filter((u) => model.coverage.isAbout(u)).map((u) => u.text) };
  };

  it("situates a note by its source's title together with the profile's words (read: No passages about “Alimentación”, “gato”)", () => {
    const { units } = about("gatos", "Alimentación del gato: qué puede comer y qué no");
    // The eight notes under "Alimentación y agua", and none of "Salud y bienestar".
    expect(units.length).toBe(8);
    expect(units.some((t) => /veterinario|vacunas|rascador/.test(t))).toBe(false);
  });

  it("splits an English compound the notes write apart only where its parts are found together, and weighs what most notes say as what the profile is about", () => {
    const { model } = about("bees", "Preparing a beehive for winter");
    const terms = Object.fromEntries(model.subject.terms.map((t) => [t.surface, t.ubiquitous]));
    // "bee" and "hive" are in 8 and 11 of the 24 notes: what the profile is about, not the request's subject.
    expect(terms).toEqual({ bee: true, hive: true, winter: false });
    expect(analyseRequest("Preparing a beehive for winter", "", "en").angle).toEqual(["preparing"]);
    // A Debian manual has "com" (in addresses) and "posting" (of mail), never in one sentence: no split there.
    const debian = [pagePassage("Mail")("m1", "Mail", "Mail posting to lists.debian.org is moderated. See www.example.com for the archive address.")];
    expect(subjectFromPool(debian, { topic: "Home composting", keyword: "Home composting", language: "en" }).terms.map((t) => t.surface)).toEqual(["Home", "composting"]);
  });

  it("tells a request the notes state but hardly cover how few sentences are about it, not that words are missing (read: No passages about “Dealing”)", () => {
    const { lang, name, description } = HELD_OUT_KNOWLEDGE_BASES.bees;
    const brief = pastedBrief(lang, { name, description }, "Dealing with varroa mites", "Dealing with varroa mites");
    const refuse = () => assertEnoughEvidence(brief, planOutlineByRules(brief, 400, []), heldOutPool("bees"));
    expect(refuse).toThrow(NotEnoughEvidenceError);
    expect(refuse).toThrow(/^Only 3 sentences of this brand profile's sources are about “Dealing with varroa mites”/);
  });

  it("reads 'dealing with' and «por primera vez» as the angle", () => {
    expect(analyseRequest("Dealing with varroa mites", "", "en").subject.map((t) => t.surface)).toEqual(["varroa", "mites"]);
    expect(analyseRequest("Cómo cuidar a un gato por primera vez", "", "es").subject.map((t) => t.surface)).toEqual(["gato"]);
  });
});

/** A knowledge-base passage of a page `title`, under `heading`. */
const pagePassage = (title: string) => (id: string, heading: string, quote: string): Evidence => ({ id, url: `https://docs.example/${id}`, title, heading, quote, fetched_at: "2026-11-27T00:00:00.000Z", origin: "brand" });

describe("a passage a model graded relevant (corrective retrieval)", () => {
  const passage = pagePassage("Reference");
  const pool = [
    passage(
      "e1",
      "Data › Backup and recovery",
      "Before an upgrade, the apt command can save the list of installed packages. " +
        "Store that list on another disk with the rest of the backup. " +
        "We all know that computers fail sometime and people make mistakes with their data. " +
        "Keep your backup system simple and back up your data often.",
    ),
    passage("e2", "Package management › Basics", "The apt command installs and removes packages from the Debian archive."),
  ];
  // Without a grade, none of the backup strips is relevant: what the grade may add is what the test is about.
  const brief = { topic: "Debian package management with apt", keyword: "apt package management", language: "en" };

  it("gives only its strips that state something of the subject (read: a backup chapter's \"We all know that computers fail sometime …\" in a package-management article)", () => {
    expect(relevanceModel(pool, brief).aboutUnits.map((u) => u.text).filter((t) => /computers fail|Keep your backup/.test(t))).toEqual([]);
    const graded = relevanceModel(pool, { ...brief, passage_grades: { e1: "relevant", e2: "relevant" } });
    const kept = graded.aboutUnits.map((u) => u.text);
    expect(kept.some((t) => t.startsWith("Before an upgrade, the apt command"))).toBe(true);
    expect(kept.some((t) => t.startsWith("We all know that computers fail"))).toBe(false);
    expect(kept.some((t) => t.startsWith("Keep your backup system simple"))).toBe(false);
  });
});

// Readers' labels on a focused book (bench/relevance/focused-labels.json): of the strips that state the subject in
// their own words under headings that state none of it, readers accept about a quarter ("Going on vacation as a
// Debian developer" drew "The echelon information … whether the developer is marked as on vacation" from the
// section on unreachable maintainers). `elsewhere` weighs it; text under no heading at all is not affected.
describe("a sentence that names the subject under a heading about something else", () => {
  const passage = pagePassage("Reference");
  const brief = { topic: "Going on vacation as a Debian developer", keyword: "going on vacation", language: "en" };
  const vacation = "Developers who go on vacation should announce their absence on the debian-private list and set the vacation flag in the LDAP database.";
  const echelon = "The echelon information tells whether the developer is marked as on vacation in the LDAP database.";
  const pool = [
    passage("e1", "Going on vacation gracefully", `${vacation} Another developer can take care of urgent bugs during the vacation.`),
    passage("e2", "Dealing with inactive and unreachable maintainers", `${echelon} The MIA team looks at the last upload of every package.`),
    passage("e3", "Mailing lists", "The debian-private list is for discussions that should not be made public."),
  ];
  const headless = pool.map((e) => ({ ...e, heading: "" }));
  const p = (evidence: Evidence[], text: string, elsewhere: number = CALIBRATION.coefficients.elsewhere) => {
    const model = relevanceModel(evidence, brief);
    const u = unitsOfPool(evidence, "en").find((x) => x.text.startsWith(text))!;
    return { features: model.features(u), p: relevanceProbability(model.features(u), { ...CALIBRATION.coefficients, elsewhere }) };
  };

  it("counts against it, by the weight fit on readers' labels", () => {
    expect(CALIBRATION.coefficients.elsewhere).toBeLessThan(0);
    const under = p(pool, echelon);
    expect(under.features).toMatchObject({ context: 0, elsewhere: 1 });
    expect(under.features.own).toBeGreaterThan(0);
    expect(p(pool, echelon, 0).p).toBeGreaterThanOrEqual(CALIBRATION.relevant);
    expect(under.p).toBeLessThan(CALIBRATION.relevant);
    // Under its own heading the subject's sentence stays relevant.
    expect(p(pool, vacation).features.elsewhere).toBe(0);
    expect(p(pool, vacation).p).toBeGreaterThanOrEqual(CALIBRATION.relevant);
  });

  it("counts nothing against text under no heading (a pasted note)", () => {
    const bare = p(headless, echelon);
    expect(bare.features.elsewhere).toBe(0);
    expect(bare.p).toBe(p(headless, echelon, 0).p);
  });
});

describe("strips a model graded one by one (corrective retrieval's decompose-then-recompose)", () => {
  const passage = pagePassage("The system initialization");
  // As the manual has it, and as the systemd article quoted it under "Systemd init": a section whose heading
  // names the subject, and whose later strips are about the hostname file and the mount table.
  const pool = [
    passage(
      "e1",
      "Systemd init",
      "The systemd init process spawns processes in parallel based on the unit configuration files. " +
        "The hostname is stored in the file /etc/hostname, which should contain only the system hostname. " +
        "The mount options of normal disk and network filesystems are set in /etc/fstab.",
    ),
    passage("e2", "Systemd init › Units", "Systemd unit files are written in a declarative style instead of procedural scripts."),
  ];
  const brief = { topic: "Getting started with systemd", keyword: "systemd", language: "en" };
  const full = decideBriefByRules({ topic: brief.topic, target_keyword: brief.keyword, mode: "standard", language: "en", target_words: 800, image: false, derivatives: [] }, null);
  const e1Strips = () => unitsOfPool(pool, "en").filter((u) => u.evidenceId === "e1").map((u) => u.key);
  const about = (model: ReturnType<typeof relevanceModel>) => model.aboutUnits.map((u) => u.text.slice(0, 24));

  it("drops a strip graded irrelevant from a passage graded relevant, and keeps the strips graded relevant", () => {
    const lexical = relevanceModel(pool, brief);
    expect(about(lexical)).toEqual(expect.arrayContaining(["The hostname is stored i", "The mount options of nor"]));
    const [spawns, hostname, mounts] = e1Strips();
    const graded = relevanceModel(pool, { ...brief, passage_grades: { e1: "relevant", e2: "relevant" }, strip_grades: { [spawns]: "relevant", [hostname]: "irrelevant", [mounts]: "irrelevant" } });
    expect(about(graded)).toContain("The systemd init process");
    expect(about(graded)).not.toContain("The hostname is stored i");
    expect(about(graded)).not.toContain("The mount options of nor");
  });

  it("leaves a strip graded ambiguous to the lexical model: its passage's grade does not lift it", () => {
    // Under a heading that does not name the subject, a strip whose neighbour names it is ambiguous (P 0.80).
    const boot = [passage("e3", "Boot stages", "The boot loader loads the kernel and the initial ramdisk into memory. Systemd starts the units of the default target.")];
    const [loader] = unitsOfPool(boot, "en");
    const lexical = relevanceModel(boot, brief).unit(loader);
    expect(lexical).toBeGreaterThanOrEqual(CALIBRATION.ambiguous);
    expect(lexical).toBeLessThan(CALIBRATION.relevant);
    expect(relevanceModel(boot, { ...brief, passage_grades: { e3: "relevant" } }).unit(loader)).toBeGreaterThanOrEqual(CALIBRATION.relevant);
    expect(relevanceModel(boot, { ...brief, passage_grades: { e3: "relevant" }, strip_grades: { [loader.key]: "ambiguous" } }).unit(loader)).toBe(lexical);
  });

  it("asks the model about the strips of the passages it kept, under short ids, and keeps only the grades of strips it was shown", async () => {
    const prompts: string[] = [];
    const complete: CompleteFn = async (messages) => {
      const user = messages.find((m) => m.role === "user")!.content;
      prompts.push(`${messages[0].content}\n${user}`);
      if (messages[0].content.startsWith("You grade retrieved passages")) return { text: JSON.stringify({ grades: [{ id: "e1", grade: "relevant" }, { id: "e2", grade: "irrelevant" }] }), tokensIn: 1, tokensOut: 1 };
      const ids = [...user.matchAll(/^Strip (s\d+) \(/gm)].map((m) => m[1]);
      // Markdown fences and an id it was not given, as real models answer.
      const grades = ids.map((id) => ({ id, grade: /hostname|mount/.test(user.split(`Strip ${id} `)[1].split("\nStrip ")[0]) ? "irrelevant" : "relevant" }));
      return { text: "```json\n" + JSON.stringify({ grades: [...grades, { id: "s99", grade: "relevant" }] }) + "\n```", tokensIn: 1, tokensOut: 1 };
    };
    const model = new MeteredModel(complete, async () => undefined, 0);
    const grades = await gradePoolWithModel(model, full, pool);
    expect(grades.passage_grades).toEqual({ e1: "relevant", e2: "irrelevant" });
    // Only e1's strips were asked about (e2 was graded irrelevant), each under the heading it stood under.
    expect(prompts[1]).toMatch(/^You grade strips/);
    expect(prompts[1]).toContain("Strip s1 (The system initialization › Systemd init):");
    expect(prompts[1]).not.toContain("declarative style");
    expect(Object.keys(grades.strip_grades).every((k) => k.startsWith("e1#"))).toBe(true);
    const kept = relevanceModel(pool, { ...brief, ...grades });
    expect(about(kept)).toEqual(["The systemd init process"]);
  });

  it("reads grades as models write them: any case, a full stop, numbers for ids, the usual synonyms", async () => {
    const complete: CompleteFn = async (messages) => {
      if (messages[0].content.startsWith("You grade retrieved passages")) return { text: '{"grades": [{"id": "e1", "grade": "Relevant."}, {"id": "e2", "grade": "not relevant"}]}', tokensIn: 1, tokensOut: 1 };
      return { text: '{"grades": [{"id": 1, "grade": "RELEVANT"}, {"id": "s2", "grade": "Not relevant"}, {"id": 3, "grade": "partially relevant"}, {"id": "s4", "grade": "who knows"}]}', tokensIn: 1, tokensOut: 1 };
    };
    const grades = await gradePoolWithModel(new MeteredModel(complete, async () => undefined, 0), full, pool);
    expect(grades.passage_grades).toEqual({ e1: "relevant", e2: "irrelevant" });
    const [spawns, hostname, mounts] = e1Strips();
    expect(grades.strip_grades).toEqual({ [spawns]: "relevant", [hostname]: "irrelevant", [mounts]: "ambiguous" });
    expect(["Irrelevant.", " off-topic ", "Ambiguous", "maybe", "Highly relevant", "yes"].map(readGrade)).toEqual(["irrelevant", "irrelevant", "ambiguous", "ambiguous", "relevant", undefined]);
  });
});
