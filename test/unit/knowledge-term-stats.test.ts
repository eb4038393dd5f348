import { situatedTerms, termCounts } from "../../services/brand-knowledge/retrieval";
import { Bm25Index, termFrequencies } from "../../shared/text/bm25";
import { tokenize } from "../../shared/text/tokenize";

describe("the profile's term counts the relevance model weighs a request by", () => {
  // Two French pages: one declared its language (indexed as French), one did not (indexed as English).
  const chunks = [
    { text: "Chiffrer des fichiers avec GnuPG protège les données.", lang: "fr" },
    { text: "Les fichiers chiffrés se déchiffrent avec la clé privée.", lang: null },
    { text: "Le réseau se configure avec ip et NetworkManager.", lang: "fr" },
  ];
  const index = new Bm25Index(chunks.map((c, i) => ({ id: String(i), ...termFrequencies(c.text, c.lang ?? "en") })));
  const french = (word: string) => ({ term: tokenize(word, "fr")[0], word });

  it("counts a French request's words in chunks indexed in French and in chunks indexed as English alike", () => {
    const { df } = termCounts(index, chunks.map((c) => c.lang), [french("fichiers"), french("GnuPG"), french("réseau")]);
    expect(df).toEqual({ [french("fichiers").term]: 2, [french("GnuPG").term]: 1, [french("réseau").term]: 1 });
    // Counted in the request's language alone, the English-indexed page was not found: the bug this fixes.
    expect(index.documentFrequency(french("fichiers").term)).toBe(1);
  });

  it("counts a chunk's page title, headings and text, never its context: the same weights with a model's contexts as with the offline ones", () => {
    const chunk = (id: string, context: string, heading: string, text: string) => ({ _id: id, document_title: "Unix-ähnliches Dateisystem", heading_path: [heading], text, context, lang: "de" });
    const german = (word: string) => ({ term: tokenize(word, "de")[0], word });
    const words = [german("Berechtigungen"), german("Dateisystem"), german("Kontext")];
    const offline = [
      chunk("a", "Dieser Abschnitt stammt aus einer Seite über Berechtigungen.", "Berechtigungen", "Jede Datei gehört einem Benutzer."),
      chunk("b", "Dieser Abschnitt stammt aus einer Seite über Berechtigungen.", "Links", "Ein harter Link teilt den Inode."),
    ];
    const byModel = offline.map((c) => ({ ...c, context: "Ein Kontext, den das Modell schrieb." }));
    const counts = (chunks: typeof offline) => termCounts(situatedTerms(chunks), chunks.map((c) => c.lang), words).df;
    expect(counts(offline)).toEqual({ [words[0].term]: 1, [words[1].term]: 2, [words[2].term]: 0 });
    expect(counts(byModel)).toEqual(counts(offline));
  });

  it("counts a word's occurrences over the chunks holding it, beside the chunks (how bursty it is: relevance/weights.ts)", () => {
    const pages = [
      { text: "Memcheck reports leaks. A leak is memory never freed. Each leak is shown with its stack.", lang: "en" },
      { text: "To find the cause, read the leak summary.", lang: "en" },
      { text: "You can find the options in the manual.", lang: "en" },
    ];
    const situated = new Bm25Index(pages.map((c, i) => ({ id: String(i), ...termFrequencies(c.text, c.lang) })));
    const english = (word: string) => ({ term: tokenize(word, "en")[0], word });
    const { df, cf } = termCounts(situated, pages.map((c) => c.lang), [english("leak"), english("find")]);
    expect(df).toEqual({ [english("leak").term]: 2, [english("find").term]: 2 });
    // "leak" comes back within its chunk (2 a chunk), "find" is said once wherever it is said.
    expect(cf).toEqual({ [english("leak").term]: 4, [english("find").term]: 2 });
  });
});
