import { bm25Idf } from "../../../../shared/text/bm25";
import { analyseRequest, type CompoundSplit, pairTerm, type RequestAnalysis, type SubjectTerm } from "./request";
import { CALIBRATION } from "./calibration";

/**
 * How much each subject term discriminates WITHIN THIS PROFILE: its inverse document frequency over the
 * profile's indexed chunks (the same chunks retrieval ranks). A term most chunks hold ("Debian" in a Debian
 * manual, "compost" in a composting guide) is UBIQUITOUS: it says what the whole profile is about, so it
 * weighs `CALIBRATION.ubiquitousDamping` of its idf: it neither admits a passage alone nor gates a topic
 * (a request whose subject is all ubiquitous is what the whole profile covers). A term no chunk holds weighs
 * the most: a topic naming it is not covered.
 */
export interface TermStats {
  /** Chunks in the profile's index. */
  chunks: number;
  /** Chunks holding each term. */
  df: Record<string, number>;
  /** Occurrences of each term over the chunks holding it (a research pool's counts have none). */
  cf?: Record<string, number>;
}

export interface WeightedTerm extends SubjectTerm {
  /** Chunks holding it; null when no profile statistics were available (web research only). */
  df: number | null;
  weight: number;
  ubiquitous: boolean;
  /**
   * Said about once wherever it is said (`burstinessOf` under `WeightFit.burstiness`): a word of the request's
   * phrasing ("find", "hide", "known"), not of a subject a passage is about. Weighed as a ubiquitous term is in
   * a sentence; the evidence gate still counts its whole weight (`gateWeight`).
   */
  generic?: boolean;
  /**
   * What the evidence gate counts the term for (`CoverageView.poolCoverage`), when it differs from `weight`: a
   * generic term's weight undamped. A word the profile says once in passing is as often the subject of a request
   * the profile does not cover ("garbage" of "Tuning garbage collection in the Java virtual machine" in a Valgrind
   * manual, "Steuer" in a Debian one): unstated by the pool, it must still weigh on the gate.
   */
  gateWeight?: number;
  /**
   * In a subject all of whose terms are ubiquitous, a term weighing under `backgroundShare` of the heaviest: the
   * profile says it everywhere even beside the subject's own, so it states nothing of it alone ("archivo" beside
   * "control" for «El archivo debian/control explicado» in the New Maintainers' Guide, where both are ubiquitous).
   */
  background?: boolean;
}

/** The request's subject as the relevance model weighs it: recon stores it in the brief. */
export interface RequestSubject {
  terms: WeightedTerm[];
  angle: string[];
  /** Chunks the weights were counted over, and where: the brand profile's index or the evidence pool. */
  counted_over: { chunks: number; from: "profile" | "pool" };
}

/**
 * Under this many chunks a profile's chunk counts cannot tell a subject's words apart (a pasted page of 30
 * facts is one or two chunks, so every word is in "most" of them): the model weighs the request over the
 * pool's sentences instead, which is then most of the profile.
 */
export const SMALL_PROFILE_CHUNKS = 40;

/** How much more a term of the target keyword weighs than the topic's other subject terms. */
export const CORE_WEIGHT = 2;

/**
 * Under this many chunks or sentences no word can be told to be what the whole profile is about: nothing is
 * ubiquitous. (It was 20: a pool of 18 notes on beekeeping, "hive" in 9 of them and "bee" in 7, then weighed
 * "bee" and "hive" as discriminating, and "Preparing a beehive for winter" was written from every note that
 * named a hive: 2026-11-27, a held-out probe. At 10 the relevance bench's verdicts and small-profile strips are
 * unchanged: those pools all hold 20 sentences or more.)
 */
export const MIN_COUNT_FOR_UBIQUITY = 10;

/** The fitted numbers the weights use (`CALIBRATION`'s, or a candidate's while the bench fits them). */
export interface WeightFit {
  ubiquity: number;
  ubiquitousDamping: number;
  /**
   * The ubiquity threshold when the subject is weighed over a small pool's sentences (`subjectFromPool`): a
   * term in a tenth of a profile's chunks is in far more than a tenth of its sentences, so over sentences the
   * threshold is its own number (fit on the coffee facts' labels). Absent, `ubiquity` serves.
   */
  poolUbiquity?: number;
  /**
   * A German compound of the request is split when its own count is at most this share of its parts' geometric
   * mean count (`splitCompounds`). Absent, the committed `CALIBRATION.compoundSplit` serves.
   */
  compoundSplit?: number;
  /** In an all-ubiquitous subject, the share of the heaviest term's weight under which a term is background (`WeightedTerm.background`). */
  backgroundShare?: number;
  /** Mean occurrences per chunk under which a term counted over a profile is generic (`WeightedTerm.generic`); 0: none is. Absent, `CALIBRATION.burstiness`. */
  burstiness?: number;
}

/**
 * Under this many chunks a term's burstiness is not estimated: one or two mentions say nothing of how the profile
 * uses a word (chosen, not fit: the least count whose mean is more than one chunk's own count).
 */
export const MIN_CHUNKS_FOR_BURSTINESS = 3;

/**
 * How bursty a term is in a profile: its mean occurrences per chunk holding it (Church and Gale, 1995: a word
 * that names what a passage is about comes back within it, "leak" 2.97 times per chunk of the Valgrind manual,
 * "orphan" 1.74 in the Developer's Reference; a word of phrasing is said once, "find" 1.20, "give" 1.11,
 * "known" 1.07). Undefined without occurrence counts or under `MIN_CHUNKS_FOR_BURSTINESS` chunks.
 */
export function burstinessOf(term: string, stats: TermStats): number | undefined {
  const df = stats.df[term] ?? 0;
  const cf = stats.cf?.[term];
  return cf === undefined || df < MIN_CHUNKS_FOR_BURSTINESS ? undefined : cf / df;
}

/**
 * Counts over the profile's chunks are weighed by the BM25 index's own idf (`bm25Idf`): a term in every chunk weighs
 * next to nothing. (They were weighed by this one, which keeps log 2 for a term every chunk holds, so "Datei" and
 * "debian" in a heading stated half of "Die Datei debian/changelog" in a packaging guide whose every page says both:
 * 2026-11-28, the held-out probe's guide articles.)
 *
 * A smoothed idf for counts over a research pool: the pool was retrieved by the request's own words, so they are
 * in most of its sentences by construction, and Robertson and Spärck Jones's idf would weigh the request's core
 * ("route planning" in a pool found for it) to nothing beside a word one sentence says. This one keeps log 2 for
 * a term every sentence holds.
 */
export function smoothedIdf(df: number, n: number): number {
  return Math.log(1 + n / (df + 1));
}

/** Weights of the subject terms from document frequencies (profile-wide, or the pool's when there is no profile). */
export function subjectWeights(
  request: RequestAnalysis,
  stats: TermStats,
  from: "profile" | "pool",
  fit: WeightFit = CALIBRATION,
  /** Terms the brand profile's own name and description state: what the whole profile is about, so ubiquitous. */
  aboutProfile?: ReadonlySet<string>,
): RequestSubject {
  const n = Math.max(stats.chunks, 1);
  let subject = request.subject;
  // A joined form the index knows ("backup") replaces its parts ("back", "up"), which alone mean other things,
  // unless each part is more common than the joined form: the converse of the first test that splits a compound
  // (`splitCompounds`). A Debian packaging guide writes "Paket" and "Debian" in most chunks and "Debianpaket" in
  // three; read as one rare word, "Ein Debian-Paket hochladen" found no sentence about it (2026-11-27, a probe on
  // the New Maintainers' Guide). A part that is no subject term ("up") is not counted, and joins as before.
  const partsMoreCommon = (join: RequestAnalysis["joins"][number]) => {
    const counted = join.parts.filter((p) => stats.df[p] !== undefined).map((p) => stats.df[p]);
    return counted.length === join.parts.length && Math.min(...counted) > stats.df[join.term];
  };
  for (const join of request.joins) {
    if (!(stats.df[join.term] > 0) || partsMoreCommon(join)) continue;
    const partners = subject.filter((t) => join.parts.includes(t.term)).flatMap((t) => t.partners ?? []).filter((p) => !join.parts.includes(p));
    subject = subject.filter((t) => !join.parts.includes(t.term)).map((t) => (t.partners ? { ...t, partners: t.partners.map((p) => (join.parts.includes(p) ? join.term : p)) } : t));
    const core = request.subject.some((t) => join.parts.includes(t.term) && t.core);
    if (!subject.some((t) => t.term === join.term)) subject = [...subject, { term: join.term, surface: join.surface, ...(partners.length ? { partners: [...new Set(partners)] } : {}), ...(core ? { core: true } : {}) }];
  }
  subject = splitCompounds(subject, request.splits, stats.df, fit.compoundSplit ?? CALIBRATION.compoundSplit);
  // The keyword's terms name the core of the subject: they weigh double, unless every term is the keyword's.
  const coreMatters = subject.some((t) => t.core) && subject.some((t) => !t.core);
  const terms = subject.map((t): WeightedTerm => {
    const df = stats.df[t.term] ?? 0;
    // A word the profile says about once wherever it says it is the request's phrasing, however rare: weighed as a
    // ubiquitous term, it can neither admit a passage alone nor gate the subject ("find" of "How to find memory
    // leaks with Memcheck" in a Valgrind manual whose every other word of the request is ubiquitous).
    const burst = from === "profile" ? burstinessOf(t.term, stats) : undefined;
    const generic = burst !== undefined && burst < (fit.burstiness ?? CALIBRATION.burstiness);
    const everywhere = (n >= MIN_COUNT_FOR_UBIQUITY && df / n >= fit.ubiquity) || Boolean(aboutProfile?.has(t.term));
    const ubiquitous = everywhere || generic;
    const idf = (from === "profile" ? bm25Idf : smoothedIdf)(df, n) * (coreMatters && t.core ? CORE_WEIGHT : 1);
    const weight = idf * (ubiquitous ? fit.ubiquitousDamping : 1);
    // Generic only (not what the profile says everywhere): the gate counts it whole.
    return { ...t, df, weight, ubiquitous, ...(generic ? { generic } : {}), ...(generic && !everywhere ? { gateWeight: idf } : {}) };
  });
  return { terms: withBackground(terms, fit.backgroundShare ?? CALIBRATION.backgroundShare), angle: request.angle, counted_over: { chunks: stats.chunks, from } };
}

/**
 * At and above this share of a profile's chunks, the subject's most specific word is said by half the profile:
 * the request is what the whole profile is about ("Getting started with Valgrind" of Valgrind's manual, its
 * "Valgrind" in 64 % of the chunks; «Cómo crear un paquete Debian desde cero» of the New Maintainers' Guide, 82 %).
 * Chosen, not fit: the held-out probe's two such articles were 46 % and 54 % on topic by readers, while none of its
 * requests whose least common word is in a quarter of the profile or less fell under 60 %; on the focused book,
 * readers accept a third of what the lexical model finds relevant to requests spread over a fifth to a half.
 */
export const WHOLE_PROFILE_SHARE = 0.5;

/**
 * Whether the lexical model cannot tell what is about this subject from the rest of its profile: every word of
 * it (background ones aside) is in `WHOLE_PROFILE_SHARE` of the profile's chunks or more, counted over a profile
 * large enough to count over. Every passage then states the subject, and its on-topic verdicts say nothing.
 */
export function spansWholeProfile(subject: RequestSubject | undefined): boolean {
  if (!subject || subject.counted_over.from !== "profile" || subject.counted_over.chunks < SMALL_PROFILE_CHUNKS) return false;
  const stating = subject.terms.filter((t) => !t.background);
  return stating.length > 0 && stating.every((t) => (t.df ?? 0) / subject.counted_over.chunks >= WHOLE_PROFILE_SHARE);
}

/** A subject all ubiquitous with its background terms marked: those under `share` of its heaviest term's weight. */
function withBackground(terms: WeightedTerm[], share: number): WeightedTerm[] {
  if (!share || !terms.length || terms.some((t) => !t.ubiquitous)) return terms;
  const heaviest = Math.max(...terms.map((t) => t.weight));
  return terms.map((t) => (t.weight < share * heaviest ? { ...t, background: true } : t));
}

/** Every term whose statistics weigh a request, with the word it came from: its subject terms and the joined forms to try. */
export function termsToCount(request: RequestAnalysis): { term: string; word: string }[] {
  const out = new Map<string, string>();
  for (const t of request.subject) if (!out.has(t.term)) out.set(t.term, t.surface);
  for (const j of request.joins) if (!out.has(j.term)) out.set(j.term, j.word);
  for (const split of request.splits) for (const { modifier, head } of split.candidates) for (const part of [modifier, head]) if (!out.has(part.term)) out.set(part.term, part.word);
  return [...out].map(([term, word]) => ({ term, word }));
}

/**
 * The request's subject weighed within the brand profile's index, from the counts `termStats` gives (recon asks
 * `brand-knowledge.termStats`); undefined for a profile too small to count over, whose request the relevance
 * model then weighs over the evidence pool once research has one.
 */
export async function weighRequest(
  brief: { topic: string; keyword: string; language: string },
  termStats: (terms: { term: string; word: string }[]) => Promise<TermStats>,
): Promise<RequestSubject | undefined> {
  const request = analyseRequest(brief.topic, brief.keyword, brief.language);
  const stats = await termStats(termsToCount(request));
  return stats.chunks >= SMALL_PROFILE_CHUNKS ? subjectWeights(request, stats, "profile") : undefined;
}

/**
 * German compounds of the subject replaced by the split the profile's counts favour (Koehn and Knight, 2003):
 * the split whose two parts' geometric mean count is highest, each part counted more often than the whole
 * word (which makes the mean beat the whole's count, their criterion), and the whole counted at most `ratio`
 * times that mean (`CALIBRATION.compoundSplit`, fit): their criterion alone split words the sources use as
 * words ("Dateisystem", in 55 of the German manual's chunks, into "Datei" and "System"). The parts are a
 * phrase (each other's partners: "Berechtigungen" alone states half of "Dateiberechtigungen"); a compound the
 * sources use as often as its parts stays whole.
 */
export function splitCompounds(subject: SubjectTerm[], splits: readonly CompoundSplit[], df: Readonly<Record<string, number>>, ratio: number): SubjectTerm[] {
  const count = (term: string) => df[term] ?? 0;
  let out = subject;
  for (const split of splits) {
    const whole = out.find((t) => t.term === split.term);
    if (!whole) continue;
    // Each part must be more common than the whole: a part the sources hardly use alone ("Konten", where they
    // write "Benutzerkonten") would gate the topic in the compound's place.
    const [best] = split.candidates
      .filter((c) => Math.min(count(c.modifier.term), count(c.head.term)) > count(split.term))
      .filter((c) => !split.together || count(pairTerm(c.modifier.term, c.head.term)) > 0)
      .map((c) => ({ ...c, mean: Math.sqrt(count(c.modifier.term) * count(c.head.term)) }))
      .sort((a, b) => b.mean - a.mean);
    if (!best || count(split.term) > ratio * best.mean) continue;
    const parts = [best.modifier, best.head].filter((p) => !out.some((t) => t.term === p.term && t !== whole));
    const partners = (self: string) => [...new Set([...(whole.partners ?? []), ...[best.modifier.term, best.head.term].filter((t) => t !== self)])];
    const replaced = parts.map((p): SubjectTerm => ({ term: p.term, surface: p.word, partners: partners(p.term), compound: split.term, ...(whole.core ? { core: true } : {}) }));
    out = out.flatMap((t) => (t === whole ? replaced : [t.partners?.includes(split.term) ? { ...t, partners: t.partners.map((x) => (x === split.term ? best.head.term : x)) } : t]));
  }
  return out;
}
