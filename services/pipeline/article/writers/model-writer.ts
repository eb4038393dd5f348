import { Bm25Index } from "../../../../shared/text/bm25";
import { parseCitedProse } from "./cited-prose";
import { languagePack } from "../language/phrases";
import { summarizeSection, type SectionWriteInput, type SectionWriter, type WrittenSection } from "./section-writer";
import { identifyLanguage, UNDETERMINED } from "../../../../shared/text/language";
import { baseLanguage } from "../../../../shared/text/stopwords";
import { ModelFailure, type MeteredModel } from "../model/metered-model";
import { relevanceModel, type RelevanceModel } from "../relevance";
import type { ArticleBrief, ArticleParagraph, Evidence, Outline, VoiceGuide } from "../types";
import { isReservedForFaq, type FaqReserve } from "../search/faq";

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

/** The language a written section is mostly in, when that is not the requested one (more than a fifth of its sentences). */
function offLanguage(paragraphs: ArticleParagraph[], brief: ArticleBrief): string | null {
  const judged = paragraphs.flatMap((p) => p.sentences.map((s) => identifyLanguage(s.text))).filter((l) => l !== UNDETERMINED);
  const other = judged.filter((l) => l !== baseLanguage(brief.language));
  if (!other.length || other.length <= judged.length / 5) return null;
  const counts = new Map<string, number>();
  for (const l of other) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

/**
 * A passage as the model reads it: one line of its relevant strips (corrective retrieval keeps only those), in
 * the passage's order, without those kept for the FAQ. Heading lines, code, table rows, sentences in another
 * language and the passage's other subjects are left out, so the model is never handed what the article must
 * not say. Empty when nothing of the passage is left.
 */
export function passageProse(e: Evidence, relevance: RelevanceModel, reserved?: FaqReserve): string {
  // A passage shared out in pieces (`shareOutEvidence`) carries only its piece's strips in its quote.
  const flat = (text: string) => text.replace(/\s+/g, " ");
  const quote = flat(e.quote);
  return relevance
    .stripsOf(e.id)
    .filter((u) => !isReservedForFaq(u, reserved) && quote.includes(flat(u.text)))
    .map((u) => u.text)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The writer's standing instructions: the same for every section of every article in a language. */
function sectionSystemPrompt(language: string): string {
  return [
    `You write one section of a long-form article in ${language}. Use only facts stated in the evidence passages.`,
    "After every sentence that states a fact, put the id of the passage that supports it in square brackets, e.g. [e3] or [e3][e7].",
    "Cite only the ids listed in the evidence. Never write URLs or source names as citations.",
    "Write only your section: the outline says what the other sections cover, and their evidence is theirs.",
    "No headings, no lists, no markdown: plain paragraphs separated by blank lines.",
  ].join(" ");
}

/** What every section's writer is told of the article: the request, the voice and the whole outline. */
function articleContext(brief: ArticleBrief, outline: Outline): string {
  return [
    `Article topic: ${brief.topic}`,
    `Target keyword: ${brief.keyword}`,
    `Angle: ${brief.angle}`,
    brief.audience ? `Audience: ${brief.audience}` : "",
    ...voiceLines(brief.voice, brief),
    brief.extra_instructions ? `Extra instructions: ${brief.extra_instructions}` : "",
    "Outline (each section covers only its own part):",
    ...outline.sections.map((s) => `- ${s.role === "intro" ? "Introduction" : s.role === "conclusion" ? `Conclusion: ${s.heading}` : s.heading}: ${s.brief}`),
  ]
    .filter(Boolean)
    .join("\n");
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
  readonly drafting = "side-by-side" as const;

  constructor(private readonly model: MeteredModel) {}

  async writeSection(input: SectionWriteInput): Promise<WrittenSection> {
    const { brief, section } = input;
    const pack = languagePack(brief.language);
    const cited = new Set(input.earlier.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.flatMap((x) => x.cites))));
    const relevance = relevanceModel(input.evidence, brief);
    const prose = new Map<string, string>();
    const proseOf = (e: Evidence) => prose.get(e.id) ?? prose.set(e.id, passageProse(e, relevance, input.reserved)).get(e.id)!;
    const passages = (input.passages ?? passagesForSection(relevance.aboutPassages, section.query, brief.topic, brief.language, cited)).filter((e) => proseOf(e));
    // Nothing to write from: the section is not written (and no model is paid to write it from nothing).
    if (!passages.length) return { section: { key: section.key, role: section.role, heading: section.heading, paragraphs: [] }, droppedCitations: 0 };
    // The article's part of the prompt comes first and is the same for every section (providers cache a
    // repeated prefix); what is this section's own follows.
    const user = [
      articleContext(brief, input.outline),
      "",
      section.role === "intro" ? "Your section: the introduction (no heading)" : `Section heading: ${section.heading}`,
      `What it covers: ${section.brief}`,
      `Length: about ${section.budget} words.`,
      ...(input.earlier.length ? ["", `Earlier sections (do not repeat):\n${input.earlier.map((s) => `- ${summarizeSection(s)}`).join("\n")}`] : []),
      "",
      "Evidence:",
      // Passages earlier sections cited are marked, so the model uses them for something new or not at all.
      ...passages.map((e) => `[${e.id}] (${[e.title, e.heading].filter(Boolean).join(" › ")})${cited.has(e.id) ? " (cited earlier)" : ""} ${proseOf(e)}`),
    ].join("\n");
    const system = sectionSystemPrompt(pack.name);
    const ask = (extra = "") =>
      this.model.text(
        [
          { role: "system", content: system + extra },
          { role: "user", content: user },
        ],
        { maxTokens: Math.ceil(section.budget * 2.2) + 200, temperature: 0.4 },
      );
    const allowed = new Set(passages.map((p) => p.id));
    let parsed = parseCitedProse(await ask(), allowed, brief.language);
    let found = offLanguage(parsed.paragraphs, brief);
    // A section in another language is asked for once more, in so many words; twice is a failure (the job is refunded).
    if (found) {
      parsed = parseCitedProse(await ask(` Write in ${pack.name} only, whatever the language of the passages.`), allowed, brief.language);
      found = offLanguage(parsed.paragraphs, brief);
      if (found) throw new ModelFailure(`The model wrote the section “${section.heading || "introduction"}” in ${found} twice, not in ${pack.name} (${brief.language}).`);
    }
    return { section: { key: section.key, role: section.role, heading: section.heading, paragraphs: parsed.paragraphs }, droppedCitations: parsed.droppedCitations };
  }
}
