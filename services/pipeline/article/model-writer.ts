import { Bm25Index } from "../../../shared/text/bm25";
import { parseCitedProse } from "./cited-prose";
import type { MeteredModel } from "./metered-model";
import { languagePack } from "./phrases";
import { summarizeSection, type SectionWriteInput, type SectionWriter, type WrittenSection } from "./section-writer";
import type { ArticleBrief, Evidence, VoiceGuide } from "./types";

const MAX_PASSAGES = 12;
/** The pool's passage index, built once per pool (a draft writes every section from the same pool). */
const passageIndexes = new WeakMap<readonly Evidence[], Bm25Index>();
const MIN_PASSAGES = 4;

/**
 * The passages a section's writer sees: the pool's best for the section's query, those no earlier section
 * cited first (so sections draw on different evidence rather than retelling it), topped up with the best
 * for the topic.
 */
export function passagesForSection(evidence: readonly Evidence[], query: string, topic: string, lang: string, cited: ReadonlySet<string> = new Set(), max = MAX_PASSAGES): Evidence[] {
  let index = passageIndexes.get(evidence);
  if (!index) passageIndexes.set(evidence, (index = Bm25Index.fromTexts(evidence.map((e) => ({ id: e.id, text: `${e.title}\n${e.heading ?? ""}\n${e.quote}` })), lang)));
  const ranked = index.search(query, Infinity, lang).map((h) => h.id);
  const ids = [...ranked.filter((id) => !cited.has(id)), ...ranked.filter((id) => cited.has(id))].slice(0, max);
  if (ids.length < MIN_PASSAGES) for (const hit of index.search(topic, max, lang)) if (!ids.includes(hit.id) && ids.length < MIN_PASSAGES) ids.push(hit.id);
  const byId = new Map(evidence.map((e) => [e.id, e]));
  return ids.map((id) => byId.get(id)!);
}

function voiceLines(voice: VoiceGuide | null, brief: ArticleBrief): string[] {
  const lines: string[] = [];
  if (brief.tone) lines.push(`Tone requested: ${brief.tone}`);
  if (!voice) return lines;
  lines.push(`Brand voice: ${voice.tone.join(", ") || "neutral"}; write in the ${voice.person.replace("_", " ")} person.`);
  if (voice.sentenceMean) lines.push(`Average sentence length: about ${Math.round(voice.sentenceMean)} words.`);
  if (voice.readingEase) lines.push(`Reading ease (Flesch) of the brand's writing: about ${Math.round(voice.readingEase)}.`);
  if (voice.preferPhrases.length) lines.push(`Phrases the brand uses: ${voice.preferPhrases.join(", ")}`);
  if (voice.avoidPhrases.length) lines.push(`Never use: ${voice.avoidPhrases.slice(0, 30).join(", ")}`);
  return lines;
}

/**
 * The model writer: an OpenAI-compatible chat model writes the section from the passages it is given,
 * marking each factual sentence with the ids of its passages. The prompt carries the brief, the budget,
 * the voice, the passages with their ids and what earlier sections said; the answer is parsed into
 * sentences with citations (unknown ids and typed addresses dropped) for the editor to check.
 */
export class ModelSectionWriter implements SectionWriter {
  readonly kind = "model" as const;

  constructor(private readonly model: MeteredModel) {}

  async writeSection(input: SectionWriteInput): Promise<WrittenSection> {
    const { brief, section } = input;
    const pack = languagePack(brief.language);
    const cited = new Set(input.earlier.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.flatMap((x) => x.cites))));
    const passages = passagesForSection(input.evidence, section.query, brief.topic, brief.language, cited);
    const system = [
      `You write one section of a long-form article in ${pack.name}. Use only facts stated in the evidence passages.`,
      "After every sentence that states a fact, put the id of the passage that supports it in square brackets, e.g. [e3] or [e3][e7].",
      "Cite only the ids listed in the evidence. Never write URLs or source names as citations.",
      "Do not repeat what the earlier sections already said; passages marked (cited earlier) were used before. No headings, no lists, no markdown: plain paragraphs separated by blank lines.",
    ].join(" ");
    const user = [
      `Article topic: ${brief.topic}`,
      `Target keyword: ${brief.keyword}`,
      `Angle: ${brief.angle}`,
      brief.audience ? `Audience: ${brief.audience}` : "",
      ...voiceLines(brief.voice, brief),
      brief.extra_instructions ? `Extra instructions: ${brief.extra_instructions}` : "",
      "",
      section.role === "intro" ? "Section: the introduction (no heading)" : `Section heading: ${section.heading}`,
      `What it covers: ${section.brief}`,
      `Length: about ${section.budget} words.`,
      "",
      input.earlier.length ? `Earlier sections (do not repeat):\n${input.earlier.map((s) => `- ${summarizeSection(s)}`).join("\n")}` : "This is the first section.",
      "",
      "Evidence:",
      // Passages earlier sections cited are marked, so the model uses them for something new or not at all.
      ...passages.map((e) => `[${e.id}] (${e.title})${cited.has(e.id) ? " (cited earlier)" : ""} ${e.quote}`),
    ]
      .filter((line, i, all) => line !== "" || all[i - 1] !== "")
      .join("\n");
    const text = await this.model.text(
      [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      { maxTokens: Math.ceil(section.budget * 2.2) + 200, temperature: 0.4 },
    );
    const { paragraphs, droppedCitations } = parseCitedProse(text, new Set(passages.map((p) => p.id)), brief.language);
    return { section: { key: section.key, role: section.role, heading: section.heading, paragraphs }, droppedCitations };
  }
}
