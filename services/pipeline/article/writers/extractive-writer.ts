import { Bm25Index } from "../../../../shared/text/bm25";
import { tokenize } from "../../../../shared/text/tokenize";
import { nearDuplicate, termSet } from "../evidence/similarity";
import { unitsOfEvidence, type EvidenceUnit } from "../evidence/units";
import { relevanceModel, type RelevanceModel } from "../relevance";
import type { SectionWriteInput, SectionWriter, WrittenSection } from "./section-writer";
import type { ArticleParagraph, ArticleSection, ArticleSentence, Evidence } from "../types";
import { isReservedForFaq } from "../search/faq";

/** The pool as the extractive writer reads it: each passage's citable units and a BM25 index over passages. */
export interface PoolIndex {
  unitsByEvidence: Map<string, readonly EvidenceUnit[]>;
  passages: Bm25Index;
}

export function indexPool(evidence: readonly Evidence[], lang: string): PoolIndex {
  return {
    unitsByEvidence: new Map(evidence.map((e) => [e.id, unitsOfEvidence(e, lang)])),
    passages: Bm25Index.fromTexts(evidence.map((e) => ({ id: e.id, text: `${e.title}\n${e.heading ?? ""}\n${e.quote}` })), lang),
  };
}

/** Past 60% of the budget, a unit that would overshoot it by more than 20% is left out. */
const FILL_TOLERANCE = 1.2;
const MIN_SHARE_BEFORE_BORROWING = 0.6;
const OWNERSHIP_SHARE = 0.5;
/** When a section borrows, each later section keeps its best passages (this many) for itself. */
const PROTECTED_PER_SECTION = 2;
const PARAGRAPH_MAX_SENTENCES = 4;
/** The introduction's opening sentences are at least this relevant (relative to the pool's best, `relevance/`). */
const STRONG_RELEVANCE = 0.75;
const PARAGRAPH_MAX_WORDS = 110;
/** A paragraph holds at least this many sentences before a change of subject opens the next. */
const MIN_SENTENCES_BEFORE_SHIFT = 2;

/**
 * The offline writer: it composes each section ONLY from evidence sentences, so every sentence it writes is
 * a verbatim quote carrying its citation. Each passage belongs to the body section whose heading it matches
 * best; a section takes its own passages (ranked by BM25 against its query), then passages no heading claims,
 * and borrows others only when it would otherwise stay under 60% of its budget. It takes each passage's
 * sentences in the source's order (a sentence that leans on the one before travels with it), skips anything
 * the article already says, and fills the word budget.
 */
export class ExtractiveSectionWriter implements SectionWriter {
  readonly kind = "extractive" as const;
  readonly drafting = "in-order" as const;
  private cache = new WeakMap<readonly Evidence[], PoolIndex>();

  async writeSection(input: SectionWriteInput): Promise<WrittenSection> {
    let index = this.cache.get(input.evidence);
    if (!index) this.cache.set(input.evidence, (index = indexPool(input.evidence, input.brief.language)));
    return { section: composeSectionFromEvidence(input, index), droppedCitations: 0 };
  }
}

interface ChosenGroup {
  evidenceId: string;
  units: EvidenceUnit[];
}

/**
 * Which body section each passage belongs to: the one whose heading's own terms (those not in the topic or
 * keyword, which every section shares) it matches best by BM25, counting only matches of at least half the
 * heading's best; a passage matching none belongs to no section. Ties go to the earlier section.
 */
export function passageOwners(index: PoolIndex, input: Pick<SectionWriteInput, "outline" | "brief">, lang: string): Map<string, string> {
  const shared = new Set(tokenize(`${input.brief.topic} ${input.brief.keyword}`, lang));
  const best = new Map<string, { section: string; score: number }>();
  for (const section of input.outline.sections.filter((s) => s.role === "body")) {
    const distinctive = tokenize(section.heading, lang).filter((t) => !shared.has(t));
    if (!distinctive.length) continue;
    const hits = index.passages.search(distinctive.join(" "), Infinity, lang);
    // A passage sharing one common word with the heading ("jobs") is not about it: half the best match at least.
    for (const hit of hits.filter((h) => h.score >= OWNERSHIP_SHARE * hits[0].score)) {
      const current = best.get(hit.id);
      if (!current || hit.score > current.score) best.set(hit.id, { section: section.key, score: hit.score });
    }
  }
  return new Map([...best].map(([id, b]) => [id, b.section]));
}

/**
 * Passages in the order a section should use them: by their best on-topic unit's relevance to the topic
 * (relative to the pool's best) plus its match of the section heading's own terms (relative to the best
 * match), BM25 against the section's query breaking ties. Passages with no on-topic unit are left out.
 */
function rankPassages(input: SectionWriteInput, index: PoolIndex, relevance: RelevanceModel): string[] {
  const { section, brief } = input;
  const lang = brief.language;
  const shared = new Set(tokenize(`${brief.topic} ${brief.keyword}`, lang));
  const headingTerms = tokenize(section.heading, lang).filter((t) => !shared.has(t));
  const bm25 = new Map(index.passages.search(section.query, Infinity, lang).map((h, i) => [h.id, i]));
  const scored = [...index.unitsByEvidence].map(([id, units]) => {
    const onTopic = units.filter((u) => relevance.onTopic(relevance.unit(u)));
    const topic = Math.max(0, ...onTopic.map((u) => relevance.relative(relevance.strength(u))));
    const heading = Math.max(0, ...onTopic.map((u) => relevance.scoreTerms(headingTerms, u.text, u.heading)));
    return { id, topic, heading, usable: onTopic.length > 0 };
  });
  const bestHeading = Math.max(0, ...scored.map((s) => s.heading)) || 1;
  return scored
    .filter((s) => s.usable)
    .map((s) => ({ ...s, total: Math.min(1.5, s.topic) + s.heading / bestHeading }))
    .sort((a, b) => b.total - a.total || (bm25.get(a.id) ?? Infinity) - (bm25.get(b.id) ?? Infinity))
    .map((s) => s.id);
}

/** A unit's relevance where it would stand: a body section adds its heading's own terms; introduction and conclusion judge by the topic. */
function relevanceIn(section: SectionWriteInput["section"], unit: EvidenceUnit, relevance: RelevanceModel): number {
  return section.role === "body" ? relevance.forSection(unit, section.heading) : relevance.strength(unit);
}

export function composeSectionFromEvidence(input: SectionWriteInput, index: PoolIndex): ArticleSection {
  const { section, outline, brief } = input;
  const lang = brief.language;
  const relevance = relevanceModel(input.evidence, brief);
  const said = input.earlier.flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => termSet(x.text, lang))));
  const ranked = rankPassages(input, index, relevance);
  const owners = passageOwners(index, input, lang);
  const ownedElsewhere = (id: string) => owners.has(id) && owners.get(id) !== section.key;

  const groups: ChosenGroup[] = [];
  const picked: EvidenceUnit[] = [];
  /** The introduction's lead and strongest units: they open it, before what fills its budget. */
  const leading = new Set<EvidenceUnit>();
  let words = 0;
  const fits = (unit: EvidenceUnit) => words < section.budget * MIN_SHARE_BEFORE_BORROWING || words + unit.words <= section.budget * FILL_TOLERANCE;
  const fresh = (unit: EvidenceUnit) => !said.some((t) => nearDuplicate(t, unit.terms)) && !picked.some((c) => nearDuplicate(c.terms, unit.terms));
  const take = (ids: readonly string[], strongOnly = false) => {
    for (const id of ids) {
      if (words >= section.budget) return;
      let group = groups.find((g) => g.evidenceId === id);
      for (const unit of index.unitsByEvidence.get(id) ?? []) {
        if (words >= section.budget) break;
        // Off-topic sentences never enter the article, however short the section stays.
        const score = relevanceIn(section, unit, relevance);
        if (picked.includes(unit) || isReservedForFaq(unit, input.reserved) || !relevance.onTopic(relevance.unit(unit)) || (strongOnly && (relevance.relative(score) < STRONG_RELEVANCE || relevance.servesAngle(unit.text) === false)) || !fits(unit) || !fresh(unit)) continue;
        if (!group) groups.push((group = { evidenceId: id, units: [] }));
        group.units.push(unit);
        picked.push(unit);
        words += unit.words;
      }
    }
  };
  // The introduction opens with a source's own opening on the topic, then the strongest on-topic evidence,
  // whichever section's heading claims it: the strongest sentences only, and those serving the request's angle
  // when it has one (a passage's other ones may follow later, in its order).
  if (section.role === "intro") {
    const lead = leadUnit(input.evidence, index, relevance);
    if (lead && !isReservedForFaq(lead, input.reserved) && fresh(lead)) {
      groups.push({ evidenceId: lead.evidenceId, units: [lead] });
      picked.push(lead);
      words += lead.words;
    }
    take(ranked.slice(0, 3), true);
    for (const unit of picked) leading.add(unit);
  }
  // Own passages first (most relevant first), then passages no heading claims.
  take(ranked.filter((id) => owners.get(id) === section.key));
  take(ranked.filter((id) => !owners.has(id)));
  // A thin section borrows what other sections' headings claim (leftovers of earlier sections first), but
  // never a later section's best passages: better than leaving it short, without emptying the next one.
  if (words < section.budget * MIN_SHARE_BEFORE_BORROWING) {
    const order = outline.sections.map((s) => s.key);
    const here = order.indexOf(section.key);
    const later = outline.sections.slice(here + 1).filter((s) => s.role === "body");
    const kept = new Set(later.flatMap((s) => rankPassages({ ...input, section: s }, index, relevance).filter((id) => owners.get(id) === s.key).slice(0, PROTECTED_PER_SECTION)));
    const earlierFirst = (id: string) => (order.indexOf(owners.get(id)!) < here ? 0 : 1);
    take(ranked.filter((id) => ownedElsewhere(id) && !kept.has(id)).sort((a, b) => earlierFirst(a) - earlierFirst(b)));
  }
  // The source's order within a passage; the introduction keeps its strongest-first order across passages, and
  // within one its lead and strongest units come before the rest (a pasted text of notes is one passage).
  const opening = (u: EvidenceUnit) => (leading.has(u) ? 0 : 1);
  for (const group of groups) group.units.sort((a, b) => opening(a) - opening(b) || a.position - b.position);
  const ordered = section.role === "intro" ? groups : inDocumentOrder(groups, input.evidence);
  return { key: section.key, role: section.role, heading: section.heading, paragraphs: arrangeParagraphs(ordered, input) };
}

/**
 * The opening sentence of a source section on the topic: the first unit of a passage that is the first of its
 * page and heading in the pool, on topic and strong, the strongest such. Sources open a subject by saying what
 * it is ("Home composting turns kitchen scraps and garden waste into a dark, crumbly soil improver.", « Un vélo
 * bien entretenu roule plus longtemps … »); the strongest sentence of a pool of notes is as often a warning
 * from their middle (« Un nettoyeur haute pression chasse la graisse des roulements et les abîme. »). A verbless
 * announcement ("Hier ein paar Beispiele für aptitude(8)-Operationen.") is no unit (`SentenceRules.sendsTo`),
 * so it leads nothing. A request with an angle the language can see (mistakes to avoid) is
 * opened by what serves it, or by the strongest strips (which rank angle material first), never by a general lead.
 */
export function leadUnit(evidence: readonly Evidence[], index: PoolIndex, relevance: RelevanceModel): EvidenceUnit | undefined {
  const place = (e: Evidence) => `${e.url}\u0000${e.heading ?? ""}`;
  const firstOfPlace = new Map<string, Evidence>();
  for (const e of evidence) {
    const known = firstOfPlace.get(place(e));
    if (!known || (e.position ?? Infinity) < (known.position ?? Infinity)) firstOfPlace.set(place(e), e);
  }
  const leads = [...firstOfPlace.values()]
    .map((e) => index.unitsByEvidence.get(e.id)?.[0])
    .filter((u): u is EvidenceUnit => Boolean(u) && u!.position <= 1 && relevance.servesAngle(u!.text) !== false)
    .filter((u) => relevance.onTopic(relevance.unit(u)) && relevance.relative(relevance.strength(u)) >= STRONG_RELEVANCE);
  return leads.sort((a, b) => relevance.strength(b) - relevance.strength(a))[0];
}

/**
 * The passages of one document in the document's order, in the places the ranking gave that document's
 * passages (other documents' passages stay where they were): a procedure split over two passages reads in its
 * steps' order ("Boot the system …, mount the partition …, edit /etc/passwd …"), whichever passage ranked first.
 */
export function inDocumentOrder<T extends { evidenceId: string }>(groups: readonly T[], evidence: readonly Evidence[]): T[] {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const documentOf = (g: T) => byId.get(g.evidenceId)?.url ?? g.evidenceId;
  const positionOf = (g: T) => byId.get(g.evidenceId)?.position;
  const out = [...groups];
  for (const url of new Set(groups.map(documentOf))) {
    const slots = groups.flatMap((g, i) => (documentOf(g) === url && positionOf(g) !== undefined ? [i] : []));
    const sorted = slots.map((i) => groups[i]).sort((a, b) => positionOf(a)! - positionOf(b)!);
    slots.forEach((slot, k) => (out[slot] = sorted[k]));
  }
  return out;
}

/**
 * One paragraph per passage, split after four sentences or ~110 words; a passage that gave a single
 * sentence joins the paragraph before it. Every paragraph opens with its source's own words: a connective the
 * writer put before a paragraph ("In addition, ", « De plus, », "Zudem gilt: ") claimed a relation it could not
 * see, and read in context an editor found 49 of 91 such connectives in the benches' articles wrong and 53 better
 * left out (sixteenth stop; "On top of this, valgrind …" had also lost a name's capital).
 */
function arrangeParagraphs(groups: readonly ChosenGroup[], input: SectionWriteInput): ArticleParagraph[] {
  const paragraphs: ArticleParagraph[] = [];
  let words = 0;
  for (const group of groups) {
    const sentences = group.units.flatMap((u) => u.sentences.map((text): ArticleSentence => ({ text, cites: [group.evidenceId] })));
    const last = paragraphs[paragraphs.length - 1];
    // A lone sentence joins the paragraph before only when it shares its source or its subject.
    const sameSubject = () => last!.sentences.some((x) => x.cites[0] === group.evidenceId) || sharesSubject(last!, sentences[0], input);
    if (last && (sentences.length === 1 || last.sentences.length === 1) && last.sentences.length + sentences.length <= PARAGRAPH_MAX_SENTENCES && sameSubject()) {
      last.sentences.push(...sentences);
      continue;
    }
    // Paragraphs break between units, never inside one: a sentence that leans on the one before stays with it.
    // They break where the subject moves on too: a unit sharing no word beyond the topic's with a paragraph of two
    // sentences or more opens the next (a page of pasted notes is one passage, and goes from watering to pests).
    let current: ArticleParagraph | null = null;
    for (const unit of group.units) {
      const unitSentences = unit.sentences.map((text): ArticleSentence => ({ text, cites: [group.evidenceId] }));
      const full = (p: ArticleParagraph) => p.sentences.length + unitSentences.length > PARAGRAPH_MAX_SENTENCES || words + unit.words > PARAGRAPH_MAX_WORDS;
      const movesOn = (p: ArticleParagraph) => p.sentences.length >= MIN_SENTENCES_BEFORE_SHIFT && !sharesSubject(p, unitSentences[0], input);
      if (!current || (current.sentences.length && (full(current) || movesOn(current)))) {
        current = { sentences: [] };
        paragraphs.push(current);
        words = 0;
      }
      current.sentences.push(...unitSentences);
      words += unit.words;
    }
  }
  return paragraphs;
}

/** The sentence shares a content term beyond the topic's own with the paragraph. */
function sharesSubject(before: ArticleParagraph, opening: ArticleSentence, input: SectionWriteInput): boolean {
  const lang = input.brief.language;
  const shared = new Set(tokenize(`${input.brief.topic} ${input.brief.keyword}`, lang));
  const prior = termSet(before.sentences.map((x) => x.text).join(" "), lang);
  return [...termSet(opening.text, lang)].some((t) => !shared.has(t) && prior.has(t));
}

