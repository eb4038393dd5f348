import { documentFrequencies, situatedTerms } from "../../services/brand-knowledge/retrieval";
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
    const df = documentFrequencies(index, chunks.map((c) => c.lang), [french("fichiers"), french("GnuPG"), french("réseau")]);
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
    const counts = (chunks: typeof offline) => documentFrequencies(situatedTerms(chunks), chunks.map((c) => c.lang), words);
    expect(counts(offline)).toEqual({ [words[0].term]: 1, [words[1].term]: 2, [words[2].term]: 0 });
    expect(counts(byModel)).toEqual(counts(offline));
  });
});
