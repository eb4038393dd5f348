import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { nameSectionsByContent } from "../../services/pipeline/article/writers/section-names";
import { writeSectionAgain } from "../../services/pipeline/article/writers/draft";
import type { SectionWriter } from "../../services/pipeline/article/writers/section-writer";
import { bySourceHeadings, finishSections, withHeadingsOnce } from "../../services/pipeline/article/writers/section-grouping";
import type { ArticleSection, Evidence } from "../../services/pipeline/article/types";

const briefFor = (topic: string, keyword: string, language = "en") =>
  decideBriefByRules({ topic, target_keyword: keyword, mode: "standard", language, target_words: 600, image: false, derivatives: [] }, null);

const passage = (id: string, heading: string | undefined, quote: string): Evidence => ({
  id,
  url: `https://example.test/${id}`,
  title: "Notes",
  ...(heading ? { heading } : {}),
  quote,
  fetched_at: "2026-11-27T00:00:00.000Z",
  origin: "brand",
});

const section = (key: string, role: ArticleSection["role"], heading: string, sentences: [string, string][]): ArticleSection => ({
  key,
  role,
  heading,
  paragraphs: [{ sentences: sentences.map(([text, cite]) => ({ text, cites: [cite] })) }],
});

/** One template-headed section of headless notes (every sentence cites "e1"), as named. */
const nameNotes = (brief: ReturnType<typeof briefFor>, heading: string, texts: string[]): ArticleSection =>
  nameSectionsByContent([section("s2", "body", heading, texts.map((t): [string, string] => [t, "e1"]))], brief, [passage("e1", undefined, "…")])[0];

describe("extractive sections named by what they hold (read: « Pourquoi c'est important » over tyre pressures, \"Conclusion\" over a deb line's arguments)", () => {
  it("gives a template section the source heading most of its sentences come from, and makes a conclusion of leftovers a body section", () => {
    const brief = briefFor("Debian package management with apt", "apt package management");
    const evidence = [passage("e1", "Package management › Debian archive basics", "…"), passage("e2", "Package management › Debsums", "…")];
    const named = nameSectionsByContent(
      [
        section("s1", "body", "Apt package management: an overview", [["The apt command is a front end.", "e1"]]),
        section("conclusion", "conclusion", "Conclusion", [
          ["The \"deb\" line defines for the binary packages.", "e1"],
          ["The 1st argument is the root URL of the Debian archive.", "e1"],
          ["Debsums checks installed files.", "e2"],
        ]),
      ],
      brief,
      evidence,
    );
    expect(named[0].heading).toBe("Apt package management: an overview");
    expect(named[1]).toMatchObject({ role: "body", heading: "Debian archive basics" });
  });

  it("names a headless section by the noun phrase most of its sentences say", () => {
    const named = nameNotes(briefFor("How to start composting at home", "composting at home"), "Why this matters", [
      "Most home compost heaps produce their finished compost in six to twelve months.",
      "A hot heap can finish in eight to twelve weeks.",
      "The finished compost is dark brown and crumbly.",
      "Gardeners spread the finished compost as a mulch.",
    ]);
    expect(named.heading).toBe("Finished compost");
  });

  // Read in the held-out probe's debian/control article: «Paquete binario y arquitectura si consiste».
  it("never names a section by a phrase joined by a word other than 'of' or an article, in the four languages", () => {
    const spanish = nameNotes(briefFor("El archivo debian/control explicado", "archivo debian/control", "es"), "Por qué es importante", [
      "El paquete depende de la arquitectura si consiste en un programa compilado.",
      "El paquete es independiente de la arquitectura si consiste en archivos de texto.",
      "Cada arquitectura si consiste en otra cosa necesita su propio paquete.",
    ]);
    expect(spanish.heading).not.toMatch(/\bsi\b/);
    const french = nameNotes(briefFor("Comment entretenir son vélo", "entretien vélo", "fr"), "Pourquoi c'est important", [
      "La mise à jour du dérailleur se fait avec une clé de 5.",
      "Une mise à jour régulière évite la casse.",
      "La mise à jour du pédalier demande un extracteur.",
    ]);
    expect(french.heading).toBe("Mise à jour");
  });

  it("never names a section by a word that is no noun where it stands (read: \"Twelve\", « Lässt und Wasser »)", () => {
    const named = nameNotes(briefFor("How to start composting at home", "composting at home"), "Why this matters", [
      "Most heaps finish in six to twelve months.",
      "A hot heap can finish in eight to twelve weeks.",
      "Cold heaps take up to twelve months or more.",
    ]);
    expect(named.heading).toBe("Other points");
    // German writes nouns with a capital: a participle after a relative "die" is none (read: "Benutzt").
    const german = nameNotes(briefFor("Die Paketverwaltungswerkzeuge von Debian verstehen", "Paketverwaltungswerkzeuge", "de"), "Warum das wichtig ist", [
      "Es gibt verschiedene Oberflächen, die benutzt werden, um Pakete zu installieren.",
      "Der Kernel ersetzt auch Dateien, die benutzt werden.",
      "Ein Programm startet Daemons, die beim Hochfahren benutzt werden.",
    ]);
    expect(german.heading).not.toBe("Benutzt");
  });

  it("takes one word only where it reads as a noun, two together when neither says half (« Pneu et chaîne »)", () => {
    const named = nameNotes(briefFor("Comment entretenir son vélo", "entretien vélo", "fr"), "Pourquoi c'est important", [
      "Une chaîne usée s'allonge et finit par sauter sur les pignons.",
      "Un contrôleur d'usure de chaîne indique s'il faut la remplacer.",
      "La pression des pneus se vérifie chaque semaine.",
      "La pression recommandée est inscrite sur le flanc du pneu.",
      "Un pneu trop gonflé adhère moins bien.",
      "Une rustine bouche un petit trou.",
      "Il faut retirer l'épine avant de remonter.",
    ]);
    expect(named.heading).toBe("Pneu et chaîne");
  });

  // Read in the held-out probe's articles: "Services and file", « Día y veterinario », words every section says.
  it("names a section by no phrase the rest of the article says as often (a pair's phrases each say a quarter of it too)", () => {
    const brief = briefFor("Cómo cuidar a un gato por primera vez", "cuidar a un gato", "es");
    const elsewhere = section("s1", "body", "Alimentación", [
      ["El gato come dos veces al día.", "e1"],
      ["El agua se cambia cada día.", "e1"],
      ["La comida húmeda se retira después de un día.", "e1"],
    ]);
    const vet = section("s2", "body", "Por qué es importante", [
      ["El veterinario revisa al gato una vez al año, el mismo día que lo vacuna.", "e2"],
      ["Las vacunas las pone el veterinario.", "e2"],
      ["El gato duerme la mayor parte del día.", "e2"],
      ["Un gato sano juega cada día.", "e2"],
    ]);
    const [, named] = nameSectionsByContent([elsewhere, vet], brief, [passage("e1", undefined, "…"), passage("e2", undefined, "…")]);
    expect(named.heading).toBe("Veterinario");
  });

  it("says nothing it cannot: a section whose sentences share no heading and no phrase is \"Other points\"", () => {
    const brief = briefFor("Getting started with systemd", "systemd");
    const [named, kept] = nameSectionsByContent(
      [
        section("s3", "body", "Common mistakes to avoid", [
          ["The resource controls are also defined.", "e1"],
          ["To print out the current hostname run hostname without an argument.", "e2"],
        ]),
        section("s4", "body", "Socket activation", [["A socket unit starts a service on demand.", "e1"]]),
      ],
      brief,
      [passage("e1", undefined, "…"), passage("e2", undefined, "…")],
    );
    expect(named.heading).toBe("Other points");
    expect(kept.heading).toBe("Socket activation");
  });

  it("gives a heading once in the finished body: sections under one heading stand together where the first stood (read: \"Other points\" four times)", () => {
    const brief = briefFor("Choosing between Debian stable, testing and unstable", "Debian stable testing unstable");
    const unnamed = (key: string, heading: string, text: string, cite: string) => section(key, "body", heading, [[text, cite]]);
    const named = nameSectionsByContent(
      [
        section("intro", "intro", "", [["Stable requires very little maintenance.", "e1"]]),
        unnamed("s1", "Key considerations", "People want a system that just works.", "e1"),
        section("s2", "body", "Release freezes", [["When testing is frozen, the release team checks every fix.", "e2"]]),
        unnamed("s3", "Why this matters", "The answer is a bit complicated.", "e3"),
        unnamed("s4", "In practice", "A new testing is based on the old testing.", "e4"),
      ],
      brief,
      [passage("e1", undefined, "…"), passage("e2", undefined, "…"), passage("e3", undefined, "…"), passage("e4", undefined, "…")],
    );
    expect(named.map((s) => s.heading)).toEqual(["", "Other points", "Release freezes", "Other points", "Other points"]);
    const once = withHeadingsOnce(named, "en");
    expect(once.sections.map((s) => s.heading)).toEqual(["", "Other points", "Release freezes"]);
    expect(once.joined).toEqual(["s3", "s4"]);
    expect(once.sections[1].paragraphs.flatMap((p) => p.sentences.map((x) => x.text))).toEqual([
      "People want a system that just works.",
      "The answer is a bit complicated.",
      "A new testing is based on the old testing.",
    ]);
    // The sections it was given are left as they were.
    expect(named[1].paragraphs).toHaveLength(1);
  });
});

describe("a section written again after re-research", () => {
  const brief = briefFor("Getting started with systemd", "systemd");
  const planned = { key: "s3", role: "body" as const, heading: "Why this matters", budget: 120, query: "systemd", brief: "" };
  const writerOf = (kind: SectionWriter["kind"]): SectionWriter => ({
    kind,
    drafting: "in-order",
    writeSection: async () => ({ section: section("s3", "body", "Why this matters", [["A socket unit starts a service on demand.", "e1"], ["Socket activation starts a service when a client connects.", "e1"]]), droppedCitations: 0 }),
  });
  const input = (earlier: ArticleSection[]) => ({ brief, outline: { sections: [] } as never, section: planned as never, earlier, evidence: [passage("e1", "systemd › Socket activation", "…")] });

  it("is named by what it holds when quoted, as the draft's sections are, and keeps a model's heading", async () => {
    const others = [section("s1", "body", "Unit files", [["A unit file describes a service.", "e1"]])];
    expect((await writeSectionAgain(writerOf("extractive"), input(others))).heading).toBe("Socket activation");
    expect((await writeSectionAgain(writerOf("model"), input(others))).heading).toBe("Why this matters");
  });
});

describe("headings the held-out probe's readers found saying nothing (the Debian FAQ crawled)", () => {
  it("names by its content a first heading that repeats a clause request, which the title already says", () => {
    const brief = briefFor("Where to get help with Debian", "Where to get help with Debian");
    const [named] = nameSectionsByContent(
      [section("s1", "body", "Where to get help with Debian", [["Bug reports go to the bug tracking system.", "e1"], ["Each bug is given a number.", "e1"]])],
      brief,
      [passage("e1", "Getting support › The bug tracking system", "…")],
    );
    expect(named.heading).toBe("The bug tracking system");
  });
});

describe("the overview heading promises the angle only when its section serves it (read: \"Composting mistakes: an overview\" over a closed bin and a sunny spot)", () => {
  const mistakes = briefFor("Common composting mistakes to avoid", "composting mistakes");
  const general = ["A closed compost bin keeps rain off the heap.", "A compost bin works best on bare soil in a sunny spot.", "Too much green material makes a compost heap wet and smelly."];
  const serving = ["Meat and dairy should never go in a home compost bin.", "Glossy magazines do not belong in a compost bin.", "A compost bin works best on bare soil in a sunny spot."];

  it("drops the angle's words from the overview heading of a section that does not serve it", () => {
    expect(nameNotes(mistakes, "Composting mistakes: an overview", general).heading).toBe("Composting: an overview");
    const velo = briefFor("Les erreurs à éviter dans l'entretien d'un vélo", "erreurs entretien vélo", "fr");
    expect(nameNotes(velo, "Erreurs entretien vélo : vue d'ensemble", ["Le dérailleur se règle avec deux vis de butée.", "Une révision complète est conseillée une fois par an."]).heading).toBe("Entretien vélo : vue d'ensemble");
  });

  // Read in a held-out probe's articles (pasted beekeeping and cat-care notes): "Common beekeeping: an overview",
  // «Comunes al cuidar un gato: una visión general».
  it("drops the angle's qualifiers with it ('common', «comunes»)", () => {
    const bees = briefFor("Common beekeeping mistakes to avoid", "Common beekeeping mistakes to avoid");
    expect(nameNotes(bees, "Common beekeeping mistakes to avoid: an overview", general).heading).toBe("Beekeeping: an overview");
    const gatos = briefFor("Errores comunes al cuidar un gato", "Errores comunes al cuidar un gato", "es");
    expect(nameNotes(gatos, "Errores comunes al cuidar un gato: una visión general", ["Un gato adulto necesita una dieta rica en proteína animal.", "Lleve a su gato al veterinario una vez al año."]).heading).toBe("Cuidar un gato: una visión general");
  });

  it("keeps it where half its sentences serve the angle, and for a request without an angle", () => {
    expect(nameNotes(mistakes, "Composting mistakes: an overview", serving).heading).toBe("Composting mistakes: an overview");
    expect(nameNotes(briefFor("Composting at home", "home composting"), "Home composting: an overview", general).heading).toBe("Home composting: an overview");
  });
});

describe("what no phrase names goes under its sources' own headings (read: a Debian FAQ article of 800 words under one \"Other points\")", () => {
  const brief = briefFor("Choosing between Debian stable, testing and unstable", "Debian stable testing unstable");
  const evidence = [
    passage("e1", "Choosing a Debian distribution › What happens when a new release is made?", "…"),
    passage("e2", "Choosing a Debian distribution › From an administrator's point of view, which distribution requires more attention?", "…"),
    passage("e3", "Choosing a Debian distribution › I am currently tracking stable. Can I change to testing or unstable? If so, how?", "…"),
    passage("e4", undefined, "…"),
    passage("e5", "Booting › And are there yet other ways of booting a Debian system?", "…"),
  ];
  const paragraph = (cite: string, ...texts: string[]) => ({ sentences: texts.map((text) => ({ text, cites: [cite] })) });
  const other = (key: string, ...paragraphs: ArticleSection["paragraphs"]): ArticleSection => ({ key, role: "body", heading: "Other points", paragraphs });

  it("heads paragraphs of two sentences or more by their source's heading, a short question included, and leaves the rest as \"Other points\" after them", () => {
    const section = other(
      "s2",
      paragraph("e1", "Unstable is always referred to as sid.", "Packages constantly migrate from sid to testing."),
      paragraph("e2", "People want a system that just works.", "Stable requires very little maintenance."),
      paragraph("e3", "You need to change the third field to the distribution you want to run.", "Then run apt update."),
      paragraph("e4", "A new testing is based on the old testing."),
      paragraph("e1", "The frozen testing is released as the new stable version."),
      paragraph("e5", "You can boot from a USB stick.", "You can boot over the network."),
    );
    const split = bySourceHeadings(section, brief, evidence, [section]);
    expect(split.map((s) => [s.key, s.heading])).toEqual([
      ["s2~1", "What happens when a new release is made?"],
      ["s2~2", "From an administrator's point of view, which distribution requires more attention?"],
      ["s2", "Other points"],
    ]);
    // Two questions in one heading head nothing; one paragraph of one sentence is too little for a heading of its own.
    // A question following on from another ("And are there …?") heads nothing either.
    expect(split[2].paragraphs.map((p) => p.sentences[0].text)).toEqual(["You need to change the third field to the distribution you want to run.", "A new testing is based on the old testing.", "You can boot from a USB stick."]);
    expect(split[0].paragraphs).toHaveLength(2);
  });

  it("splits \"Other points\" only, joins what two of them gave one heading, and says which it split and joined", () => {
    const named = section("s1", "body", "Release freezes", [["When testing is frozen, the release team checks every fix.", "e4"]]);
    const finished = finishSections(
      [named, other("s2", paragraph("e1", "Unstable is always referred to as sid.")), other("s3", paragraph("e1", "The frozen testing is released as the new stable version."))],
      brief,
      evidence,
    );
    expect(finished.sections.map((s) => s.heading)).toEqual(["Release freezes", "What happens when a new release is made?"]);
    expect(finished.split).toEqual(["s2~1"]);
    expect(finished.joined).toEqual(["s3"]);
  });
});

