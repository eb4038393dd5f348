import { identifyLanguage, isClearlyInLanguage, UNDETERMINED } from "../../../../shared/text/language";
import { baseLanguage } from "../../../../shared/text/stopwords";
import { languageProfile, type LanguageProfile } from "../language";
import { tokenize } from "../../../../shared/text/tokenize";
import { dependencyOf, unitsOfEvidence, unitsOfPool, type EvidenceUnit } from "../evidence/units";
import { termSet } from "../evidence/similarity";
import type { ArticleBrief, BrandBrief, Evidence } from "../types";
import { CALIBRATION } from "./calibration";
import { relevanceLogit, relevanceProbability, subjectShare, withCompounds, withSplitParts, type RelevanceFeatures } from "./features";
import { analyseRequest, pairTerm } from "./request";
import type { PassageGrades, StripGrades } from "./model-grades";
import { subjectWeights, termsToCount, type RequestSubject, type WeightedTerm, type WeightFit } from "./weights";
import { bm25Idf } from "../../../../shared/text/bm25";

/**
 * THE relevance model (docs/relevance.md): one calibrated judgement of how much a passage, a unit of it or a
 * sentence is about the request's subject, used by the evidence gate, the writers, the editor, the FAQ and the
 * score alike. Each unit gets P(relevant) from three shares of the subject's profile-weighted terms (its own
 * words, its passage's headings or title, its adjacent units); at or over `CALIBRATION.relevant` it is on topic.
 */
export interface RelevanceModel {
  /** The request's subject with its weights, and its angle. */
  subject: RequestSubject;
  /** P(relevant) of a unit of the pool, with its passage's context. */
  unit(unit: EvidenceUnit): number;
  /**
   * How strongly a unit is about the subject, for ORDERING relevant units: the model's linear score (its
   * log-odds), which does not saturate as P does near 1 (a case study's figures rank above a home page's
   * tagline though both are surely relevant); minus infinity for a unit out of the article's language.
   */
  strength(unit: EvidenceUnit): number;
  /** Strength of a free text, situated by a heading. */
  textStrength(text: string, heading?: string): number;
  /** Strength of an article sentence: the unit it quotes when it quotes one (with its passage's context), else its own words. */
  sentenceStrength(text: string, cites: readonly string[]): number;
  features(unit: EvidenceUnit): RelevanceFeatures;
  /** For ranking within a body section: the unit's strength plus its match of the section heading's own terms. */
  forSection(unit: EvidenceUnit, heading: string): number;
  /** A strength against the reference (the mean of the pool's three strongest units); 0 when nothing is relevant. */
  relative(strength: number): number;
  /** A probability at or over the calibrated `relevant` threshold. */
  onTopic(score: number): boolean;
  coverage: CoverageView;
  /** Units of the pool graded relevant and in the article's language. */
  aboutUnits: readonly EvidenceUnit[];
  /** Units of the pool a model's strip grade can decide: in the article's language and at least ambiguous. */
  stripsToGrade(): EvidenceUnit[];
  /** The passages those units come from, in the pool's order. */
  aboutPassages: readonly Evidence[];
  /** A passage's relevant strips, in its order: all of it a writer is given (corrective retrieval keeps only those). */
  stripsOf(evidenceId: string): readonly EvidenceUnit[];
  /** Whether an article sentence is on topic: a quotation by its unit, a written sentence by its words, an uncited framing sentence when it names the subject. */
  isAboutSentence(text: string, cites: readonly string[], heading?: string): boolean;
  /** How well a text matches extra terms (a section heading's own terms), idf-weighted over the pool. */
  scoreTerms(terms: readonly string[], text: string, heading?: string): number;
  /** Whether a text serves the request's angle by its words (`angleMaterial`); undefined when the request names none the language profile can see in words. */
  servesAngle(text: string): boolean | undefined;
}

/** What the evidence gate reads: how much of the subject the pool states, in the article's language. */
export interface CoverageView {
  concepts: readonly WeightedTerm[];
  /** Share of the subject's weight stated by the pool's units in the article's language (0–1). */
  poolCoverage: number;
  missing: readonly WeightedTerm[];
  inLanguage(unit: EvidenceUnit): boolean;
  isAbout(unit: EvidenceUnit): boolean;
  sentenceIsAbout(text: string, heading?: string): boolean;
}

const cache = new WeakMap<readonly Evidence[], Map<string, RelevanceModel>>();

/**
 * What a strip serving the request's angle adds to its strength (log-odds), when the request names an angle
 * its language profile can see in a strip's words (`angleMaterial`: mistakes to avoid are served by "too
 * much", "never", "not", "without", "damage"). Chosen, not fit (no labelled data orders strips by angle): two
 * is about what the subject's own words in a strip add (`own` × 0.6), so an angle strip that states the
 * subject in its context only ranks with one that states it outright.
 */
export const ANGLE_BONUS = 2;

/** Whether a strip states anything of the subject: its own words, its passage's context, or a strip beside it. */
const statesSubject = (f: RelevanceFeatures) => f.own > 0 || f.context > 0 || f.neighbour > 0;

/** What a brand profile says of itself: its name and description, which situate a small profile's notes. */
const profileText = (brand: Pick<BrandBrief, "name" | "description">) => `${brand.name}\n${brand.description ?? ""}`;

/** The first angle the request asks for that its language profile can see in a strip's words, if any. */
export function requestedAngle(brief: Pick<ArticleBrief, "topic" | "keyword" | "language">): LanguageProfile["angleMaterial"][number] | undefined {
  const request = `${brief.topic} ${brief.keyword}`;
  return languageProfile(baseLanguage(brief.language)).angleMaterial.find((a) => a.asks.test(request));
}

type BriefLike = Pick<ArticleBrief, "topic" | "keyword" | "language"> & {
  subject?: RequestSubject;
  passage_grades?: PassageGrades;
  strip_grades?: StripGrades;
  brand?: Pick<BrandBrief, "name" | "description"> | null;
};

/** The relevance model of a pool for a brief (cached per pool and request). */
export function relevanceModel(evidence: readonly Evidence[], brief: BriefLike): RelevanceModel {
  const weighed = brief.subject?.terms.map((t) => `${t.term}:${t.weight}`).join(",") ?? "";
  const grades = { ...brief.passage_grades, ...brief.strip_grades };
  const graded = Object.entries(grades).map(([id, g]) => `${id}:${g[0]}`).join(",");
  const profile = brief.brand ? profileText(brief.brand) : "";
  const key = `${brief.language}\u0000${brief.topic}\u0000${brief.keyword}\u0000${weighed}\u0000${graded}\u0000${profile}`;
  let perPool = cache.get(evidence);
  if (!perPool) cache.set(evidence, (perPool = new Map()));
  let model = perPool.get(key);
  if (!model) perPool.set(key, (model = buildModel(evidence, brief)));
  return model;
}

/** The pool's languages, judged once per passage: what a sentence too short to tell falls back on. */
const passageLanguage = new WeakMap<Evidence, string>();
function languageOfEvidence(evidence: Evidence): string {
  let lang = passageLanguage.get(evidence);
  if (lang === undefined) passageLanguage.set(evidence, (lang = identifyLanguage(evidence.quote)));
  return lang;
}

/**
 * The subject weighed over the pool's sentences, for a brief recon could not weigh against a profile: web
 * research only, or a profile too small for chunk counts to tell words apart (`SMALL_PROFILE_CHUNKS`), whose
 * pool is then most of the profile.
 */
export function subjectFromPool(evidence: readonly Evidence[], brief: Pick<BriefLike, "topic" | "keyword" | "language" | "brand">, fit: WeightFit = CALIBRATION): RequestSubject {
  const request = analyseRequest(brief.topic, brief.keyword, brief.language);
  const wanted = termsToCount(request).map((t) => t.term);
  const df: Record<string, number> = Object.fromEntries(wanted.map((t) => [t, 0]));
  // A split whose parts must be found together is counted by the units holding both (`CompoundSplit.together`).
  const pairs = request.splits.filter((s) => s.together).flatMap((s) => s.candidates.map((c) => [c.modifier.term, c.head.term] as const));
  const units = unitsOfPool(evidence, brief.language);
  for (const u of units) {
    const terms = withCompounds(termSet(u.text, brief.language), wanted, brief.language);
    for (const t of wanted) if (terms.has(t)) df[t]++;
    for (const [modifier, head] of pairs) if (terms.has(modifier) && terms.has(head)) df[pairTerm(modifier, head)] = (df[pairTerm(modifier, head)] ?? 0) + 1;
  }
  // What the profile's name and description state is what the whole profile is about: ubiquitous, whatever the
  // count. "Cultivar tomates en casa" of a profile "Huerto en Casa" ("Consejos para cultivar un huerto urbano")
  // is about tomatoes; weighed by counts alone, "cultivar" and "casa" (one fact each) outweighed "tomates" (two),
  // and the profile's words made every note relevant.
  const profile = brief.brand ? withCompounds(termSet(profileText(brief.brand), brief.language), wanted, brief.language) : undefined;
  return subjectWeights(request, { chunks: units.length, df }, "pool", { ...fit, ubiquity: fit.poolUbiquity ?? fit.ubiquity }, profile);
}

function buildModel(evidence: readonly Evidence[], brief: BriefLike): RelevanceModel {
  const lang = brief.language;
  const subject = brief.subject ?? subjectFromPool(evidence, brief);
  const subjectTerms = subject.terms.map((t) => t.term);
  const wholes = [...new Set(subject.terms.flatMap((t) => (t.compound ? [t.compound] : [])))];
  const termsOf = (text: string) => withSplitParts(withCompounds(termSet(text, lang), [...subjectTerms, ...wholes], lang), subject.terms);
  const units = unitsOfPool(evidence, lang);
  const byId = new Map(evidence.map((e) => [e.id, e]));
  // What situates a passage: its page's title, its heading path and, in a small profile (whose pool is most of
  // it), the brand's own name and description. A customer's pasted notes on bicycle maintenance say "chaîne",
  // "pneus", "freins" and hardly ever "vélo"; the profile that holds them says what they are all about.
  const profileContext = brief.brand && subject.counted_over.from === "pool" ? profileText(brief.brand) : "";
  // The profile's words situate every one of its passages together with the passage's title or heading: a note
  // under "Alimentación y agua" of a profile on "el cuidado de gatos" is about feeding cats, which neither says
  // alone (taken apart, "Alimentación del gato" found no note about it: 2026-11-27, a held-out probe).
  const situating = (e: Evidence) => {
    const own = [e.title, e.heading ?? ""];
    return profileContext && e.origin === "brand" ? [...own.map((t) => `${t}\n${profileContext}`), profileContext] : own;
  };
  const contextOf = (id: string) => {
    const e = byId.get(id);
    return e ? situating(e).join("\n") : "";
  };
  const languageCache = new Map<string, boolean>();
  // Every sentence of a unit must be in the article's language: an untranslated sentence of a translated manual,
  // followed by translated ones that lean on it, reads as the translation's language as a whole.
  const sentenceInLanguage = (text: string, passage: Evidence | undefined) => {
    const found = identifyLanguage(text);
    return found === UNDETERMINED ? (passage ? languageOfEvidence(passage) === baseLanguage(lang) : false) : found === baseLanguage(lang);
  };
  const inLanguage = (u: EvidenceUnit) => {
    let ok = languageCache.get(u.key);
    if (ok === undefined) {
      const passage = byId.get(u.evidenceId);
      ok = u.sentences.every((x) => sentenceInLanguage(x, passage));
      languageCache.set(u.key, ok);
    }
    return ok;
  };
  // Which subject terms the pool states (own words or headings): anywhere, which a sentence's share is measured
  // against, and in the article's language, which the evidence gate counts.
  const statedAnywhere = new Set<string>();
  const stated = new Set<string>();
  for (const u of units) {
    const terms = termsOf(`${contextOf(u.evidenceId)} ${u.text}`);
    const here = inLanguage(u);
    for (const t of subjectTerms) {
      if (!terms.has(t)) continue;
      statedAnywhere.add(t);
      if (here) stated.add(t);
    }
  }
  const statable = subject.terms.filter((t) => statedAnywhere.has(t.term));
  const share = (text: string) => subjectShare(termsOf(text), subject.terms, statable);
  // What situates a passage: its heading path or its page's title, whichever states more of the subject. (A
  // title apart, as its own feature, was tried: the labelled data carries no signal for it, chapter titles
  // being broad, and the fit gave it 0.3, which dropped "Clustering jobs by area" from a page titled "Route
  // planning basics for field service teams". Half a title was tried too, with the same result.)
  const contextShare = new Map<string, number>();
  const contextFor = (id: string) => {
    let c = contextShare.get(id);
    if (c === undefined) {
      const e = byId.get(id);
      c = e ? Math.max(...situating(e).map(share)) : 0;
      contextShare.set(id, c);
    }
    return c;
  };

  // A unit's own share counts every sentence of it: a linked continuation about something else lowers it.
  const ownShare = new Map<string, number>();
  const ownOf = (u: EvidenceUnit) => {
    let s = ownShare.get(u.key);
    if (s === undefined) {
      const links = u.sentences.slice(1).filter((x) => dependencyOf(x, lang) === "link");
      s = Math.min(share(u.text), ...links.map((x) => share(`${u.sentences[0]} ${x}`)));
      ownShare.set(u.key, s);
    }
    return s;
  };
  // A unit's neighbours are the units just before and after it in its passage: a long pasted text is one
  // passage, and its best sentence says nothing of one fifteen sentences away.
  const inPassage = new Map<string, EvidenceUnit[]>();
  for (const u of units) inPassage.set(u.evidenceId, [...(inPassage.get(u.evidenceId) ?? []), u]);
  for (const list of inPassage.values()) list.sort((a, b) => a.position - b.position);
  const features = (u: EvidenceUnit): RelevanceFeatures => {
    const list = inPassage.get(u.evidenceId) ?? [];
    const at = list.indexOf(u);
    const next = [list[at - 1], list[at + 1]].filter((x): x is EvidenceUnit => Boolean(x) && at >= 0);
    const context = contextFor(u.evidenceId);
    return { own: ownOf(u), context, neighbour: Math.max(0, ...next.map(ownOf)), elsewhere: byId.get(u.evidenceId)?.heading && context === 0 ? 1 : 0 };
  };
  const probability = new Map<string, number>();
  // The model's grades, when a model graded the pool (`model-grades.ts`): an irrelevant passage or strip gives
  // nothing; a strip graded relevant (or, with no grade of its own, a strip of a passage graded relevant) is
  // relevant when the lexical model finds it at least ambiguous and it states something of the subject (its own
  // words, its passage's headings, or a strip beside it); a strip graded ambiguous is judged as offline. The
  // fitted `ambiguous` (0.2) is under the model's own bias (σ(bias) ≈ 0.21): a strip stating nothing of the
  // subject scores there, so a passage graded relevant gave every strip it holds, whatever it was about. A model
  // can so take a strip out, never bring in one that says nothing of the subject.
  const graded = (u: EvidenceUnit, f: RelevanceFeatures) => {
    const grade = brief.passage_grades?.[u.evidenceId];
    const strip = brief.strip_grades?.[u.key];
    const p = relevanceProbability(f);
    if (grade === "irrelevant" || strip === "irrelevant") return 0;
    const lifted = strip ? strip === "relevant" : grade === "relevant";
    return lifted && p >= CALIBRATION.ambiguous && statesSubject(f) ? Math.max(p, CALIBRATION.relevant) : p;
  };
  const unit = (u: EvidenceUnit) => {
    let p = probability.get(u.key);
    if (p === undefined) probability.set(u.key, (p = inLanguage(u) ? graded(u, features(u)) : 0));
    return p;
  };
  const isAbout = (u: EvidenceUnit) => unit(u) >= CALIBRATION.relevant;
  // Free text (a model's sentence, a heading) is situated by what it is given; it is written from strips the model
  // already judged (`stripsOf`), so what their headings leave unstated has weighed there (`elsewhere`: 0 here).
  const textFeatures = (text: string, heading: string): RelevanceFeatures => ({ own: share(text), context: share(heading), neighbour: 0, elsewhere: 0 });
  const score = (text: string, heading = "") => relevanceProbability(textFeatures(text, heading));
  const textStrength = (text: string, heading = "") => relevanceLogit(textFeatures(text, heading));
  // The angle steers the choice of material, never its relevance: a strip serving it ranks higher, by its own
  // words or by its place (a page or section whose title or heading names an introduction, for a beginner). A
  // page's title counted over a section's heading was tried: "Getting started with Valgrind" lost readers' on-topic
  // sentences (23 of 40 → 17 of 37), the core manual's "Getting started" section giving way to licensing notes.
  const angle = requestedAngle(brief);
  const servesUnit = (u: EvidenceUnit) => Boolean(angle?.serves?.test(u.text) || angle?.placed?.test(`${contextOf(u.evidenceId)}\n${u.heading}`));
  const strength = (u: EvidenceUnit) => (unit(u) > 0 ? relevanceLogit(features(u)) + (servesUnit(u) ? ANGLE_BONUS : 0) : -Infinity);

  // Section headings are matched by their own terms, BM25's idf over the pool's units (the pool was not retrieved
  // by a section heading's own words, as it was by the request's).
  const df = new Map<string, number>();
  for (const u of units) for (const t of u.terms) df.set(t, (df.get(t) ?? 0) + 1);
  const scoreTerms = (terms: readonly string[], text: string, heading = "") => {
    const own = termsOf(text);
    const situating = heading ? termsOf(heading) : new Set<string>();
    let s = 0;
    for (const t of new Set(terms)) if (own.has(t) || situating.has(t)) s += bm25Idf(df.get(t) ?? 0, units.length) / (own.has(t) ? 1 : 3);
    return s;
  };
  const topicTerms = new Set(tokenize(`${brief.topic} ${brief.keyword}`, lang));
  const forSection = (u: EvidenceUnit, heading: string) => {
    const own = tokenize(heading, lang).filter((t) => !topicTerms.has(t));
    return strength(u) + (own.length ? Math.min(1, scoreTerms(own, u.text, u.heading) / Math.max(1e-9, scoreTerms(own, heading))) : 0);
  };

  // A generic term weighs on the gate with its whole weight (`WeightedTerm.gateWeight`).
  const gateWeight = (t: WeightedTerm) => t.gateWeight ?? t.weight;
  const total = subject.terms.reduce((n, t) => n + gateWeight(t), 0) || 1;
  const poolCoverage = subject.terms.filter((t) => stated.has(t.term)).reduce((n, t) => n + gateWeight(t), 0) / total;

  const byEvidence = new Map<string, readonly EvidenceUnit[]>();
  for (const e of evidence) byEvidence.set(e.id, unitsOfEvidence(e, lang));
  const quotedUnits = (text: string, cites: readonly string[]) => cites.flatMap((id) => byEvidence.get(id) ?? []).filter((u) => u.text.includes(text) || text.includes(u.text));
  const sentenceIsAbout = (text: string, heading = "") =>
    score(text, heading) >= CALIBRATION.relevant && (identifyLanguage(text) === UNDETERMINED || isClearlyInLanguage(text, lang));

  // The reference strength: the mean of the three strongest relevant units (the logit is positive there).
  const aboutUnits = units.filter(isAbout);
  const aboutIds = new Set(aboutUnits.map((u) => u.evidenceId));
  const stripsByPassage = new Map<string, EvidenceUnit[]>();
  for (const u of aboutUnits) stripsByPassage.set(u.evidenceId, [...(stripsByPassage.get(u.evidenceId) ?? []), u]);
  for (const list of stripsByPassage.values()) list.sort((a, b) => a.position - b.position);
  const best = aboutUnits.map(strength).sort((a, b) => b - a).slice(0, 3).filter((x) => x > 0);
  const reference = best.length ? best.reduce((a, b) => a + b, 0) / best.length : 0;
  return {
    subject,
    unit,
    strength,
    textStrength,
    sentenceStrength: (text, cites) => {
      const quoted = quotedUnits(text, cites);
      return quoted.length ? Math.max(...quoted.map(strength)) : textStrength(text, cites.map(contextOf).join("\n"));
    },
    features,
    forSection,
    relative: (x) => (reference && Number.isFinite(x) ? x / reference : 0),
    onTopic: (p) => p >= CALIBRATION.relevant,
    coverage: {
      concepts: subject.terms,
      poolCoverage,
      missing: subject.terms.filter((t) => !stated.has(t.term)),
      inLanguage,
      isAbout,
      sentenceIsAbout,
    },
    aboutUnits,
    stripsToGrade: () => units.filter((u) => unit(u) >= CALIBRATION.ambiguous),
    aboutPassages: evidence.filter((e) => aboutIds.has(e.id)),
    stripsOf: (id) => stripsByPassage.get(id) ?? [],
    isAboutSentence: (text, cites, heading = "") => {
      const quoted = quotedUnits(text, cites);
      if (quoted.length) return quoted.some(isAbout);
      if (cites.length) return sentenceIsAbout(text, `${heading}\n${cites.map(contextOf).join("\n")}`);
      // An uncited framing sentence states no fact: it is on topic when it names the keyword or the subject.
      const own = termsOf(text);
      return text.toLowerCase().includes(brief.keyword.toLowerCase()) || subject.terms.some((t) => !t.ubiquitous && own.has(t.term));
    },
    scoreTerms,
    servesAngle: (text) => (angle?.serves ? angle.serves.test(text) : undefined),
  };
}
