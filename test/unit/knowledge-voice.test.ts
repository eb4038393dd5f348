import { countSyllables, fleschReadingEase, readingLevel, textStatistics } from "../../shared/text/flesch";
import { buildVoiceProfile } from "../../services/brand-knowledge/knowledge/voice";

describe("Flesch reading ease", () => {
  it("scores known English sentences within tolerance of hand counts", () => {
    // 6 words, 6 syllables, 1 sentence: 206.835 − 1.015·6 − 84.6·1.
    expect(fleschReadingEase("The cat sat on the mat.")).toBeCloseTo(116.1, 1);
    // 13 words, 26 syllables by hand: 206.835 − 1.015·13 − 84.6·2 = 24.4.
    expect(fleschReadingEase("The Australian platypus is seemingly a hybrid of a mammal and reptilian creature.")).toBeGreaterThan(24.4 - 3);
    expect(fleschReadingEase("The Australian platypus is seemingly a hybrid of a mammal and reptilian creature.")).toBeLessThan(24.4 + 3);
  });

  it("grades with Flesch–Kincaid for English", () => {
    const level = readingLevel("The Australian platypus is seemingly a hybrid of a mammal and reptilian creature.");
    // 0.39·13 + 11.8·2 − 15.59 = 13.08 with the hand count.
    expect(level.grade).toBeGreaterThan(13.08 - 1);
    expect(level.grade).toBeLessThan(13.08 + 1);
    expect(level.formula).toBe("flesch-kincaid-en");
  });

  it("uses Amstad's formula and the Wiener Sachtextformel for German", () => {
    // 9 words, 11 syllables, 2 sentences: 180 − 4.5 − 58.5·11/9 = 104.0.
    const level = readingLevel("Der Hund bellt. Die Katze schläft auf dem Sofa.", "de-DE");
    expect(level.formula).toBe("amstad-wstf-de");
    expect(level.fleschReadingEase).toBeCloseTo(104.0, 0);
    // Long compound words make German text harder on both scales.
    const hard = readingLevel("Die Geschwindigkeitsbegrenzungsüberwachungsanlage dokumentiert Verkehrsordnungswidrigkeiten automatisiert.", "de");
    expect(hard.fleschReadingEase).toBeLessThan(0);
    expect(hard.grade).toBeGreaterThan(level.grade + 10);
  });

  it.each([
    ["cat", 1],
    ["water", 2],
    ["table", 2],
    ["creature", 2],
    ["radio", 3],
    ["nation", 2],
    ["reptilian", 4],
    ["make", 1],
    ["wanted", 2],
    ["based", 1],
  ])("counts %s as %d syllables", (word, syllables) => {
    expect(countSyllables(word)).toBe(syllables);
  });

  it.each([
    ["Katze", 2],
    ["Bauer", 2],
    ["schläft", 1],
    ["Zeitung", 2],
    ["Freunde", 2],
  ])("counts German %s as %d syllables", (word, syllables) => {
    expect(countSyllables(word, "de")).toBe(syllables);
  });

  it("counts sentences and words, leaving numbers out of the words", () => {
    expect(textStatistics("We opened in 2016. It rained!")).toMatchObject({ sentences: 2, words: 5 });
    expect(fleschReadingEase("")).toBe(0);
  });
});

const samples = [
  "I'm Marta, and I've kept the books for our bakery for six years. I don't love spreadsheets. I love bread. So I'll be honest: I put off bookkeeping until the last possible day. That changed when I started reconciling every Friday. It takes me twenty minutes now. I grab a coffee, open the app and match the week's receipts. If something looks odd, I ask my accountant right away. Small business owners don't need more software. They need fewer surprises at month-end close. That's what I tell everyone who asks me. And honestly, it's been a seamless change for me.",
  "I've learned a few things about cash flow the hard way. My first winter, I nearly ran out of money in January. Nobody warned me that wholesale customers pay late after the holidays. Now I check the forecast every Monday. I look at the next six weeks and ask one question: where's the gap? If I see one, I chase invoices early. Small business owners can't afford to guess. I'd rather spend ten minutes on a forecast than ten nights worrying. My advice is simple. Look at your numbers every week, not at month-end close.",
  "I get asked about hiring a lot. Here's my honest answer. I waited too long to hire my first baker. I thought I couldn't afford it. I was wrong, and my books showed it. When I finally looked at the numbers, the extra hands paid for themselves in three months. I'm not an accountant. I just read my reports every week. Small business owners know their customers by name. I think they should know their numbers just as well. Don't wait for month-end close to find out how you're doing.",
];

const site = [
  "Lumen Ledger delivers an industry-leading bookkeeping platform that enables small and medium-sized enterprises to automate reconciliation, invoicing and reporting across multiple entities and currencies. Our cutting-edge categorisation engine classifies transactions with very high accuracy, and our very experienced support organisation ensures that customers receive timely assistance regardless of their location or time zone. Furthermore, the platform provides comprehensive audit trails, configurable approval workflows and granular permissions, thereby enabling finance teams to maintain rigorous internal controls while reducing the administrative burden associated with month-end procedures.",
  "Our integration framework connects the platform with payroll providers, e-commerce systems and banking institutions, consequently eliminating the manual transfer of financial information between disparate applications. Organisations operating in regulated industries benefit from our comprehensive compliance documentation, including independently audited security controls and contractual data processing agreements. Consequently, finance teams obtain consistent, reliable and timely information for strategic decision-making throughout the financial year.",
];

describe("buildVoiceProfile", () => {
  const profile = buildVoiceProfile({ writingSamples: samples, siteTexts: site });
  const samplesOnly = buildVoiceProfile({ writingSamples: samples, siteTexts: [] });
  const siteOnly = buildVoiceProfile({ writingSamples: [], siteTexts: site });

  it("lets the writing samples dominate the site text", () => {
    expect(profile.person).toBe("first_singular");
    expect(siteOnly.person).toBe("first_plural");
    const closerToSamples = (pick: (p: typeof profile) => number) =>
      expect(Math.abs(pick(profile) - pick(samplesOnly))).toBeLessThan(Math.abs(pick(profile) - pick(siteOnly)));
    closerToSamples((p) => p.sentenceLength.mean);
    closerToSamples((p) => p.readingLevel.fleschReadingEase);
    closerToSamples((p) => p.readingLevel.grade);
    expect(profile.tone).toContain("conversational");
    expect(profile.tone).not.toContain("formal");
    expect(siteOnly.tone).toContain("formal");
    expect(profile.basedOn).toEqual({ samples: 3, siteDocuments: 2 });
  });

  it("measures sentence length and reading level", () => {
    // The samples' sentences run 3 to 22 words, the site's 20 to 40.
    expect(samplesOnly.sentenceLength.mean).toBeGreaterThan(6);
    expect(samplesOnly.sentenceLength.mean).toBeLessThan(12);
    expect(samplesOnly.sentenceLength.p90).toBeGreaterThanOrEqual(samplesOnly.sentenceLength.mean);
    expect(siteOnly.sentenceLength.mean).toBeGreaterThan(20);
    expect(samplesOnly.readingLevel.fleschReadingEase).toBeGreaterThan(70);
    expect(siteOnly.readingLevel.fleschReadingEase).toBeLessThan(20);
  });

  it("prefers the samples' recurring phrases and lists their distinctive vocabulary", () => {
    expect(profile.preferPhrases.slice(0, 2)).toEqual(expect.arrayContaining(["small business owners", "month-end close"]));
    expect(profile.preferPhrases).not.toContain("business owners");
    expect(profile.vocabulary).toEqual(expect.arrayContaining(["numbers", "forecast"]));
    for (const word of profile.vocabulary) expect(["the", "and", "i", "my", "use", "time"]).not.toContain(word.toLowerCase());
  });

  it("avoids clichés the samples do not use, the site's first, and the site's intensifiers", () => {
    expect(profile.avoidPhrases.slice(0, 3)).toEqual(["cutting-edge", "industry-leading", "very"]);
    expect(profile.avoidPhrases).toContain("synergy");
    expect(profile.avoidPhrases).not.toContain("seamless");
  });

  it("works from site text alone when there are no samples", () => {
    expect(siteOnly.basedOn).toEqual({ samples: 0, siteDocuments: 2 });
    expect(siteOnly.avoidPhrases).not.toContain("cutting-edge");
    expect(siteOnly.avoidPhrases).toContain("synergy");
    expect(siteOnly.preferPhrases).toContain("finance teams");
    expect(profile.preferPhrases).not.toContain("finance teams");
  });

  it.each([
    ["second", "You connect your bank once. Your invoices go out on time and you get paid faster. You can see your cash at a glance."],
    ["first_plural", "We build bookkeeping software. Our team answers every ticket. We ship a release every week."],
    ["third", "The platform imports transactions nightly. Reports update automatically. Invoices include a payment link."],
  ])("finds the dominant person %s", (person, text) => {
    expect(buildVoiceProfile({ writingSamples: [text], siteTexts: [] }).person).toBe(person);
  });

  it("reads confident, cautious, friendly and technical markers", () => {
    expect(buildVoiceProfile({ writingSamples: ["We guarantee every export is exact. It will always balance. Our proven engine never loses a cent."], siteTexts: [] }).tone).toContain("confident");
    expect(buildVoiceProfile({ writingSamples: ["Results may vary. Forecasts might help, but they could perhaps mislead. It typically depends."], siteTexts: [] }).tone).toContain("cautious");
    expect(buildVoiceProfile({ writingSamples: ["Hey there! We're so glad you're here. Thanks for joining us, we love hearing from you!"], siteTexts: [] }).tone).toEqual(expect.arrayContaining(["friendly", "enthusiastic"]));
    expect(buildVoiceProfile({ writingSamples: ["Configure the webhook endpoint with OAuth 2.0. The API returns JSON over TLS 1.3 with HTTP 429 on overload."], siteTexts: [] }).tone).toContain("technical");
  });

  it("gives a neutral profile when there is no text at all", () => {
    expect(buildVoiceProfile({ writingSamples: ["  "], siteTexts: [] })).toEqual({
      tone: ["neutral"],
      readingLevel: { fleschReadingEase: 0, grade: 0 },
      sentenceLength: { mean: 0, p90: 0 },
      person: "third",
      vocabulary: [],
      preferPhrases: [],
      avoidPhrases: [],
      basedOn: { samples: 0, siteDocuments: 0 },
    });
  });
});
