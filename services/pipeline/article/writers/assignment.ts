import { Bm25Index } from "../../../../shared/text/bm25";
import { countWords } from "../../../../shared/text/segment";
import { tokenize } from "../../../../shared/text/tokenize";
import type { ArticleBrief, Evidence, Outline, PlannedSection } from "../types";

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
 * What a section is ranked by: a body section's own words (its heading without the topic's and keyword's,
 * which every section shares), or the whole query when the heading has none; the introduction and the
 * conclusion, which speak of the whole topic, by the query. `general`: a section that may take any passage
 * about the topic.
 */
function rankingOf(section: PlannedSection, brief: ArticleBrief): { query: string; general: boolean } {
  if (section.role !== "body") return { query: section.query, general: true };
  const shared = new Set(tokenize(`${brief.topic} ${brief.keyword}`, brief.language));
  const own = tokenize(section.heading, brief.language).filter((t) => !shared.has(t));
  return own.length ? { query: own.join(" "), general: false } : { query: section.query, general: true };
}

/**
 * The evidence of an outline shared out before its sections are written side by side, each passage to one
 * section only, so sections that cannot see each other's text still do not retell the same evidence (the
 * outline's headings and briefs tell each writer what the others cover). Sections take turns picking the
 * passage that matches them best (BM25 over title, heading and quote) until each holds about
 * `EVIDENCE_PER_WORD` × its budget in words: first passages that are clearly theirs (at least half their best
 * match on their own words), then weaker matches of their own words; only the introduction, the conclusion
 * and sections whose heading adds nothing to the topic take what no heading claims. A section with no passage
 * of its own gets none: it is not written (rather than written from another section's material), and
 * passages nobody takes are not sent (they are paid for and would be padding).
 */
export function assignEvidence(outline: Outline, about: readonly Evidence[], brief: ArticleBrief): Map<string, string[]> {
  const lang = brief.language;
  const index = Bm25Index.fromTexts(about.map((e) => ({ id: e.id, text: `${e.title}\n${e.heading ?? ""}\n${e.quote}` })), lang);
  const words = new Map(about.map((e) => [e.id, countWords(e.quote, lang)]));
  const rankings = outline.sections.map((section) => {
    const { query, general } = rankingOf(section, brief);
    const hits = index.search(query, Infinity, lang).filter((h) => h.score > 0);
    const best = hits[0]?.score ?? 0;
    return { section, general, strong: hits.filter((h) => h.score >= STRONG_MATCH * best).map((h) => h.id), any: hits.map((h) => h.id) };
  });
  const assigned = new Map(outline.sections.map((s) => [s.key, [] as string[]]));
  const held = new Map(outline.sections.map((s) => [s.key, 0]));
  const taken = new Set<string>();
  const wants = (s: PlannedSection) => held.get(s.key)! < s.budget * EVIDENCE_PER_WORD && assigned.get(s.key)!.length < MAX_PASSAGES;
  const share = (candidates: (r: (typeof rankings)[number]) => readonly string[]) => {
    for (let progress = true; progress; ) {
      progress = false;
      for (const r of rankings) {
        if (!wants(r.section)) continue;
        const next = candidates(r).find((id) => !taken.has(id));
        if (!next) continue;
        taken.add(next);
        assigned.get(r.section.key)!.push(next);
        held.set(r.section.key, held.get(r.section.key)! + (words.get(next) ?? 0));
        progress = true;
      }
    }
  };
  share((r) => r.strong);
  share((r) => r.any);
  const topic = index.search(`${brief.topic} ${brief.keyword}`, Infinity, lang).map((h) => h.id);
  share((r) => (r.general ? topic : []));
  return assigned;
}
