import { unitsOfPool } from "../../services/pipeline/article/evidence/units";
import { passesEvidenceGate, type EvidenceGate } from "../../services/pipeline/article/writers/draft";
import { CALIBRATION } from "../../services/pipeline/article/relevance";
import { LANGUAGES } from "../article-quality/sites";
import { corpusOf, debianReference, DEVELOPERS_REFERENCE_LANGUAGES, pastedText, type Corpus } from "./corpus";
import { FOCUSED_REQUESTS, focusedPairs } from "./focused";
import { bestThreshold, confusion, fitLogistic, predict, recallThreshold, type Coefficients } from "./fit";
import { NATURAL_REQUESTS, SMALL_KNOWLEDGE_BASES, type NaturalRequest, type Verdict } from "./knowledge-bases";
import { labelledPairs, structureRequests, type Fit, type LabelledPair } from "./structure";
import { readerAgreement } from "./reader-agreement";
import { smallKbStrips } from "./small-kbs";
import { requestPool } from "./pool";

/**
 * `npm run bench relevance`: fits the relevance model's numbers (`relevance/calibration.ts`) on labelled data
 * the pipeline never sees and reports them on data held out from the fit (docs/relevance.md).
 *
 * - Sentence level: pairs from the debian-reference manuals' structure (`structure.ts`), odd chapters for
 *   calibration, even chapters held out, in en, fr, de and es.
 * - Request level: hand-written natural requests on two pasted fact lists (30 and 36 facts) and on the crawled manual
 *   (`knowledge-bases.ts`), every other one for calibration, the rest held out; the verdict (write / refuse)
 *   is the evidence gate's: enough relevant sentences in the pool research would retrieve, and enough of the
 *   subject's weight stated.
 * - Readers' labels on a focused book (`focused.ts`): what the structure cannot see (`backgroundShare`, the
 *   `elsewhere` weight), fit on every other request and reported on the rest.
 */
/** Ubiquity thresholds tried for a subject weighed over a small pool's sentences (`WeightFit.poolUbiquity`). */
const POOL_UBIQUITY_GRID = [0.1, 0.15, 0.2, 0.25, 0.3, 0.4];
/** Shares tried for `WeightFit.backgroundShare` (0: no term of an all-ubiquitous subject is background). */
const BACKGROUND_GRID = [0, 0.1, 0.2, 0.35, 0.5];
/** Every other focused request calibrates `backgroundShare` (by its place in `FOCUSED_REQUESTS`); the rest are held out. */
const calibrationFocused = (request: string) => FOCUSED_REQUESTS.findIndex((r) => r.topic === request) % 2 === 0;
/** Readers' scored strips of the focused book, confused at `relevant` on its calibration requests and on the rest. */
const focusedHalves = (s: readonly { request: string; relevant: boolean; p: number }[], relevant: number) => ({
  calibration: confusion(s.filter((p) => calibrationFocused(p.request)), relevant),
  held_out: confusion(s.filter((p) => !calibrationFocused(p.request)), relevant),
});
/** Weights tried for the `elsewhere` coefficient (0: a heading that states nothing of the subject counts for nothing). */
const ELSEWHERE_GRID = [0, -0.5, -1, -1.5, -2, -3, -4];
/** Shares tried for `WeightFit.compoundSplit` (0: only a compound the sources never use is split; 1: Koehn and Knight's criterion). */
const COMPOUND_SPLIT_GRID = [0, 0.05, 0.1, 0.2, 0.35, 0.5, 1];
/** Thresholds tried for `WeightFit.burstiness` (0: no term is generic). */
const BURSTINESS_GRID = [0, 1.1, 1.2, 1.3, 1.4, 1.5];
// Every fit before step 1f holds burstiness at 0 (no term generic), whatever is committed.
const GRID: Fit[] = [0.1, 0.2, 0.35].flatMap((ubiquity) => [0.15, 0.35].map((ubiquitousDamping) => ({ ubiquity, ubiquitousDamping, burstiness: 0 })));
const calibrationChapter = (chapter: number) => chapter % 2 === 1;
/** Every other natural request calibrates (by its place in `NATURAL_REQUESTS`); the rest are held out. */
const calibrationRequest = (index: number) => index % 2 === 0;

function scored<T extends { features: LabelledPair["features"] }>(pairs: readonly T[], c: Coefficients) {
  return pairs.map((p) => ({ ...p, p: predict(c, p.features) }));
}

/** A natural request's pool as the gate reads it: its coverage, and each in-language strip's features and sentences. */
function naturalPool(corpus: Corpus, r: NaturalRequest, fit: Fit, withProfile = true) {
  const brand = r.kb === "debian" || !withProfile ? null : SMALL_KNOWLEDGE_BASES[r.kb].brand;
  const { pool, model } = requestPool(corpus, r.topic, r.lang, fit, brand);
  const strips = unitsOfPool(pool, r.lang).filter((u) => model.coverage.inLanguage(u)).map((u) => ({ features: model.features(u), sentences: u.sentences.length }));
  return { coverage: model.coverage.poolCoverage, strips, subject: model.subject.terms.map((t) => `${t.surface}${t.ubiquitous ? "*" : ""}`).join(" ") };
}

/** The evidence gate's inputs for a natural request's pool under coefficients: its coverage and relevant sentences. */
function gateInputs(p: ReturnType<typeof naturalPool>, c: Coefficients, relevant: number) {
  return { coverage: p.coverage, usable: p.strips.filter((s) => predict(c, s.features) >= relevant).reduce((n, s) => n + s.sentences, 0), subject: p.subject };
}

/** The evidence gate's inputs for a natural request: its pool's coverage and relevant sentences under a fitted model. */
function naturalOutcome(corpus: Corpus, r: NaturalRequest, fit: Fit, c: Coefficients, relevant: number, withProfile = true) {
  return gateInputs(naturalPool(corpus, r, fit, withProfile), c, relevant);
}

function byTopic(strips: readonly { topic: string; relevant: boolean; p: number }[], threshold: number) {
  const topics = [...new Set(strips.map((s) => s.topic))];
  return Object.fromEntries(topics.map((t) => [t, confusion(strips.filter((s) => s.topic === t), threshold)]));
}

/** The evidence gate's verdict on a request's pool (`passesEvidenceGate`), under the committed numbers or a candidate's. */
const verdictOf = (o: { coverage: number; usable: number }, gate: EvidenceGate = CALIBRATION): Verdict => (passesEvidenceGate(o.coverage, o.usable, gate) ? "write" : "refuse");
/** Minimums tried for `CALIBRATION.minTopicSentences` (a two-sentence article is no article; twelve refuses a 500-word one). */
const MIN_SENTENCES_GRID = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * The gate fit on the calibration requests: the fewest wrong verdicts; among equals, the fewest uncovered
 * requests written (a padded article is worse than a refusal), then the largest minimum (the most evidence
 * asked of an article), then the middle floor among those (the widest margin both ways).
 */
function fitGate(calibration: readonly { coverage: number; usable: number; r: NaturalRequest }[]) {
  const tried: (EvidenceGate & { errors: number; uncovered_written: number })[] = [];
  for (const minTopicSentences of MIN_SENTENCES_GRID)
    for (let f = 0.3; f <= 0.951; f += 0.05) {
      const gate = { poolFloor: Math.round(f * 100) / 100, minTopicSentences };
      const wrong = calibration.filter((o) => verdictOf(o, gate) !== o.r.expect);
      tried.push({ ...gate, errors: wrong.length, uncovered_written: wrong.filter((o) => o.r.expect === "refuse").length });
    }
  const best = (xs: typeof tried, key: (x: (typeof tried)[number]) => number) => xs.filter((x) => key(x) === Math.min(...xs.map(key)));
  const fewest = best(best(tried, (x) => x.errors), (x) => x.uncovered_written);
  const minTopicSentences = Math.max(...fewest.map((x) => x.minTopicSentences));
  const floors = fewest.filter((x) => x.minTopicSentences === minTopicSentences);
  const { poolFloor } = floors[Math.floor((floors.length - 1) / 2)];
  return { gate: { poolFloor, minTopicSentences }, grid: MIN_SENTENCES_GRID.map((m) => ({ minSentences: m, errors: Math.min(...tried.filter((x) => x.minTopicSentences === m).map((x) => x.errors)) })) };
}

export async function benchRelevance(): Promise<Record<string, unknown>> {
  const started = Date.now();
  const corpora = new Map<string, Corpus>(LANGUAGES.map((lang) => [lang, corpusOf(debianReference(lang), lang)]));
  const smallKbs = Object.fromEntries(Object.entries(SMALL_KNOWLEDGE_BASES).map(([kb, { lang, texts }]) => [kb, corpusOf(texts.map((f) => pastedText(f.url, f.content, f.title)), lang)]));
  const requests = [...corpora.values()].flatMap((corpus) => structureRequests(corpus).map((r) => ({ corpus, r })));
  const corpusFor = (r: NaturalRequest) => (r.kb === "debian" ? corpora.get(r.lang)! : smallKbs[r.kb]);

  // 1. Sentence level: for each fit of the weights, the logistic model on the calibration chapters; the best by calibration F1.
  let best: { fit: Fit; c: Coefficients; relevant: number; f1: number; pairs: LabelledPair[] } | null = null;
  const grid: Record<string, number>[] = [];
  for (const fit of GRID) {
    const pairs = requests.flatMap(({ corpus, r }) => labelledPairs(corpus, [r], fit));
    const calibration = pairs.filter((p) => calibrationChapter(p.chapter));
    const c = fitLogistic(calibration);
    const s = scored(calibration, c);
    const relevant = bestThreshold(s, 0.85);
    const f1 = confusion(s, relevant).f1;
    grid.push({ ...fit, f1 });
    if (!best || f1 > best.f1) best = { fit, c, relevant, f1, pairs };
  }
  const { fit, c, relevant, pairs } = best!;
  const calibration = scored(pairs.filter((p) => calibrationChapter(p.chapter)), c);
  const ambiguous = recallThreshold(calibration, 0.95);
  // The structure's pairs under the final coefficients (`elsewhere` included, fit below), by language and layout.
  const structureLevel = (final: Coefficients) => {
    const heldOut = scored(pairs.filter((p) => !calibrationChapter(p.chapter)), final);
    const level: Record<string, unknown> = { calibration: confusion(scored(pairs.filter((p) => calibrationChapter(p.chapter)), final), relevant), held_out: confusion(heldOut, relevant) };
    for (const lang of LANGUAGES) {
      for (const layout of ["crawled", "headless", "pasted"] as const) level[`held_out_${lang}${layout === "crawled" ? "" : `_${layout}`}`] = confusion(heldOut.filter((p) => p.lang === lang && p.layout === layout), relevant);
    }
    return level;
  };
  const round = (x: number) => Math.round(x * 100) / 100;

  // 1c. German compound splits (`WeightFit.compoundSplit`): the share of its parts' geometric mean count under
  // which a request's compound is split, fit on the calibration half with the coefficients above: fewest wrong
  // verdicts on the German natural requests first (a customer's compound is often no word of the sources, while
  // a section heading always is one of the manual's words), the German calibration pairs' F1 breaking ties, the
  // smallest share among equals.
  const germanPairsOf = (f: Fit) => scored(requests.filter(({ r }) => r.lang === "de" && calibrationChapter(r.chapter)).flatMap(({ corpus, r }) => labelledPairs(corpus, [r], f)), c);
  const germanNatural = NATURAL_REQUESTS.filter((r, i) => r.lang === "de" && calibrationRequest(i));
  const splitFits = COMPOUND_SPLIT_GRID.map((compoundSplit) => {
    const f = { ...fit, compoundSplit };
    const errors = germanNatural.filter((r) => verdictOf(naturalOutcome(corpusFor(r), r, { ...f, poolUbiquity: CALIBRATION.poolUbiquity }, c, relevant)) !== r.expect).length;
    return { compoundSplit, errors, f1: confusion(germanPairsOf(f), relevant).f1 };
  });
  const compoundSplit = splitFits.reduce((a, b) => (b.errors < a.errors || (b.errors === a.errors && b.f1 > a.f1 + 1e-9) ? b : a)).compoundSplit;

  // 1b. A reader's labels on the two small knowledge bases (fact lists pasted as text, weighed over the pool's
  // sentences). The ubiquity threshold over a pool's sentences is fit on the coffee labels (best F1, the smallest
  // on a tie) and reported on the composting ones, held out.
  const poolFits = POOL_UBIQUITY_GRID.map((poolUbiquity) => ({ poolUbiquity, f1: confusion(smallKbStrips("coffee", { ...fit, compoundSplit, poolUbiquity }, c), relevant).f1 }));
  const poolUbiquity = poolFits.reduce((a, b) => (b.f1 > a.f1 + 1e-9 ? b : a)).poolUbiquity;
  // 1d. Background terms of an all-ubiquitous subject (`WeightFit.backgroundShare`), which the structure's requests
  // seldom have: fit on a reader's labels on a focused book (`focused.ts`), every other request (best F1, the
  // smallest share on a tie), reported on the rest.
  const focusedBy = new Map(BACKGROUND_GRID.map((share) => [share, scored(focusedPairs({ ...fit, compoundSplit, poolUbiquity, backgroundShare: share }), c)]));
  const backgroundFits = [...focusedBy].map(([backgroundShare, s]) => {
    const halves = focusedHalves(s, relevant);
    return { backgroundShare, calibration_f1: halves.calibration.f1, held_out_f1: halves.held_out.f1 };
  });
  const backgroundShare = backgroundFits.reduce((a, b) => (b.calibration_f1 > a.calibration_f1 + 1e-9 ? b : a)).backgroundShare;
  const poolFit = { ...fit, compoundSplit, poolUbiquity, backgroundShare, burstiness: 0 };

  // 1e. A sentence under headings that state none of the subject (`RelevanceFeatures.elsewhere`), which the
  // structure cannot weigh: its coefficient is fit on the readers' calibration requests of the focused book (best
  // F1 at `relevant`, the smallest weight on a tie), among the weights under which the gate, fit again, gives no more
  // wrong verdicts on the natural calibration requests than without it (a refusal of a covered topic is the
  // second-worst outcome; padding the worst). Reported on the readers' other requests and the held-out requests.
  const pools = NATURAL_REQUESTS.map((r, i) => ({ r, i, pool: naturalPool(corpusFor(r), r, poolFit) }));
  // Wrong verdicts on the natural calibration requests, the gate fit again, for pools weighed under a fit and coefficients.
  const calibrationErrors = (e: Coefficients, poolOf = (o: (typeof pools)[number]) => o.pool) => {
    const list = pools.filter((o) => calibrationRequest(o.i)).map((o) => ({ r: o.r, ...gateInputs(poolOf(o), e, relevant) }));
    const { gate } = fitGate(list);
    return list.filter((o) => verdictOf(o, gate) !== o.r.expect).length;
  };
  const focusedAt = focusedBy.get(backgroundShare)!;
  const elsewhereFits = ELSEWHERE_GRID.map((elsewhere) => {
    const e = { ...c, elsewhere };
    return { elsewhere, gate_calibration_errors: calibrationErrors(e), ...focusedHalves(scored(focusedAt, e), relevant) };
  });
  const allowed = elsewhereFits.filter((x) => x.gate_calibration_errors <= elsewhereFits[0].gate_calibration_errors);
  const elsewhere = allowed.reduce((a, b) => (b.calibration.f1 > a.calibration.f1 + 1e-9 ? b : a)).elsewhere;
  const ce: Coefficients = { ...c, elsewhere };

  // 1f. Generic terms (`WeightedTerm.generic`): a term the profile says about once per chunk that holds it is the
  // request's phrasing. Its threshold is fit on the natural calibration requests (fewest wrong verdicts, the gate
  // fit again), then the readers' calibration requests of the focused book (best F1), the smallest on a tie.
  const burstinessFits = BURSTINESS_GRID.map((burstiness) => {
    const f = { ...poolFit, burstiness };
    const errors = calibrationErrors(ce, (o) => naturalPool(corpusFor(o.r), o.r, f));
    return { burstiness, gate_calibration_errors: errors, ...focusedHalves(scored(focusedPairs(f), ce), relevant) };
  });
  const burstiness = burstinessFits.reduce((a, b) =>
    b.gate_calibration_errors < a.gate_calibration_errors || (b.gate_calibration_errors === a.gate_calibration_errors && b.calibration.f1 > a.calibration.f1 + 1e-9) ? b : a,
  ).burstiness;
  const finalFit = { ...poolFit, burstiness };
  const finalPools = NATURAL_REQUESTS.map((r, i) => ({ r, i, pool: naturalPool(corpusFor(r), r, finalFit) }));

  const sentenceLevel = structureLevel(ce);
  const readerScored = scored(focusedPairs(finalFit), ce);
  const focused: Record<string, unknown> = { labelled: readerScored.length, all: confusion(readerScored, relevant), ...focusedHalves(readerScored, relevant) };
  for (const lang of DEVELOPERS_REFERENCE_LANGUAGES) focused[lang] = confusion(readerScored.filter((p) => p.lang === lang), relevant);
  sentenceLevel.reader_focused_book = focused;
  const smallKbLevel = Object.fromEntries(
    (["coffee", "composting"] as const).map((kb) => {
      const strips = smallKbStrips(kb, finalFit, ce);
      return [kb, { split: kb === "coffee" ? "calibration" : "held-out", ...confusion(strips, relevant), by_request: byTopic(strips, relevant) }];
    }),
  );

  // 2. Request level: the gate (pool floor and minimum of relevant sentences) fit on every other natural
  // request, reported on the rest.
  const outcomes = finalPools.map((o) => ({ r: o.r, i: o.i, ...gateInputs(o.pool, ce, relevant) }));
  const calibrationRequests = outcomes.filter((o) => calibrationRequest(o.i));
  const { gate, grid: gateGrid } = fitGate(calibrationRequests);
  // The same verdicts with the small profiles' name and description left out (both optional when a profile is
  // created): the descriptions were written for this bench after the refusals they lift had been read.
  const bare = NATURAL_REQUESTS.map((r) => (r.kb === "debian" ? undefined : naturalOutcome(smallKbs[r.kb], r, finalFit, ce, relevant, false)));
  // And with the notes pasted as a list without full stops ("- Check tyre pressure once a week"), as customers paste
  // them: the verdicts should not change.
  const asBareList = (content: string) => content.split("\n").map((l) => (l.trim() ? `- ${l.trim().replace(/[.!]$/, "")}` : l)).join("\n");
  const listed = Object.fromEntries(Object.entries(SMALL_KNOWLEDGE_BASES).map(([kb, { lang, texts }]) => [kb, corpusOf(texts.map((f) => pastedText(f.url, asBareList(f.content), f.title)), lang)]));
  const asList = NATURAL_REQUESTS.map((r) => (r.kb === "debian" ? undefined : naturalOutcome(listed[r.kb], r, finalFit, ce, relevant)));
  const sameAsList = (list: typeof outcomes) => {
    const small = list.filter((o) => o.r.kb !== "debian");
    return `${small.filter((o) => verdictOf(asList[o.i]!, gate) === verdictOf(o, gate)).length} / ${small.length} small-profile requests`;
  };
  const withoutProfile = (list: typeof outcomes) => {
    const covered = list.filter((o) => o.r.kb !== "debian" && o.r.expect === "write");
    return `${covered.filter((o) => verdictOf(bare[o.i]!, gate) === "refuse").length} / ${covered.length} small-profile requests`;
  };
  const table = (list: typeof outcomes) => {
    const covered = list.filter((o) => o.r.expect === "write");
    const uncovered = list.filter((o) => o.r.expect === "refuse");
    return {
      requests: list.length,
      false_refusals: `${covered.filter((o) => verdictOf(o, gate) === "refuse").length} / ${covered.length}`,
      uncovered_written: `${uncovered.filter((o) => verdictOf(o, gate) === "write").length} / ${uncovered.length}`,
      false_refusals_without_profile_name_or_description: withoutProfile(list),
      same_verdict_pasted_as_list_without_full_stops: sameAsList(list),
    };
  };
  const fitted = {
    ubiquity: fit.ubiquity,
    ubiquitousDamping: fit.ubiquitousDamping,
    poolUbiquity,
    backgroundShare,
    burstiness,
    coefficients: { bias: round(c.bias), own: round(c.own), context: round(c.context), neighbour: round(c.neighbour), elsewhere },
    relevant,
    ambiguous: Math.min(ambiguous, relevant),
    compoundSplit,
    ...gate,
  };
  return {
    seconds: Math.round((Date.now() - started) / 1000),
    structure_requests: requests.length,
    pairs: pairs.length,
    grid,
    pool_ubiquity_grid: poolFits,
    compound_split_grid: splitFits,
    background_grid: backgroundFits,
    elsewhere_grid: elsewhereFits,
    burstiness_grid: burstinessFits,
    min_sentences_grid: gateGrid,
    fitted,
    committed: CALIBRATION,
    committed_matches_fit: JSON.stringify(fitted) === JSON.stringify({ ...CALIBRATION }),
    sentence_level: sentenceLevel,
    small_knowledge_bases: smallKbLevel,
    // A reader's labels on structure-relevant sentences, under the committed numbers (what the pipeline does).
    reader_agreement: readerAgreement(corpora, CALIBRATION, CALIBRATION.coefficients, CALIBRATION.relevant),
    request_level: { calibration: table(calibrationRequests), held_out: table(outcomes.filter((o) => !calibrationRequest(o.i))), all: table(outcomes) },
    requests: outcomes.map((o) => ({ kb: o.r.kb, lang: o.r.lang, topic: o.r.topic, expect: o.r.expect, verdict: verdictOf(o, gate), coverage: round(o.coverage), relevant_sentences: o.usable, subject: o.subject, split: calibrationRequest(o.i) ? "calibration" : "held-out" })),
  };
}
