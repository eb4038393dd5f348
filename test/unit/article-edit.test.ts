import type { CompleteFn } from "../../shared/llm/types";
import { checkCitationSupport, offlineSupport } from "../../services/pipeline/article/editing/citation-check";
import { editArticle, isFramingSentence } from "../../services/pipeline/article/editing/edit";
import { MeteredModel } from "../../services/pipeline/article/model/metered-model";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { applyStyleRewrites } from "../../services/pipeline/article/editing/style-rewrites";
import type { ArticleBody, ArticleBrief, ArticleSentence, Evidence } from "../../services/pipeline/article/types";

const E1 =
  "Teams that cluster jobs within a 15-minute drive radius typically save between 40 and 70 minutes of driving per technician per day. Route planning works best when the office books new jobs into days when a technician is already nearby.";
const E2 = "Automatic text messages that announce the technician's departure reduce no-access visits. Customers value reliable route planning more than speed.";
const EVIDENCE: Evidence[] = [
  { id: "e1", url: "https://guides.example/a", title: "Route planning basics", quote: E1, fetched_at: "2025-01-01T00:00:00Z", origin: "web" },
  { id: "e2", url: "https://guides.example/b", title: "Arrival windows", quote: E2, fetched_at: "2025-01-01T00:00:00Z", origin: "web" },
];

const brief: ArticleBrief = decideBriefByRules(
  { topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard", language: "en", target_words: 600, image: false, derivatives: [] },
  null,
);
const outline = planOutlineByRules(brief, 600, []);
const s = (text: string, cites: string[] = []): ArticleSentence => ({ text, cites });
const bodyOf = (...sections: ArticleSentence[][]): ArticleBody => ({
  writer: "model",
  sections: sections.map((sentences, i) => ({ key: outline.sections[i].key, role: outline.sections[i].role, heading: outline.sections[i].heading, paragraphs: [{ sentences }] })),
});
const texts = (body: ArticleBody) => body.sections.flatMap((x) => x.paragraphs.flatMap((p) => p.sentences.map((y) => y.text)));

const VERBATIM = "Teams that cluster jobs within a 15-minute drive radius typically save between 40 and 70 minutes of driving per technician per day.";
const PARAPHRASE = "Clustering jobs within a 15-minute drive radius typically saves technicians between 40 and 70 minutes of driving per day.";
const INVENTED = "Clustering jobs saves 3 hours of driving per technician each week.";
const OFF_TOPIC = "Clustering jobs cuts fuel costs in half and doubles customer satisfaction for every technician.";

describe("the offline support rule", () => {
  it("accepts quotes and faithful paraphrases, refuses invented figures and other claims", () => {
    expect(offlineSupport(VERBATIM, [E1], "en")).toMatchObject({ supported: true, containment: 1 });
    expect(offlineSupport(PARAPHRASE, [E1], "en").supported).toBe(true);
    expect(offlineSupport(INVENTED, [E1], "en")).toMatchObject({ supported: false, missingFigures: ["3"] });
    expect(offlineSupport("Teams that cluster jobs within a 15-minute drive radius save 3 hours of driving per technician per day.", [E1], "en")).toMatchObject({ supported: false, missingFigures: ["3"] });
    expect(offlineSupport(OFF_TOPIC, [E1], "en").supported).toBe(false);
  });
});

describe("edit, offline", () => {
  it("removes unsupported, uncited and repeated claims, and keeps supported ones and framing", async () => {
    const body = bodyOf(
      [s("This article looks at route planning."), s(VERBATIM, ["e1"]), s(INVENTED, ["e1"])],
      [s("Kestrel charges $99 per month for its planner."), s(E2.split(". ")[0] + ".", ["e2"])],
      [s(VERBATIM, ["e1"]), s("Route planning works best when the office books new jobs into days when a technician is already nearby.", ["e1", "e9"])],
    );
    const { body: edited, report } = await editArticle(body, brief, outline, EVIDENCE);
    const kept = texts(edited);
    expect(kept).toContain("This article looks at route planning.");
    expect(kept).toContain(VERBATIM);
    expect(kept).not.toContain(INVENTED);
    expect(kept).not.toContain("Kestrel charges $99 per month for its planner.");
    // True and cited, but about arrival notices, not route planning: it goes too.
    expect(kept).not.toContain(E2.split(". ")[0] + ".");
    expect(kept.filter((t) => t === VERBATIM)).toHaveLength(1);
    expect(report).toMatchObject({ checked_by: "offline", removed_unsupported: 1, removed_off_topic: 1, removed_uncited: 1, removed_duplicates: 1 });

    // Saying the same thing in other words is repetition too.
    const repeated = await editArticle(bodyOf([s(VERBATIM, ["e1"])], [s(PARAPHRASE, ["e1"])]), brief, outline, EVIDENCE);
    expect(texts(repeated.body)).toEqual([VERBATIM]);
    expect(report.removed[0]).toEqual({ section: "intro", claim: INVENTED, reason: "unsupported" });
    // A citation of unknown evidence is dropped from the sentence; the known one stays.
    const last = edited.sections.flatMap((x) => x.paragraphs.flatMap((p) => p.sentences)).find((x) => x.text.startsWith("Route planning works best"))!;
    expect(last.cites).toEqual(["e1"]);
  });

  it("joins sections given one heading, where the first stood, and reports which (read: \"Other points\" four times)", async () => {
    const BOOKING = "Route planning works best when the office books new jobs into days when a technician is already nearby.";
    const body = bodyOf([s(VERBATIM, ["e1"])], [s(BOOKING, ["e1"])], [s("Customers value reliable route planning more than speed.", ["e2"])]);
    body.sections[1].heading = body.sections[2].heading = "Other points";
    const { body: edited, report } = await editArticle(body, brief, outline, EVIDENCE);
    expect(edited.sections.map((x) => x.heading)).toEqual([outline.sections[0].heading, "Other points"]);
    expect(texts(edited)).toEqual([VERBATIM, BOOKING, "Customers value reliable route planning more than speed."]);
    expect(report.joined_sections).toEqual([outline.sections[2].key]);
    expect(report.dropped_sections).toEqual([]);
  });

  it("removes a model's sentence whose quotation marks or brackets do not pair up, as malformed", async () => {
    const broken = "Route planning works best when the office books new jobs into « days when a technician is nearby.";
    const { body: edited, report } = await editArticle(bodyOf([s(VERBATIM, ["e1"]), s(broken, ["e1"])]), brief, outline, EVIDENCE);
    expect(texts(edited)).toEqual([VERBATIM]);
    expect(report).toMatchObject({ removed_malformed: 1 });
    expect(report.removed).toContainEqual({ section: "intro", claim: broken, reason: "malformed" });
  });

  it("removes a model's sentence holding a command or boilerplate, which the score would count as a form problem", async () => {
    // Read in the fake model's package article (sixteenth stop): delivered, then capped at 75 for it.
    const command = 'If the cache is broken, run "sudo rm -rf /var/cache/apt/archives/" and "apt-get update --fix-missing" before "apt-get install -f" again.';
    const pointer = "Route planning is described in the following section of this guide.";
    const { body: edited, report } = await editArticle(bodyOf([s(VERBATIM, ["e1"]), s(command, ["e1"]), s(pointer, ["e1"])]), brief, outline, EVIDENCE);
    expect(texts(edited)).toEqual([VERBATIM]);
    expect(report).toMatchObject({ removed_malformed: 2 });
  });

  it("tells framing from an uncited fact", () => {
    expect(isFramingSentence("This article looks at route planning for dispatchers.", brief, "")).toBe(true);
    expect(isFramingSentence("Route planning saves 40 minutes a day.", brief, "")).toBe(false);
    expect(isFramingSentence("Route planning is what Samsara sells best.", brief, "")).toBe(false);
  });

  it("applies the brand's voice: phrases to avoid replaced, wordy phrasings shortened", () => {
    const voiced: ArticleBrief = { ...brief, tone: "formal", voice: { tone: ["formal"], person: "third", readingEase: null, sentenceMean: null, vocabulary: [], preferPhrases: [], avoidPhrases: ["leverage", "seamless", "very", "cutting-edge"] } };
    expect(applyStyleRewrites("Teams leverage seamless, cutting-edge tools in order to plan very quickly!", voiced)).toEqual({
      text: "Teams use smooth, modern tools to plan quickly.",
      phrasesReplaced: 4,
      tightened: 1,
    });
    expect(applyStyleRewrites("Leveraging the app, dispatchers don't retype jobs.", voiced).text).toBe("Using the app, dispatchers do not retype jobs.");
  });

  it("leaves the extractive writer's quotations in the source's words", async () => {
    const voiced: ArticleBrief = { ...brief, voice: { tone: [], person: "third", readingEase: null, sentenceMean: null, vocabulary: [], preferPhrases: [], avoidPhrases: ["very"] } };
    const quote = "Customers value reliable route planning more than speed.";
    const quoted: ArticleBody = { ...bodyOf([s(quote, ["e2"])]), writer: "extractive" };
    const written: ArticleBody = bodyOf([s("Customers value reliable route planning very much more than speed.", ["e2"])]);
    expect(texts((await editArticle(quoted, voiced, outline, EVIDENCE)).body)).toEqual([quote]);
    expect(texts((await editArticle(written, voiced, outline, EVIDENCE)).body)).toEqual(["Customers value reliable route planning much more than speed."]);
  });

  it("researches a section again when the checks leave it thin, once, and writes it again only when research found something new", async () => {
    const body = bodyOf([s(VERBATIM, ["e1"])], [s(INVENTED, ["e1"])], [s(E2.split(". ")[0] + ".", ["e2"])]);
    const calls: string[] = [];
    const rewrites: string[] = [];
    const fresh: Evidence = { id: "e3", url: "https://guides.example/c", title: "More", quote: "Route planning that re-sequences stops keeps the technician moving toward the next closest customer.", fetched_at: "2025-01-01T00:00:00Z", origin: "web" };
    const { body: edited, evidence, report } = await editArticle(body, brief, outline, EVIDENCE, {
      researchSection: async (section, pool) => {
        calls.push(section.key);
        return pool.some((e) => e.id === fresh.id) ? [...pool] : [...pool, fresh];
      },
      rewriteSection: async (section) => {
        rewrites.push(section.key);
        const sentences = section.key === "s1" ? [s(fresh.quote, ["e3"]), s("Route planning triples revenue in 2 weeks.", ["e3"])] : [];
        return { key: section.key, role: section.role, heading: section.heading, paragraphs: [{ sentences }] };
      },
    });
    expect(calls).toEqual(["s1", "s2", "s3"]);
    expect(report.re_researched).toEqual(["s1", "s2", "s3"]);
    // Research found something new for the first only: the others would be written again from the same evidence.
    expect(rewrites).toEqual(["s1"]);
    expect(report.rewritten).toEqual(["s1"]);
    expect(evidence.map((e) => e.id)).toEqual(["e1", "e2", "e3"]);
    // The new claim that its evidence does not support is removed too.
    expect(edited.sections.find((x) => x.key === "s1")!.paragraphs[0].sentences.map((x) => x.text)).toEqual([fresh.quote]);
  });
});

describe("edit, sections written again side by side", () => {
  it("a sentence two rewrites both bring is kept once: a later rewrite loses what an earlier one already says", async () => {
    const body = bodyOf([s(VERBATIM, ["e1"])], [s(INVENTED, ["e1"])], [s(INVENTED, ["e1"])]);
    const fresh: Evidence = { id: "e3", url: "https://guides.example/c", title: "More", quote: "Route planning that re-sequences stops keeps the technician moving toward the next closest customer. Route planning software can re-sequence the remaining stops when a job runs long.", fetched_at: "2025-01-01T00:00:00Z", origin: "web" };
    const [shared, own] = fresh.quote.split(/(?<=\.) /);
    const { body: edited, report } = await editArticle(body, brief, outline, EVIDENCE, {
      researchSection: async (_section, pool) => [...pool, { ...fresh, id: `e${pool.length + 1}` }],
      // Both thin sections are written again from the new passage, and both say its first sentence.
      rewriteSection: async (section, _others, pool) => {
        const id = pool[pool.length - 1].id;
        const sentences = section.key === outline.sections[1].key ? [s(shared, [id])] : [s(shared, [id]), s(own, [id])];
        return { key: section.key, role: section.role, heading: section.heading, paragraphs: [{ sentences }] };
      },
    });
    expect(report.rewritten.length).toBeGreaterThanOrEqual(2);
    expect(texts(edited).filter((t) => t === shared)).toHaveLength(1);
    expect(texts(edited)).toContain(own);
    expect(report.removed).toEqual(expect.arrayContaining([expect.objectContaining({ claim: shared, reason: "duplicate" })]));
  });
});

describe("edit, a rewrite that loses a repeat", () => {
  it("loses with it the sentence that leaned on the repeat, reported as dangling", async () => {
    const body = bodyOf([s(VERBATIM, ["e1"])], [s(INVENTED, ["e1"])], [s(INVENTED, ["e1"])]);
    const fresh: Evidence = {
      id: "e3",
      url: "https://guides.example/c",
      title: "More",
      quote:
        "Route planning that re-sequences stops keeps the technician moving toward the next closest customer. It also keeps the route planning board current for the dispatcher. Route planning software can re-sequence the remaining stops when a job runs long.",
      fetched_at: "2025-01-01T00:00:00Z",
      origin: "web",
    };
    const [shared, leaning, own] = fresh.quote.split(/(?<=\.) /);
    const { body: edited, report } = await editArticle(body, brief, outline, EVIDENCE, {
      researchSection: async (_section, pool) => [...pool, { ...fresh, id: `e${pool.length + 1}` }],
      // The first rewrite says the shared sentence; the second says it too, then a sentence leaning on it.
      rewriteSection: async (section, _others, pool) => {
        const id = pool[pool.length - 1].id;
        const sentences = section.key === outline.sections[1].key ? [s(shared, [id])] : [s(shared, [id]), s(leaning, [id]), s(own, [id])];
        return { key: section.key, role: section.role, heading: section.heading, paragraphs: [{ sentences }] };
      },
    });
    const said = texts(edited);
    expect(said.filter((t) => t === shared)).toHaveLength(1);
    expect(said).toContain(own);
    // "It also keeps …" cannot follow "… the dispatcher" of another section: it goes with the repeat it leaned on.
    const i = said.indexOf(leaning);
    expect(i === -1 || said[i - 1] === shared).toBe(true);
    expect(report.removed).toEqual(expect.arrayContaining([expect.objectContaining({ claim: leaning, reason: "dangling" })]));
  });
});

describe("edit with a model", () => {
  /** A fake chat model: entailment verdicts by rule, every prompt kept. */
  function fakeModel(supported: (claim: string) => boolean) {
    const prompts: string[] = [];
    const tokens: [number, number][] = [];
    const complete: CompleteFn = async (messages, options) => {
      const user = messages[messages.length - 1].content;
      prompts.push(user);
      expect(options?.json).toBe(true);
      const pairs = [...user.matchAll(/^Pair (\d+)\nCLAIM: (.+)$/gm)];
      return { text: JSON.stringify({ verdicts: pairs.map((m) => ({ id: Number(m[1]), supported: supported(m[2]) })) }), tokensIn: 50, tokensOut: 10 };
    };
    return { model: new MeteredModel(complete, async (i, o) => void tokens.push([i, o]), 0), prompts, tokens };
  }

  it("asks for entailment of non-verbatim claims, removes what the model rejects, keeps what it accepts and the quotes confirm", async () => {
    const { model, prompts, tokens } = fakeModel((claim) => !claim.includes("fuel"));
    const ACCEPTED = "Route planning works best when new jobs go into days when a technician is already nearby.";
    // The model says yes to this one too, but the quote shares almost none of its words: the model's word alone is not support.
    const LOOSE = "Grouping nearby visits gives each technician back most of an hour of road time daily.";
    const body = bodyOf([s(VERBATIM, ["e1"]), s(OFF_TOPIC, ["e1"])], [s(ACCEPTED, ["e1"]), s(LOOSE, ["e1"])], [s("Customers value reliable route planning more than speed.", ["e2"])]);
    const { body: edited, report } = await editArticle(body, brief, outline, EVIDENCE, { model });
    expect(texts(edited)).toEqual([VERBATIM, ACCEPTED, "Customers value reliable route planning more than speed."]);
    expect(report).toMatchObject({ checked_by: "model", checked: 5, supported: 3, removed_unsupported: 2 });
    // Near-verbatim quotes need no verdict: one batched call for the two loose claims.
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain(`CLAIM: ${OFF_TOPIC}`);
    expect(prompts[0]).toContain(`CLAIM: ${LOOSE}`);
    expect(prompts[0]).not.toContain(`CLAIM: ${ACCEPTED}`);
    expect(prompts[0]).not.toContain(`CLAIM: ${VERBATIM}`);
    expect(tokens).toEqual([[50, 10]]);
  });

  it("judges a pair offline when the model's answer leaves it out", async () => {
    const complete: CompleteFn = async () => ({ text: "I think they are mostly fine.", tokensIn: 5, tokensOut: 5 });
    const model = new MeteredModel(complete, async () => undefined, 0);
    const verdicts = await checkCitationSupport([{ claim: INVENTED, cites: ["e1"] }, { claim: PARAPHRASE, cites: ["e1"] }], new Map(EVIDENCE.map((e) => [e.id, e])), "en", model);
    expect(verdicts.map((v) => [v.supported, v.by])).toEqual([[false, "offline"], [true, "offline"]]);
  });
});
