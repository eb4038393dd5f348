import { analyseRequest, relevanceModel, subjectWeights, termsToCount, withCompounds, type RelevanceFeatures, type WeightFit } from "../../services/pipeline/article/relevance";
import { termSet } from "../../services/pipeline/article/evidence/similarity";
import { unitsOfEvidence } from "../../services/pipeline/article/evidence/units";
import type { Evidence } from "../../services/pipeline/article/types";
import type { Corpus } from "./corpus";
import { tokenize } from "../../shared/text/tokenize";

/**
 * Labelled (request, sentence) pairs from a manual's structure, which the code under test never sees as labels:
 * a section's heading is a request; the sentences of that section are relevant to it; the sentences of
 * passages from OTHER chapters are not (the eight that BM25 ranks best for the request, so they share its
 * words, like what retrieval would bring, and four more at random). Every pair is given twice: as crawled
 * (headings and page titles situate the passages) and headless (as pasted text with no headings), so the
 * fit learns what a sentence's own words are worth as well as what its headings are.
 */
export interface LabelledPair {
  lang: string;
  request: string;
  /** The chapter (page) the request comes from: the split is by chapter, so held-out requests are unseen topics. */
  chapter: number;
  headless: boolean;
  /**
   * How the passages were laid out: "crawled" (headings situate them), "headless" (each passage pasted alone) or
   * "pasted" (the section pasted with the sections either side of it as one headless text, so a sentence's
   * neighbours can be about a sibling subject: the case of a pasted page or fact list that changes subject
   * from one line to the next, which passages cut along section lines never show the fit).
   */
  layout: "crawled" | "headless" | "pasted";
  relevant: boolean;
  text: string;
  features: RelevanceFeatures;
}

export type Fit = WeightFit;

const chapterOf = (url: string) => Number(/ch(\d\d)/.exec(url)?.[1] ?? 0);

/** A small deterministic generator (mulberry32), so the random negatives are the same every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface StructureRequest {
  lang: string;
  request: string;
  chapter: number;
  positives: Evidence[];
  negatives: Evidence[];
  /** The passages of the sections just before and after it in its chapter (for the "pasted" layout). */
  siblings: { before: Evidence[]; after: Evidence[] };
}

/** The requests of one manual: every section under a chapter with at least two passages' worth of prose. */
export function structureRequests(corpus: Corpus, maxPerChapter = 12): StructureRequest[] {
  const bySection = new Map<string, Corpus["passages"]>();
  for (const p of corpus.passages) {
    if (p.path.length < 2) continue;
    const key = `${p.doc}\u0000${p.path.slice(0, 2).join(" › ")}`;
    bySection.set(key, [...(bySection.get(key) ?? []), p]);
  }
  const sectionsOf = new Map<string, string[]>();
  for (const key of bySection.keys()) {
    const doc = key.split("\u0000")[0];
    sectionsOf.set(doc, [...(sectionsOf.get(doc) ?? []), key]);
  }
  const rand = random(7);
  const perChapter = new Map<number, number>();
  const out: StructureRequest[] = [];
  for (const [key, passages] of bySection) {
    const [doc, sectionPath] = key.split("\u0000");
    const request = sectionPath.split(" › ")[1];
    const chapter = chapterOf(doc);
    if (!request || request.length < 4 || passages.length < 1) continue;
    const units = passages.flatMap((p) => unitsOfEvidence(p, corpus.lang));
    if (units.length < 4) continue;
    if ((perChapter.get(chapter) ?? 0) >= maxPerChapter) continue;
    perChapter.set(chapter, (perChapter.get(chapter) ?? 0) + 1);
    const others = corpus.passages.filter((p) => p.doc !== doc);
    // Hard negatives share the request's words, as retrieval's would; a passage whose own headings name the
    // request's words is left out: another chapter may well treat the same subject, and its label would be wrong.
    const requestTerms = new Set(tokenize(request, corpus.lang));
    const namesRequest = (p: Corpus["passages"][number]) => tokenize(p.path.slice(1).join(" "), corpus.lang).some((t) => requestTerms.has(t));
    const ranked = corpus.index.search(request, 60, corpus.lang).map((h) => others.find((p) => p.id === h.id)).filter((p): p is Corpus["passages"][number] => Boolean(p) && !namesRequest(p!));
    const negatives = ranked.slice(0, 4);
    while (negatives.length < 12 && others.length) {
      const pick = others[Math.floor(rand() * others.length)];
      if (!negatives.includes(pick)) negatives.push(pick);
    }
    const order = sectionsOf.get(doc) ?? [];
    const at = order.indexOf(key);
    const siblings = { before: (bySection.get(order[at - 1]) ?? []).slice(-2), after: (bySection.get(order[at + 1]) ?? []).slice(0, 2) };
    out.push({ lang: corpus.lang, request, chapter, positives: passages.slice(0, 6), negatives, siblings });
  }
  return out;
}

const headlessCopy = (e: Evidence): Evidence => ({ ...e, id: `${e.id}~`, title: "", heading: "" });

/** The labelled pairs of the requests, with features computed under one fit of the weights. */
export function labelledPairs(corpus: Corpus, requests: readonly StructureRequest[], fit: Fit): LabelledPair[] {
  const pairs: LabelledPair[] = [];
  for (const r of requests) {
    const analysis = analyseRequest(r.request, r.request, corpus.lang);
    const subject = subjectWeights(analysis, corpus.stats(termsToCount(analysis)), "profile", fit);
    for (const layout of ["crawled", "headless"] as const) {
      const headless = layout === "headless";
      const positives = headless ? r.positives.map(headlessCopy) : r.positives;
      const negatives = headless ? r.negatives.map(headlessCopy) : r.negatives;
      const pool = [...positives, ...negatives];
      const model = relevanceModel(pool, { topic: r.request, keyword: r.request, language: corpus.lang, subject });
      const relevantIds = new Set(positives.map((p) => p.id));
      // A sentence of another chapter that states the request's most discriminating term may well be about
      // the same thing: the structure cannot label it, so it is left out. Hard negatives that share only the
      // request's lighter words ("server" for a backup section, "Debian" anywhere) stay: that is the lesson.
      const heaviest = [...subject.terms].sort((a, b) => b.weight - a.weight)[0]?.term;
      const seen = new Set<string>();
      for (const e of pool) {
        for (const u of unitsOfEvidence(e, corpus.lang)) {
          if (seen.has(u.text) || !model.coverage.inLanguage(u)) continue;
          if (!relevantIds.has(e.id) && heaviest && withCompounds(termSet(u.text, corpus.lang), [heaviest], corpus.lang).has(heaviest)) continue;
          seen.add(u.text);
          pairs.push({ lang: corpus.lang, request: r.request, chapter: r.chapter, headless, layout, relevant: relevantIds.has(e.id), text: u.text, features: model.features(u) });
        }
      }
    }
    pairs.push(...pastedPairs(corpus, r, subject));
  }
  return pairs;
}

/**
 * The "pasted" layout: the sections before and after the request's section and the section itself, pasted as
 * one headless text. The section's sentences are relevant; the siblings' are not (they are about the chapter's
 * other subjects, the nearest thing to a fact list's other facts), except those stating the request's most
 * discriminating term, which the structure cannot label. A unit that spans a section boundary is left out.
 */
function pastedPairs(corpus: Corpus, r: StructureRequest, subject: ReturnType<typeof subjectWeights>): LabelledPair[] {
  const { before, after } = r.siblings;
  if (!before.length && !after.length) return [];
  const own = r.positives.map((p) => p.quote).join("\n");
  const others = [...before, ...after].map((p) => p.quote).join("\n");
  const text = [...before, ...r.positives, ...after].map((p) => p.quote).join("\n");
  const pasted: Evidence = { id: `${r.positives[0].id}~pasted`, url: "", title: "", heading: "", quote: text, fetched_at: r.positives[0].fetched_at, origin: "brand" };
  const model = relevanceModel([pasted], { topic: r.request, keyword: r.request, language: corpus.lang, subject });
  const heaviest = [...subject.terms].sort((a, b) => b.weight - a.weight)[0]?.term;
  const pairs: LabelledPair[] = [];
  for (const u of unitsOfEvidence(pasted, corpus.lang)) {
    if (!model.coverage.inLanguage(u)) continue;
    const relevant = own.includes(u.text);
    if (!relevant && !others.includes(u.text)) continue;
    if (!relevant && heaviest && withCompounds(termSet(u.text, corpus.lang), [heaviest], corpus.lang).has(heaviest)) continue;
    pairs.push({ lang: corpus.lang, request: r.request, chapter: r.chapter, headless: true, layout: "pasted", relevant, text: u.text, features: model.features(u) });
  }
  return pairs;
}
