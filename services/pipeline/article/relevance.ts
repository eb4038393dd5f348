import { tokenize } from "../../../shared/text/tokenize";
import { termSet } from "./similarity";
import { buildCoverageModel, withCompounds, type CoverageModel } from "./coverage";
import { unitsOfEvidence, unitsOfPool, type EvidenceUnit } from "./evidence-sentences";
import type { ArticleBrief, Evidence } from "./types";

/**
 * Topical relevance of evidence sentences: how much of the topic (topic and keyword terms, stemmed, stopwords
 * out) a sentence states, each term weighted by its rarity in the pool (idf, so "scheduling", which a
 * scheduling company's every page says, counts less than "drive"). Terms found only in the passage's heading
 * count a third: the heading situates a sentence ("How route batching cut drive time" over "Polar Comfort runs
 * 31 technicians…") but does not make it say anything about the topic.
 *
 * Context counts too: a sentence that touches the topic at all gains 40% of the score of the best other sentence of its
 * passage ("Polar Comfort runs 31 technicians" sits next to "drive time averaged 2 hours"), and, within a
 * body section, 40% of its match of the section heading's own terms (those not in the topic), so a section
 * on "Clustering jobs" may use "Group each technician's jobs by neighbourhood".
 *
 * A sentence is on topic when its score reaches `RELEVANCE_FLOOR` of the reference score (the mean of the
 * pool's three best own scores): relative, so a pool whose best sentences match two topic terms and one
 * whose best match five are judged alike. A sentence whose passage shares no topic term is never on topic.
 *
 * The relative floor only ranks: before it, every sentence must be ABOUT the topic in absolute terms and in the
 * article's language (`coverage.ts`); a sentence that is not scores 0, whatever the rest of the pool holds.
 */
export const RELEVANCE_FLOOR = 0.35;
const HEADING_WEIGHT = 1 / 3;
const TITLE_SHARE = 0.5;
const CONTEXT_WEIGHT = 0.4;
const SECTION_WEIGHT = 0.4;
const REFERENCE_TOP = 3;

export interface RelevanceModel {
  /** Topic score of a text (optionally with the heading of its passage). */
  score(text: string, heading?: string): number;
  /** Topic score of a unit, with its passage's context. */
  unit(unit: EvidenceUnit): number;
  /** Topic score of a unit within a body section: plus its match of the section heading's own terms. */
  forSection(unit: EvidenceUnit, heading: string): number;
  /** Score of an article sentence citing these evidence ids (the unit it quotes, when it is one) in a section with this heading. */
  sentence(text: string, cites: readonly string[], heading?: string): number;
  /** Score divided by the reference (1 ≈ as relevant as the pool's best sentences); 0 when the pool has no relevant sentence. */
  relative(score: number): number;
  onTopic(score: number): boolean;
  reference: number;
  /** The absolute test: topic concepts and language (`coverage.ts`). */
  coverage: CoverageModel;
  /** Units of the pool that are about the topic and in the article's language. */
  aboutUnits: readonly EvidenceUnit[];
  /**
   * Whether an article sentence is about the topic, in absolute terms: a quotation when the unit it quotes is
   * (`coverage.ts`), a written sentence when its own words state the topic, an uncited framing sentence when
   * it names the keyword or a topic concept.
   */
  isAboutSentence(text: string, cites: readonly string[], heading?: string): boolean;
  /** Extra terms (a section heading's own terms) scored the same way: how well a text answers them. */
  scoreTerms(terms: readonly string[], text: string, heading?: string): number;
}

const cache = new WeakMap<readonly Evidence[], Map<string, RelevanceModel>>();

/** The relevance model of a pool for a brief (cached per pool and topic). */
export function relevanceModel(evidence: readonly Evidence[], brief: Pick<ArticleBrief, "topic" | "keyword" | "language">): RelevanceModel {
  const key = `${brief.language}\u0000${brief.topic}\u0000${brief.keyword}`;
  let perPool = cache.get(evidence);
  if (!perPool) cache.set(evidence, (perPool = new Map()));
  let model = perPool.get(key);
  if (!model) perPool.set(key, (model = buildModel(evidence, brief)));
  return model;
}

function buildModel(evidence: readonly Evidence[], brief: Pick<ArticleBrief, "topic" | "keyword" | "language">): RelevanceModel {
  const lang = brief.language;
  const units = unitsOfPool(evidence, lang);
  const phrase = `${brief.topic} ${brief.keyword}`;
  const topicSet = new Set(tokenize(phrase, lang));
  const phraseTerms = [...topicSet];
  // German compounds state the topic's terms they contain ("Datensicherungssystem"): `withCompounds`.
  const termsOf = (text: string) => withCompounds(termSet(text, lang), phraseTerms, lang);
  const df = new Map<string, number>();
  for (const u of units) for (const t of termsOf(u.text)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(units.length, 1);
  const idf = (t: string) => Math.log(1 + n / ((df.get(t) ?? 0) + 1));
  // A hyphenated compound of the topic ("field-service") is one term: its parts alone ("Kestrel Field",
  // "customer service") are other subjects. It matches written with a hyphen or a space.
  const compounds = [...new Set((phrase.toLowerCase().match(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu) ?? []))];
  const compoundParts = new Set(compounds.flatMap((c) => tokenize(c.replace(/-/g, " "), lang)));
  const topic = phraseTerms.filter((t) => !compoundParts.has(t));
  // Adjacent topic terms ("drive time") found adjacent in a text count again, half: a phrase of the topic says more than its words apart.
  const words = tokenize(phrase.replace(/[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)+/gu, " | "), lang);
  const bigrams = [...new Set(words.slice(1).map((w, i) => `${words[i]} ${w}`))];
  const compoundIdf = (c: string) => Math.max(0, ...tokenize(c.replace(/-/g, " "), lang).map(idf));
  const scoreTerms = (terms: readonly string[], text: string, heading = "") => {
    const own = termsOf(text);
    const situating = heading ? termsOf(heading) : new Set<string>();
    let score = 0;
    for (const t of new Set(terms)) {
      if (own.has(t)) score += idf(t);
      else if (situating.has(t)) score += HEADING_WEIGHT * idf(t);
    }
    if (terms === topic) {
      const lowerText = text.toLowerCase();
      const lowerHeading = heading.toLowerCase();
      for (const c of compounds) {
        const variants = [c, c.replace(/-/g, " ")];
        if (variants.some((v) => lowerText.includes(v))) score += compoundIdf(c);
        else if (variants.some((v) => lowerHeading.includes(v))) score += HEADING_WEIGHT * compoundIdf(c);
      }
      const sequence = tokenize(text, lang);
      const pairs = new Set(sequence.slice(1).map((w, i) => `${sequence[i]} ${w}`));
      for (const b of bigrams) if (pairs.has(b)) score += 0.5 * b.split(" ").reduce((n, t) => n + idf(t), 0);
    }
    return score;
  };
  const score = (text: string, heading = "") => scoreTerms(topic, text, heading);
  // What situates a sentence: its page's title and its passage's heading.
  const headings = new Map(evidence.map((e) => [e.id, e.heading ?? ""]));
  const titles = new Map(evidence.map((e) => [e.id, e.title]));
  const situate = (u: EvidenceUnit) => headings.get(u.evidenceId) ?? u.heading;
  // The page title situates a passage more loosely than its heading: half the heading's weight.
  const ownScore = (u: EvidenceUnit) => {
    const withHeading = score(u.text, situate(u));
    const withTitle = score(u.text, `${situate(u)}\n${titles.get(u.evidenceId) ?? ""}`);
    return withHeading + TITLE_SHARE * (withTitle - withHeading);
  };
  const coverage = buildCoverageModel(units, evidence, brief, (text) => termSet(text, lang));
  const own = new Map(units.map((u) => [u.key, coverage.isAbout(u) ? ownScore(u) : 0]));
  const ownOf = (u: EvidenceUnit) => own.get(u.key) ?? (coverage.isAbout(u) ? ownScore(u) : 0);
  // Each passage's two best own scores: a unit's context is the best of the others.
  const passageBest = new Map<string, number[]>();
  for (const u of units) {
    const list = passageBest.get(u.evidenceId) ?? [];
    list.push(ownOf(u));
    passageBest.set(u.evidenceId, list.sort((a, b) => b - a).slice(0, 2));
  }
  const unit = (u: EvidenceUnit) => {
    const mine = ownOf(u);
    const [first = 0, second = 0] = passageBest.get(u.evidenceId) ?? [];
    // Context lifts a sentence that touches the topic at all (in its words, heading or title); it does not make one about something else relevant.
    return mine > 0 ? mine + CONTEXT_WEIGHT * (first === mine ? second : first) : 0;
  };
  const forSection = (u: EvidenceUnit, heading: string) => {
    if (!coverage.isAbout(u)) return 0;
    const distinctive = tokenize(heading, lang).filter((t) => !topicSet.has(t));
    return unit(u) + (distinctive.length ? SECTION_WEIGHT * scoreTerms(distinctive, u.text, situate(u)) : 0);
  };
  const byEvidence = new Map<string, EvidenceUnit[]>();
  for (const e of evidence) byEvidence.set(e.id, [...unitsOfEvidence(e, lang)]);
  /** The units of the cited passages an article sentence quotes (it is a unit, or a unit holds it). */
  const quotedUnits = (text: string, cites: readonly string[]) => cites.flatMap((id) => byEvidence.get(id) ?? []).filter((u) => u.text.includes(text) || text.includes(u.text));
  const best = units.map(ownOf).sort((a, b) => b - a);
  const top = best.slice(0, REFERENCE_TOP).filter((s) => s > 0);
  const reference = top.length ? top.reduce((a, b) => a + b, 0) / top.length : 0;
  return {
    score,
    scoreTerms,
    unit,
    forSection,
    sentence: (text, cites, heading = "") => {
      const quoted = quotedUnits(text, cites);
      if (quoted.length) return Math.max(...quoted.map((u) => forSection(u, heading)));
      const situating = cites.map((id) => headings.get(id) ?? "").join(" ");
      // A written (not quoted) sentence must itself state the topic, as a quoted one must.
      if (!coverage.sentenceIsAbout(text, `${heading} ${situating}`)) return 0;
      return score(text, situating);
    },
    reference,
    coverage,
    aboutUnits: units.filter((u) => coverage.isAbout(u)),
    isAboutSentence: (text, cites, heading = "") => {
      const quoted = quotedUnits(text, cites);
      if (quoted.length) return quoted.some((u) => coverage.isAbout(u));
      if (cites.length) return coverage.sentenceIsAbout(text, heading);
      const own = termSet(text, lang);
      return text.toLowerCase().includes(brief.keyword.toLowerCase()) || coverage.concepts.some((c) => own.has(c.term));
    },
    relative: (s) => (reference ? s / reference : 0),
    onTopic: (s) => s > 0 && reference > 0 && s >= RELEVANCE_FLOOR * reference,
  };
}
