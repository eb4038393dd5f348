import { documentFrequencies } from "../../services/brand-knowledge/retrieval";
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
});
