import { isEnglish, priceArticle } from "../../services/billing/pricing";
import { QuoteParams } from "../../shared/schemas/billing";

describe("isEnglish", () => {
  it.each(["en", "EN", "En", "en-GB", "en-us", "en_US", "EN_gb", "en-Latn-US"])("%s is English", (language) => {
    expect(isEnglish(language)).toBe(true);
  });

  it.each(["de", "fr-FR", "eng", "enx", "e", "es-EN", "pt_BR", "english"])("%s is not English", (language) => {
    expect(isEnglish(language)).toBe(false);
  });
});

describe("priceArticle: the full matrix of the credit pricing rule", () => {
  const languages = [
    { language: "en", surcharge: 0 },
    { language: "en-GB", surcharge: 0 },
    { language: "de", surcharge: 5 },
  ];
  const cases = (["standard", "deep_research"] as const).flatMap((mode) =>
    [false, true].flatMap((image) =>
      [[], ["x_thread"], ["x_thread", "linkedin", "newsletter"]].flatMap((derivatives) =>
        languages.map(({ language, surcharge }) => ({
          mode,
          image,
          derivatives,
          language,
          expected: (mode === "standard" ? 10 : 25) + (image ? 3 : 0) + (derivatives.length ? 3 : 0) + surcharge,
        })),
      ),
    ),
  );

  it("covers 2 modes × image × 3 derivative selections × 3 languages", () => {
    expect(cases).toHaveLength(36);
  });

  it.each(cases)("$mode image=$image derivatives=$derivatives language=$language costs $expected", ({ expected, ...input }) => {
    const quote = priceArticle(input);
    expect(quote.credits).toBe(expected);
    expect(quote.breakdown.reduce((sum, c) => sum + c.credits, 0)).toBe(expected);
  });
});

describe("priceArticle breakdown", () => {
  it("lists only the components that apply, in the spec's order", () => {
    expect(priceArticle({ mode: "deep_research", image: true, derivatives: ["linkedin"], language: "fr" })).toEqual({
      credits: 36,
      breakdown: [
        { component: "mode:deep_research", credits: 25 },
        { component: "image", credits: 3 },
        { component: "derivatives", credits: 3 },
        { component: "non_english_language", credits: 5 },
      ],
    });
    expect(priceArticle({ mode: "standard", image: false, derivatives: [], language: "en_US" })).toEqual({
      credits: 10,
      breakdown: [{ component: "mode:standard", credits: 10 }],
    });
  });

  it("charges derivatives flat whatever the selection", () => {
    const one = priceArticle({ mode: "standard", image: false, derivatives: ["newsletter"], language: "en" });
    const three = priceArticle({ mode: "standard", image: false, derivatives: ["x_thread", "linkedin", "newsletter"], language: "en" });
    expect(one.credits).toBe(13);
    expect(three.credits).toBe(13);
  });
});

describe("QuoteParams", () => {
  it("rejects unknown fields and bad modes", () => {
    const result = QuoteParams.safeParse({ mode: "fast", image: false, derivatives: [], language: "en", extra: 1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join(".") || i.code).sort()).toEqual(["mode", "unrecognized_keys"]);
  });
});
