import { Bm25Index } from "../../../../shared/text/bm25";
import { countWords } from "../../../../shared/text/segment";
import { tokenize } from "../../../../shared/text/tokenize";
import { termSet } from "../evidence/similarity";
import { analyseRequest, type RelevanceModel } from "../relevance";
import { angleTerms } from "../relevance/request";
import type { EvidenceUnit } from "../evidence/units";
import type { ArticleBrief, Evidence, Outline, PlannedSection } from "../types";
import { isReservedForFaq, type FaqReserve } from "../search/faq";

/**
 * Words of evidence a section is given per word it is to write: a writer that restates needs more than it
 * writes (it leaves out what does not fit the section), and every passage sent is paid for, so not much more.
 */
const EVIDENCE_PER_WORD = 1.6;
/** However rich the pool, a section sees at most this many passages (what a model can weigh in one answer). */
const MAX_PASSAGES = 10;
/** A passage is a section's own when it matches the section's own words at least this share of the section's best match. */
const STRONG_MATCH = 0.5;

/**
 * A body section's own words: the subject of its heading (the relevance model's `analyseRequest`: without an
 * angle such as "the essentials") without the topic's and keyword's words, which every section shares. None for
 * the introduction, the conclusion, and a heading that adds nothing to the topic: those speak of the whole topic.
 */
function ownTerms(section: PlannedSection, brief: ArticleBrief): string[] {
  if (section.role !== "body") return [];
  // A heading made only of angle words ("Pourquoi c'est important", "In practice") keeps them as its subject
  // in `analyseRequest`; here it has none of its own, and speaks of the whole topic.
  const shared = new Set([...tokenize(`${brief.topic} ${brief.keyword}`, brief.language), ...angleTerms(brief.language)]);
  return [...new Set(analyseRequest(section.heading, "", brief.language).subject.map((t) => t.term).filter((t) => !shared.has(t)))];
}

/**
 * The evidence of an outline shared out before its sections are written side by side, each passage to one
 * section only, so sections that cannot see each other's text still do not retell the same evidence (the
 * outline's headings and briefs tell each writer what the others cover). The introduction first picks the
 * passage most about the whole topic; then sections take turns picking the
 * passage that matches them best (BM25 over title, heading and quote) until each holds about
 * `EVIDENCE_PER_WORD` × its budget in words: first passages that are clearly theirs (holding half their own
 * words, and matching them at least half as well as their best), then weaker such matches; only the
 * introduction, the conclusion and sections whose heading adds nothing to the topic ("Route planning: the
 * essentials") take what no heading claims, those naming the topic's words first. A section with no passage
 * of its own gets none: it is not written (rather than written from another section's material), and
 * passages nobody takes are not sent (they are paid for). Every passage here is one the relevance model
 * judged on topic (its relevant strips only: `shareOutEvidence`), so nothing sent is padding.
 */
export function assignEvidence(outline: Outline, about: readonly Evidence[], brief: ArticleBrief): Map<string, string[]> {
  const lang = brief.language;
  const index = Bm25Index.fromTexts(about.map((e) => ({ id: e.id, text: `${e.title}\n${e.heading ?? ""}\n${e.quote}` })), lang);
  const words = new Map(about.map((e) => [e.id, countWords(e.quote, lang)]));
  const terms = new Map(about.map((e) => [e.id, termSet(`${e.heading ?? ""} ${e.quote}`, lang)]));
  const rankings = outline.sections.map((section) => {
    const own = ownTerms(section, brief);
    if (!own.length) return { section, general: true, strong: [] as string[], any: [] as string[] };
    // A passage is about the section when it holds at least half of the section's own words ("jobs" alone does not
    // make a passage about "Matching skills to jobs"), ranked by BM25 on them.
    const holds = (id: string) => own.filter((t) => terms.get(id)!.has(t)).length >= Math.ceil(own.length / 2);
    const hits = index.search(own.join(" "), Infinity, lang).filter((h) => h.score > 0 && holds(h.id));
    const best = hits[0]?.score ?? 0;
    return { section, general: false, strong: hits.filter((h) => h.score >= STRONG_MATCH * best).map((h) => h.id), any: hits.map((h) => h.id) };
  });
  const assigned = new Map(outline.sections.map((s) => [s.key, [] as string[]]));
  const held = new Map(outline.sections.map((s) => [s.key, 0]));
  const taken = new Set<string>();
  const wants = (s: PlannedSection) => held.get(s.key)! < s.budget * EVIDENCE_PER_WORD && assigned.get(s.key)!.length < MAX_PASSAGES;
  const take = (section: PlannedSection, id: string) => {
    taken.add(id);
    assigned.get(section.key)!.push(id);
    held.set(section.key, held.get(section.key)! + (words.get(id) ?? 0));
  };
  const share = (candidates: (r: (typeof rankings)[number]) => readonly string[]) => {
    for (let progress = true; progress; ) {
      progress = false;
      for (const r of rankings) {
        if (!wants(r.section)) continue;
        const next = candidates(r).find((id) => !taken.has(id));
        if (!next) continue;
        take(r.section, next);
        progress = true;
      }
    }
  };
  // What the introduction, the conclusion and overview sections may take: every passage (the relevance model
  // judged each on topic), those that name the topic's own words first, best match first. Pasted notes on a
  // bicycle name it in 2 of 28 facts: by the topic's words alone, three of five sections got nothing to write from.
  const topicHits = index.search(`${brief.topic} ${brief.keyword}`, Infinity, lang).filter((h) => h.score > 0);
  const named = topicHits.map((h) => h.id);
  const topic = [...named, ...about.map((e) => e.id).filter((id) => !named.includes(id))];
  // The introduction opens with what is most about the whole topic: it picks once before the sections take their own.
  const opening = rankings.find((r) => r.section.role === "intro");
  if (opening && topic[0]) take(opening.section, topic[0]);
  share((r) => r.strong);
  share((r) => r.any);
  share((r) => (r.general ? topic : []));
  return assigned;
}

/**
 * Words of relevant strips one shared-out piece of a passage holds at most. A pasted text of thirty facts is one
 * passage: shared out whole it would feed one section, and the others would go unwritten though it holds their
 * material too.
 */
const PIECE_WORDS = 120;

/**
 * The evidence each section is written from, side by side: the passages' relevant strips (none kept for the FAQ)
 * cut into pieces of at most `PIECE_WORDS`, shared out by `assignEvidence`, then given back under their passages'
 * own ids (a section given two pieces of one passage sees one passage), so every citation names real evidence.
 */
export function shareOutEvidence(outline: Outline, relevance: RelevanceModel, brief: ArticleBrief, reserved?: FaqReserve): Map<string, Evidence[]> {
  const pieces = new Map<string, { passage: Evidence; piece: Evidence }>();
  for (const passage of relevance.aboutPassages) {
    const runs: EvidenceUnit[][] = [];
    let words = PIECE_WORDS;
    for (const u of relevance.stripsOf(passage.id).filter((x) => !isReservedForFaq(x, reserved))) {
      if (words + u.words > PIECE_WORDS) (runs.push([]), (words = 0));
      runs[runs.length - 1].push(u);
      words += u.words;
    }
    runs.forEach((run, k) => {
      const id = runs.length > 1 ? `${passage.id}~${k + 1}` : passage.id;
      pieces.set(id, { passage, piece: { ...passage, id, quote: run.map((u) => u.text).join("\n") } });
    });
  }
  const assigned = assignEvidence(outline, [...pieces.values()].map((p) => p.piece), brief);
  return new Map(
    outline.sections.map((section) => {
      const given = new Map<string, Evidence>();
      for (const id of assigned.get(section.key) ?? []) {
        const { passage, piece } = pieces.get(id)!;
        const before = given.get(passage.id);
        given.set(passage.id, { ...passage, quote: before ? `${before.quote}\n${piece.quote}` : piece.quote });
      }
      return [section.key, [...given.values()]];
    }),
  );
}

