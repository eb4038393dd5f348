import OpenAI from "openai";
import { chatModelFrom } from "../../shared/llm/from-config";
import { parseCitedProse } from "../../services/pipeline/article/writers/cited-prose";
import { MeteredModel, ModelFailure } from "../../services/pipeline/article/model/metered-model";
import { ModelSectionWriter } from "../../services/pipeline/article/writers/model-writer";
import { faqReserve } from "../../services/pipeline/article/search/faq";
import { planOutlineByRules } from "../../services/pipeline/article/brief/outline";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import type { ArticleSection, Evidence } from "../../services/pipeline/article/types";
import { startFakeOpenAI, TINY_PNG, type FakeOpenAI } from "../support/fake-openai";

const EVIDENCE: Evidence[] = [
  { id: "e1", url: "https://guides.example/a", title: "Route planning basics", quote: "Route planning that clusters jobs within a 15-minute drive radius saves 40 to 70 minutes of driving per technician per day.", fetched_at: "", origin: "web" },
  { id: "e2", url: "https://guides.example/b", title: "Arrival windows", quote: "Route planning around a two-hour window is a common compromise for field service teams on routine maintenance visits.", fetched_at: "", origin: "web" },
];

const brief = {
  ...decideBriefByRules({ topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard", language: "en", target_words: 600, image: false, derivatives: [], audience: "dispatchers" }, null),
  voice: { tone: ["warm"], person: "first_plural", readingEase: 62, sentenceMean: 14, vocabulary: [], preferPhrases: ["on the road"], avoidPhrases: ["seamless"] },
};
const outline = planOutlineByRules(brief, 600, []);
const EARLIER: ArticleSection[] = [{ key: "intro", role: "intro", heading: "", paragraphs: [{ sentences: [{ text: "Dispatchers plan the day before.", cites: ["e1"] }] }] }];

describe("parsing cited prose", () => {
  const allowed = new Set(["e1", "e2"]);

  it("reads markers wherever the writer put them", () => {
    const text = "Clustering saves time [e1]. Windows of two hours are common. [E2] Both matter.[e1][e2]\n\nA second paragraph [e1, e2].";
    expect(parseCitedProse(text, allowed, "en")).toEqual({
      paragraphs: [
        { sentences: [{ text: "Clustering saves time.", cites: ["e1"] }, { text: "Windows of two hours are common.", cites: ["e2"] }, { text: "Both matter.", cites: ["e1", "e2"] }] },
        { sentences: [{ text: "A second paragraph.", cites: ["e1", "e2"] }] },
      ],
      droppedCitations: 0,
    });
  });

  it("drops ids it was not given, typed addresses, headings and markup", () => {
    const text = "## Heading\n\n- **Clustering** saves time [e7]. See https://evil.example/x for more [e1]. Read [the guide](https://guides.example/a) [e2].";
    const { paragraphs, droppedCitations } = parseCitedProse(text, allowed, "en");
    expect(droppedCitations).toBe(1);
    expect(paragraphs).toEqual([
      { sentences: [{ text: "Clustering saves time.", cites: [] }, { text: "See for more.", cites: ["e1"] }, { text: "Read the guide.", cites: ["e2"] }] },
    ]);
  });
});

describe("the model writer against an OpenAI-compatible server", () => {
  let server: FakeOpenAI;
  beforeEach(async () => {
    server = await startFakeOpenAI();
  });
  afterEach(() => server.close());

  const modelFor = (maxRetries: number, tokens: [number, number][] = []) => {
    const complete = chatModelFrom({ LLM_BASE_URL: server.baseURL, LLM_API_KEY: "sk-test", LLM_MODEL: "gpt-4o-mini", LLM_MAX_RETRIES: maxRetries, LLM_TIMEOUT_MS: 5000 })!;
    return new MeteredModel(complete, async (i, o) => void tokens.push([i, o]), maxRetries);
  };

  it("sends the brief, budget, voice, evidence and earlier sections, and meters the tokens", async () => {
    server.setChat(() => ({ content: "Clustering jobs by area saves driving time for field service teams [e1]. A two-hour window is common for field service teams [e2]. See https://x.example [e9].", usage: { prompt_tokens: 812, completion_tokens: 41 } }));
    const tokens: [number, number][] = [];
    const model = modelFor(0, tokens);
    const section = outline.sections[1];
    const written = await new ModelSectionWriter(model).writeSection({ brief, outline, section, earlier: EARLIER, evidence: EVIDENCE });

    const [request] = server.chatRequests();
    expect(request.body).toMatchObject({ model: "gpt-4o-mini", temperature: 0.4, max_tokens: Math.ceil(section.budget * 2.2) + 200 });
    const [system, user] = request.body.messages;
    expect(system.content).toContain("in English");
    expect(system.content).toContain("Cite only the ids listed in the evidence");
    expect(user.content).toContain(`Section heading: ${section.heading}`);
    expect(user.content).toContain(`Length: about ${section.budget} words.`);
    expect(user.content).toContain("write in the first plural person");
    expect(user.content).toContain("Never use: seamless");
    expect(user.content).toContain("- Introduction: Dispatchers plan the day before.");
    // Passages earlier sections cited come last, marked.
    expect(user.content).toContain(`Evidence:\n[e2] (Arrival windows) ${EVIDENCE[1].quote}\n[e1] (Route planning basics) (cited earlier) ${EVIDENCE[0].quote}`);

    expect(written.section.paragraphs[0].sentences).toEqual([
      { text: "Clustering jobs by area saves driving time for field service teams.", cites: ["e1"] },
      { text: "A two-hour window is common for field service teams.", cites: ["e2"] },
      { text: "See.", cites: [] },
    ]);
    expect(written.droppedCitations).toBe(1);
    expect(tokens).toEqual([[812, 41]]);
    expect(model.usage).toMatchObject({ calls: 1, tokens_in: 812, tokens_out: 41 });
  });

  it("hands the model only a passage's relevant strips: no sentence in another language, about something else, or kept for the FAQ", async () => {
    server.setChat(() => "Clustering saves time [e3].");
    const mixed: Evidence = {
      id: "e3",
      url: "https://guides.example/c",
      title: "Team notes",
      quote:
        "Route planning that clusters jobs by area saves technicians an hour of driving every day. " +
        "Route planning software shows every technician's jobs for the day on one map. " +
        "Die Routenplanung entscheidet, wie viel Zeit ein Techniker am Tag mit Fahren verbringt. " +
        "The office kitchen is cleaned every Friday afternoon by an outside company.",
      fetched_at: "",
      origin: "web",
    };
    const pool = [...EVIDENCE, mixed];
    const reserved = faqReserve(["Route planning software shows every technician's jobs for the day on one map."]);
    await new ModelSectionWriter(modelFor(0)).writeSection({ brief, outline, section: outline.sections[1], earlier: [], evidence: pool, passages: [mixed], reserved });
    const user: string = server.chatRequests()[0].body.messages[1].content;
    expect(user).toMatch(/^\[e3\] \(Team notes\) Route planning that clusters jobs by area saves technicians an hour of driving every day\.$/m);
    expect(user).not.toContain("Die Routenplanung");
    expect(user).not.toContain("office kitchen");
    expect(user).not.toContain("shows every technician's jobs");
  });

  it("retries 500 and 429 answers, then succeeds", async () => {
    server.setChat((_, n) => (n === 1 ? { status: 500, headers: { "retry-after-ms": "1" } } : n === 2 ? { status: 429, headers: { "retry-after-ms": "1" } } : "Ok [e1]."));
    const section = await new ModelSectionWriter(modelFor(2)).writeSection({ brief, outline, section: outline.sections[1], earlier: [], evidence: EVIDENCE });
    expect(server.chatRequests().map((r) => r.status)).toEqual([500, 429, 200]);
    expect(section.section.paragraphs[0].sentences).toEqual([{ text: "Ok.", cites: ["e1"] }]);
  });

  it("fails with the status and the retries when the server keeps failing", async () => {
    server.setChat(() => ({ status: 500, headers: { "retry-after-ms": "1" } }));
    const attempt = new ModelSectionWriter(modelFor(3)).writeSection({ brief, outline, section: outline.sections[1], earlier: [], evidence: EVIDENCE });
    await expect(attempt).rejects.toBeInstanceOf(ModelFailure);
    await expect(attempt).rejects.toThrow("The model request failed after 3 retries: 500 Internal Server Error");
    expect(server.chatRequests()).toHaveLength(4);
  });

  it("does not retry a refused request", async () => {
    server.setChat(() => ({ status: 400, message: "max_tokens is too large" }));
    await expect(modelFor(3).text([{ role: "user", content: "hi" }])).rejects.toThrow("The model refused the request: 400 max_tokens is too large");
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("answers the official SDK's embeddings and images calls in their documented shapes", async () => {
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "sk-test", maxRetries: 0 });
    const floats = await client.embeddings.create({ model: "text-embedding-3-small", input: ["a", "b"], encoding_format: "float", dimensions: 4 });
    expect(floats.data.map((d) => [d.index, d.embedding.length])).toEqual([[0, 4], [1, 4]]);
    // Without encoding_format the SDK asks for base64 and decodes it to floats itself.
    const decoded = await client.embeddings.create({ model: "text-embedding-3-small", input: "a", dimensions: 4 });
    expect(decoded.data[0].embedding).toHaveLength(4);
    expect(decoded.data[0].embedding[0]).toBeCloseTo(floats.data[0].embedding[0], 5);
    const image = await client.images.generate({ model: "gpt-image-1", prompt: "a van", response_format: "b64_json" });
    expect(Buffer.from(image.data![0].b64_json!, "base64").equals(TINY_PNG)).toBe(true);
  });
});
