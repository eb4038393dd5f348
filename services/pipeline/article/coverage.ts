import { isClearlyInLanguage, identifyLanguage, UNDETERMINED } from "../../../shared/text/language";
import { baseLanguage } from "../../../shared/text/stopwords";
import { wordsOf } from "../../../shared/text/segment";
import { tokenize } from "../../../shared/text/tokenize";
import { dependencyOf, type EvidenceUnit } from "./evidence-sentences";
import type { ArticleBrief, Evidence } from "./types";

/**
 * Whether evidence is ABOUT the topic, in absolute terms (docs/article-pipeline.md#coverage).
 *
 * The topic's key concepts are the content terms of topic and keyword (stemmed, stopwords out) minus words
 * that name no subject ("best", "guide", "small", "practical" …). Each concept weighs its rarity in the
 * evidence pool (idf over the pool's sentences): what every passage says ("Debian" in the Debian reference)
 * weighs little, what few say ("pinning") much, and a concept no passage says (a "CRM" in a Linux manual)
 * weighs the most.
 *
 * - The POOL covers the topic when the concepts its passages (in the article's language) state carry at least
 *   POOL_FLOOR of the concepts' weight: a Linux manual asked about "best CRM software for small real estate
 *   agencies" states "software" and "small", common words there, and none of "CRM", "real estate", "agencies".
 * - A SENTENCE is about the topic when the concepts it states (its passage heading counts half) weigh at least
 *   SENTENCE_FLOOR of its two weightiest concepts the pool states, and its own words at least OWN_FLOOR: it
 *   must name a distinctive concept of the topic ("pinning"), not only its everyday one ("APT"). Or, when its
 *   passage's context (page title and heading path) states the topic that much, the sentence belongs to that
 *   context's own subject: it shares a content term with the passage's nearest heading ("group each
 *   technician's jobs by neighbourhood" under "Route planning for field-service teams › Clustering jobs by
 *   area"); a sentence about something else on the same page ("Invoking mini-dinstall starts a daemon" under
 *   "mini-dinstall") is not.
 *
 * Language is part of it: evidence is quoted only in the language the article is written in. A sentence is
 * judged by its own words, or by its passage's when it is too short to tell.
 */
export const POOL_FLOOR = 0.6;
export const SENTENCE_FLOOR = 0.5;
export const OWN_FLOOR = 0.35;
const HEADING_SHARE = 0.5;

/** Words that name no subject of their own, per language (matched after tokenizing, so stems agree). */
const GENERIC_WORDS: Record<string, string> = {
  en: `best top guide guides tip tips way ways how why what new small big good great simple complete ultimate beginner beginners
introduction overview basics basic essential essentials practical step steps easy quick list checklist explained
understanding everything need know learn use using modern effective better manage managing handle handling work working`,
  fr: `meilleur meilleure meilleurs meilleures guide conseils astuces pratique pratiques complet complète introduction
aperçu bases essentiel étapes facile rapide comment pourquoi savoir tout utiliser gérer`,
  de: `beste besten bester leitfaden ratgeber tipps praxis praktisch einführung überblick grundlagen wichtigste schritte
einfach schnell wie warum alles wissen nutzen verwalten`,
  es: `mejor mejores guía consejos trucos práctica práctico completo completa introducción resumen básico básicos esencial
pasos fácil rápido cómo por qué todo saber usar gestionar`,
};

/**
 * Broad words: a topic may name them ("LOW LEVEL network configuration", "restoring DATA"), and they count
 * towards what a sentence states, but alone they do not make a sentence about the topic: "Systemd has low
 * level capability to schedule programs" or "LibreOffice's data files are .jar files" say nothing of
 * network configuration or backups. A sentence's own words must name at least one other concept. Some words
 * are part of a phrase that names the subject and are broad alone: "back" of "backing up" ("back slash",
 * "back end"), "seguridad" of "copias de seguridad" (security, not backups).
 */
const BROAD_WORDS: Record<string, string> = {
  en: `low high level levels data information system systems file files user users general various different other old
thing things part parts way tool tools back`,
  fr: `bas basse haut haute niveau niveaux donnée données information informations système systèmes fichier fichiers
utilisateur utilisateurs général différent outil outils`,
  de: `niedrig niedrige niedrigen hoch hohe hohen ebene daten information informationen system systeme datei dateien
benutzer allgemein verschieden werkzeug werkzeuge`,
  es: `bajo baja bajos alto alta altos nivel niveles dato datos información sistema sistemas archivo archivos fichero
ficheros usuario usuarios general diferente herramienta herramientas seguridad`,
};

/** A word table's terms for a language (tokenized, so stems agree), built once per base language. */
function termsByLanguage(wordsFor: (base: string) => string): (lang: string) => ReadonlySet<string> {
  const cache = new Map<string, ReadonlySet<string>>();
  return (lang) => {
    const base = baseLanguage(lang);
    let set = cache.get(base);
    if (!set) {
      set = new Set(tokenize(wordsFor(base), lang));
      cache.set(base, set);
    }
    return set;
  };
}

const broadTerms = termsByLanguage((base) => BROAD_WORDS[base] ?? BROAD_WORDS.en);

/** Shortest concept that a German compound is matched by ("Datensicherungssystem" ⊃ "datensicher"). */
const COMPOUND_MIN = 5;

/**
 * German writes compounds as one word: "Datensicherungssystem", "Datensicherungsprogramme" name the concept
 * "Datensicherung" (stem "datensicher") as much as the word itself does. A text's term that contains a concept
 * of at least five letters states that concept (German only: in English, French and Spanish a word containing
 * another is usually another word, "restaurant" ⊃ "restaur").
 */
export function withCompounds(terms: ReadonlySet<string>, concepts: readonly string[], lang: string): ReadonlySet<string> {
  if (baseLanguage(lang) !== "de") return terms;
  const long = concepts.filter((c) => c.length >= COMPOUND_MIN && !terms.has(c));
  if (!long.length) return terms;
  const found = long.filter((c) => [...terms].some((t) => t.length > c.length && t.includes(c)));
  return found.length ? new Set([...terms, ...found]) : terms;
}

const genericTerms = termsByLanguage((base) => `${GENERIC_WORDS.en} ${GENERIC_WORDS[base] ?? ""}`);

export interface TopicConcept {
  term: string;
  /** How the customer wrote it (for messages): "agencies", not the stem "agenc". */
  surface: string;
}

/** The key concepts of topic and keyword: content terms that name a subject, each once, with their written form. */
export function topicConcepts(brief: Pick<ArticleBrief, "topic" | "keyword" | "language">): TopicConcept[] {
  const lang = brief.language;
  const generic = genericTerms(lang);
  const out = new Map<string, string>();
  for (const word of wordsOf(`${brief.topic} ${brief.keyword}`, lang)) {
    for (const term of tokenize(word, lang)) if (!generic.has(term) && !out.has(term)) out.set(term, word);
  }
  // A topic made only of generic words ("A practical guide") keeps them: something must be about it.
  if (!out.size) for (const word of wordsOf(brief.topic, lang)) for (const term of tokenize(word, lang)) if (!out.has(term)) out.set(term, word);
  return [...out].map(([term, surface]) => ({ term, surface }));
}

export interface CoverageModel {
  concepts: readonly TopicConcept[];
  /** Share of the concepts' weight the pool's passages in the article's language state (0–1). */
  poolCoverage: number;
  /** The concepts no passage in the article's language states. */
  missing: readonly TopicConcept[];
  /** What a text states of the topic, against its two weightiest concepts the pool states (1 = both). */
  coverage(text: string, heading?: string): number;
  /** The unit is about the topic and in the article's language. */
  isAbout(unit: EvidenceUnit): boolean;
  /** The unit is written in the article's language (its own words, else its passage's). */
  inLanguage(unit: EvidenceUnit): boolean;
  /** A written sentence (a model's) that states the topic enough, in the article's language. */
  sentenceIsAbout(text: string, heading?: string): boolean;
}

/** The pool's languages, judged once per passage: what a sentence too short to tell falls back on. */
const passageLanguage = new WeakMap<Evidence, string>();
export function languageOfEvidence(evidence: Evidence): string {
  let lang = passageLanguage.get(evidence);
  if (lang === undefined) {
    lang = identifyLanguage(evidence.quote);
    passageLanguage.set(evidence, lang);
  }
  return lang;
}

export function buildCoverageModel(
  units: readonly EvidenceUnit[],
  evidence: readonly Evidence[],
  brief: Pick<ArticleBrief, "topic" | "keyword" | "language">,
  rawTermsOf: (text: string) => ReadonlySet<string>,
): CoverageModel {
  const lang = brief.language;
  const concepts = topicConcepts(brief);
  const conceptTerms = concepts.map((c) => c.term);
  const termsOf = (text: string) => withCompounds(rawTermsOf(text), conceptTerms, lang);
  const broad = broadTerms(lang);
  // When every concept is broad ("Data"), broad words are all the topic has: they count alone.
  const distinctive = concepts.filter((c) => !broad.has(c.term));
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const languageCache = new Map<string, boolean>();
  const inLanguage = (u: EvidenceUnit) => {
    let ok = languageCache.get(u.key);
    if (ok === undefined) {
      const found = identifyLanguage(u.text);
      const passage = byId.get(u.evidenceId);
      ok = found === UNDETERMINED ? (passage ? languageOfEvidence(passage) === baseLanguage(lang) : false) : found === baseLanguage(lang);
      languageCache.set(u.key, ok);
    }
    return ok;
  };
  const df = new Map<string, number>();
  const stated = new Set<string>();
  for (const u of units) {
    const terms = termsOf(`${u.heading} ${u.text}`);
    for (const c of concepts) {
      if (!terms.has(c.term)) continue;
      df.set(c.term, (df.get(c.term) ?? 0) + 1);
      if (inLanguage(u)) stated.add(c.term);
    }
  }
  const n = Math.max(units.length, 1);
  const weight = new Map(concepts.map((c) => [c.term, Math.log(1 + n / ((df.get(c.term) ?? 0) + 1))]));
  const total = [...weight.values()].reduce((a, b) => a + b, 0) || 1;
  const poolCoverage = concepts.filter((c) => stated.has(c.term)).reduce((a, c) => a + weight.get(c.term)!, 0) / total;
  // The yardstick of a sentence: the two weightiest concepts the pool states (one when the topic has one).
  const present = concepts.filter((c) => stated.has(c.term)).map((c) => weight.get(c.term)!).sort((a, b) => b - a);
  const yardstick = present.slice(0, 2).reduce((a, b) => a + b, 0) || total;
  const measure = (text: string, heading: string, withHeading: boolean) => {
    const terms = termsOf(text);
    const situating = withHeading && heading ? termsOf(heading) : new Set<string>();
    let covered = 0;
    for (const c of concepts) {
      if (terms.has(c.term)) covered += weight.get(c.term)!;
      else if (situating.has(c.term)) covered += HEADING_SHARE * weight.get(c.term)!;
    }
    return covered / yardstick;
  };
  const namesDistinctive = (text: string) => {
    if (!distinctive.length) return true;
    const terms = termsOf(text);
    return distinctive.some((c) => terms.has(c.term));
  };
  const about = (text: string, heading: string) =>
    measure(text, heading, false) >= OWN_FLOOR && measure(text, heading, true) >= SENTENCE_FLOOR && namesDistinctive(text);
  const contextCache = new Map<string, boolean>();
  const contextCovers = (e: Evidence) => {
    let ok = contextCache.get(e.id);
    if (ok === undefined) {
      const context = `${e.title} › ${e.heading ?? ""}`;
      ok = measure(context, "", false) >= SENTENCE_FLOOR && namesDistinctive(context);
      contextCache.set(e.id, ok);
    }
    return ok;
  };
  const belongsToContext = (u: EvidenceUnit, text = u.text) => {
    const passage = byId.get(u.evidenceId);
    if (!passage || !contextCovers(passage)) return false;
    const nearest = (passage.heading ?? "").split("›").pop()?.trim() || passage.title;
    const own = termsOf(text);
    return [...termsOf(nearest)].some((t) => own.has(t));
  };
  const aboutCache = new Map<string, boolean>();
  return {
    concepts,
    poolCoverage,
    missing: concepts.filter((c) => !stated.has(c.term)),
    coverage: (text, heading = "") => measure(text, heading, true),
    inLanguage,
    isAbout(u) {
      let ok = aboutCache.get(u.key);
      if (ok === undefined) {
        // A linked continuation ("Equally, …", « si vous voulez le faire ») says something of its own: it must be
        // about the topic too, or the unit is not ("… restaurer un système cassé" + "… outrepasser les dépendances de dpkg").
        const links = u.sentences.slice(1).filter((s) => dependencyOf(s, lang) === "link");
        ok = inLanguage(u) && (about(u.text, u.heading) || belongsToContext(u)) && links.every((s) => about(s, u.heading) || belongsToContext(u, s));
        aboutCache.set(u.key, ok);
      }
      return ok;
    },
    sentenceIsAbout: (text, heading = "") => about(text, heading) && (identifyLanguage(text) === UNDETERMINED || isClearlyInLanguage(text, lang)),
  };
}

/**
 * Why a pool cannot make an article, in words a customer can act on: the concepts no passage in the
 * requested language states, or the language the passages are in when none is in the requested one.
 */
export function describeMissingCoverage(
  units: readonly EvidenceUnit[],
  model: CoverageModel,
  brief: Pick<ArticleBrief, "topic" | "language" | "brand">,
): string {
  const where = brief.brand ? "this brand profile's sources" : "the sources research found";
  if (!units.length) return `No passages about “${brief.topic}” in ${where}; add sources that cover it.`;
  if (!units.some((u) => model.inLanguage(u))) {
    const found = [...new Set(units.map((u) => identifyLanguage(u.text)).filter((l) => l !== UNDETERMINED))];
    const theirs = found.length ? ` (they are in ${found.slice(0, 3).join(", ")})` : "";
    return `No passages in the requested language (${brief.language}) in ${where}${theirs}; add sources written in ${brief.language}, or request the article in the sources' language.`;
  }
  const lacking = model.missing.length ? model.missing : model.concepts;
  return `No passages about ${lacking.map((c) => `“${c.surface}”`).join(", ")} in ${where}: nothing there covers “${brief.topic}”; add sources that cover it.`;
}
