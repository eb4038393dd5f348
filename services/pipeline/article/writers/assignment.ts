import { Bm25Index } from "../../../../shared/text/bm25";
import { countWords } from "../../../../shared/text/segment";
import type { Evidence, Outline } from "../types";

/**
 * Words of evidence a section is given per word it is to write: a writer that restates needs more than it
 * writes (it leaves out what does not fit the section), and every passage sent is paid for, so not much more.
 */
const EVIDENCE_PER_WORD = 1.6;
/** However rich the pool, a section sees at most this many passages (what a model can weigh in one answer). */
const MAX_PASSAGES = 10;

/**
 * The evidence of an outline shared out before its sections are written side by side: sections take turns
 * picking the passage that answers their query best (BM25 over title, heading and quote, each section's scores
 * relative to its own best) until each holds about `EVIDENCE_PER_WORD` × its budget in words, or nothing about
 * it is left. A passage goes to one section only, so sections that cannot see each other's text still do not
 * retell the same evidence; the outline's headings tell each writer what the others cover. Passages no section's
 * query matches are left out (they are paid for and would be padding). When the pool is too small for every
 * section to get one, a section without any gets the passage it ranks first, shared.
 */
export function assignEvidence(outline: Outline, about: readonly Evidence[], lang: string): Map<string, string[]> {
  const index = Bm25Index.fromTexts(about.map((e) => ({ id: e.id, text: `${e.title}\n${e.heading ?? ""}\n${e.quote}` })), lang);
  const words = new Map(about.map((e) => [e.id, countWords(e.quote, lang)]));
  const ranked = new Map(outline.sections.map((s) => [s.key, index.search(s.query, Infinity, lang).filter((h) => h.score > 0).map((h) => h.id)]));
  const assigned = new Map(outline.sections.map((s) => [s.key, [] as string[]]));
  const held = new Map(outline.sections.map((s) => [s.key, 0]));
  const taken = new Set<string>();
  const wants = (key: string, budget: number) => held.get(key)! < budget * EVIDENCE_PER_WORD && assigned.get(key)!.length < MAX_PASSAGES;
  for (let progress = true; progress; ) {
    progress = false;
    for (const section of outline.sections) {
      if (!wants(section.key, section.budget)) continue;
      const next = ranked.get(section.key)!.find((id) => !taken.has(id));
      if (!next) continue;
      taken.add(next);
      assigned.get(section.key)!.push(next);
      held.set(section.key, held.get(section.key)! + (words.get(next) ?? 0));
      progress = true;
    }
  }
  for (const section of outline.sections) {
    const first = ranked.get(section.key)![0];
    if (!assigned.get(section.key)!.length && first) assigned.get(section.key)!.push(first);
  }
  return assigned;
}
