import { wordsOf } from "../../../../shared/text/segment";
import { baseLanguage, isStopword } from "../../../../shared/text/stopwords";
import { tokenize } from "../../../../shared/text/tokenize";
import { isSubjectHeading, overviewHeading } from "../brief/outline";
import { languageProfile } from "../language";
import { capitalizeFirst, keywordFitsTemplates, languagePack, tidyHeading } from "../language/phrases";
import { requestedAngle } from "../relevance";
import { angleTerms, PHRASE_LINKS } from "../relevance/request";
import { requestAsTitle } from "../search/seo";
import { embedPhrase, LEADING_ARTICLES } from "../search/topic-phrasing";
import { unitsOfEvidence } from "../evidence/units";
import type { ArticleBrief, ArticleSection, ArticleSentence, Evidence } from "../types";

/** A phrase heads a section when this share of its sentences (at least two) say it. */
const PHRASE_SHARE = 0.5;
/** Two phrases together must say this share of the section's sentences; under it the section gets the neutral heading. */
const PAIR_SHARE = 1 / 3;
/**
 * A phrase names a section only when the section says it this many times as often (per sentence) as the rest of
 * the article does: a word every section says is no section's subject. Without it, words said all through an article
 * headed one of its sections, paired with its subject: "Services and file", "Debian forums and fix", « Día y
 * veterinario », « Bandeja de arena y día » (read in the held-out probe's articles).
 */
const CONCENTRATION = 2;
/** Each phrase of a pair says at least this share of the section: a phrase said twice in a long section is a passing word. */
const PAIR_EACH_SHARE = 1 / 4;
const MAX_PHRASE_WORDS = 3;
/**
 * The function words a heading's phrase holds inside it: the request's phrase links ("of", « de », «del»), the
 * articles, and their contractions with a preposition ("copias de seguridad", « mise à jour », "Verwaltung der
 * Pakete"). Any other ("if", "that", "and") joins two clauses, not one name: «Paquete binario y arquitectura si
 * consiste» headed a section of the held-out probe's debian/control article.
 */
const HEADING_LINKS: ReadonlySet<string> = new Set([...PHRASE_LINKS, ...LEADING_ARTICLES, "l", "à", "au", "aux", "al", "von", "vom", "dem", "den", "zum", "zur"]);

/**
 * Headings for what an extractive section holds. The offline plan's intent headings ("Why this matters",
 * "Common mistakes to avoid", « Pourquoi c'est important ») and its "Conclusion" promise what quoting cannot
 * choose for: the extractive writer fills such a section with relevant passages no other heading claims, so
 * "Pourquoi c'est important" came to hold tyre pressures and a chain-wear gauge, and "Conclusion" the
 * arguments of a "deb" line. Each such section is named by what its sentences are about: the source's own
 * heading most of them come from, else the phrase at least half of them say (or two phrases saying a third),
 * else a neutral "Other points". The overview heading (it names the keyword) and headings taken from the
 * knowledge base stay; a renamed conclusion is a body section like the others.
 */
export function nameSectionsByContent(sections: readonly ArticleSection[], brief: ArticleBrief, evidence: readonly Evidence[]): ArticleSection[] {
  const pack = languagePack(brief.language);
  const templates = new Set([...Object.values(pack.bodyHeadings).flat(), pack.conclusionHeading].map((h) => tidyHeading(h).toLowerCase()));
  // A clause request ("Where to get help with Debian") is its own overview heading, and the title says it already:
  // under the title, the same words again as the first heading name nothing (five of thirteen articles of the
  // held-out probe read so). Such a heading is named by what its section holds, as the templates are.
  const title = requestAsTitle(brief);
  if (title) templates.add(title.toLowerCase());
  // Headings already given, by their terms: "Compost heaps" is the heading "Compost heap" again.
  const used = new Set(sections.map((s) => headingKey(s.heading, brief.language)));
  const overview = honestOverview(brief);
  return sections.map((section) => {
    if (overview && section.heading === overview.heading && !overview.holds(section)) return { ...section, heading: overview.instead };
    if (section.role === "intro" || !templates.has(section.heading.toLowerCase())) return section;
    const elsewhere = sections.filter((s) => s !== section).flatMap((s) => s.paragraphs.flatMap((p) => p.sentences.map((x) => x.text)));
    const heading = sourceHeading(section, brief, evidence, used) ?? repeatedPhrase(section, brief, used, elsewhere) ?? pack.otherPointsHeading;
    used.add(headingKey(heading, brief.language));
    return { ...section, role: "body", heading };
  });
}

/**
 * The last heading a quoted sentence stands under in its source: its unit's (a subsection's heading line inside
 * the passage, `EvidenceUnit.heading`), else its passage's.
 */
export function sourceHeadings(evidence: readonly Evidence[], lang: string): (sentence: ArticleSentence) => string {
  const byId = new Map(evidence.map((e) => [e.id, e]));
  return (sentence) => {
    const passage = byId.get(sentence.cites[0] ?? "");
    if (!passage) return "";
    const unit = unitsOfEvidence(passage, lang).find((u) => u.sentences.includes(sentence.text));
    const path = (unit?.heading ?? passage.heading ?? "").split(" › ");
    return (path[path.length - 1] ?? "").replace(/\s+/g, " ").trim();
  };
}

/** A heading by its terms: "Compost heaps" is the heading "Compost heap" again. */
export const headingKey = (heading: string, lang: string) => tokenize(heading, lang).join(" ");

/**
 * The overview heading names the keyword, and with it the request's angle ("Composting mistakes: an overview").
 * Quoting serves the angle only as far as the sources do: the composting notes hold eight mistakes, and the
 * introduction opens with the strongest of them, so the overview came to hold a closed bin, a sunny spot and
 * chopped stems under "mistakes". When under half of its sentences serve the angle (`requestedAngle`), it is
 * the overview of the keyword without the angle's words ("Composting: an overview", « Entretien vélo : vue
 * d'ensemble »); a keyword that is all angle keeps its heading.
 */
function honestOverview(brief: ArticleBrief): { heading: string; instead: string; holds: (section: ArticleSection) => boolean } | undefined {
  const angle = requestedAngle(brief);
  const serves = angle?.serves;
  if (!angle || !serves || !keywordFitsTemplates(brief.keyword)) return undefined;
  const words = brief.keyword.split(/\s+/).filter(Boolean);
  // The angle's qualifiers go with it: "Common beekeeping mistakes to avoid" is the overview of beekeeping.
  const kept = words.filter((w) => !angle.asks.test(w) && !angle.qualifiers?.test(w));
  while (kept.length && isStopword(kept[0].toLowerCase(), brief.language)) kept.shift();
  while (kept.length && isStopword(kept[kept.length - 1].toLowerCase(), brief.language)) kept.pop();
  if (!kept.length || kept.length === words.length) return undefined;
  return {
    heading: overviewHeading(brief.keyword, brief.language),
    instead: overviewHeading(kept.join(" "), brief.language),
    holds: (section) => {
      const cited = section.paragraphs.flatMap((p) => p.sentences).filter((s) => s.cites.length);
      return cited.filter((s) => serves.test(s.text)).length * 2 >= cited.length;
    },
  };
}

const topicTermsOf = (brief: ArticleBrief) => new Set([...tokenize(`${brief.topic} ${brief.keyword}`, brief.language), ...angleTerms(brief.language)]);

/** The last heading of the passages most of the section's sentences quote, when it can head a section. */
function sourceHeading(section: ArticleSection, brief: ArticleBrief, evidence: readonly Evidence[], used: ReadonlySet<string>): string | undefined {
  const headingOf = sourceHeadings(evidence, brief.language);
  const sentences = section.paragraphs.flatMap((p) => p.sentences).filter((s) => s.cites.length);
  const counts = new Map<string, number>();
  for (const s of sentences) {
    const last = headingOf(s);
    if (last) counts.set(last, (counts.get(last) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  if (!best || best[1] < sentences.length * PHRASE_SHARE) return undefined;
  const heading = tidyHeading(best[0]);
  return !used.has(headingKey(heading, brief.language)) && isSubjectHeading(heading, brief, brief.language, topicTermsOf(brief)) ? heading : undefined;
}

/**
 * The phrase (one to three words, content words at both ends: "compost heap", « pression des pneus ») the
 * most sentences of the section say, the topic's own words aside: what a reader would call the section. It
 * must read as a noun phrase where it stands, after an article or, in German, with its capital, in at least
 * half its places: "Twelve" (six to twelve months, eight to twelve weeks), « lässt » or "actualmente existen"
 * name nothing. Forms of one word count as one ("pneu", "pneus").
 */
function repeatedPhrase(section: ArticleSection, brief: ArticleBrief, used: ReadonlySet<string>, elsewhere: readonly string[]): string | undefined {
  const lang = brief.language;
  const topic = topicTermsOf(brief);
  const nounAt = nounTest(lang);
  // Forms the stemmer leaves apart are one word here: Snowball's French keeps a short word's plural ("pneu",
  // "pneus"; "vélo", "vélos"). Not mended in the stemmer: every profile's chunks store their terms as indexed
  // (brand-knowledge's index stage), so a new stemmer would need every profile indexed again.
  const seenTerms: string[] = [];
  const canonical = (term: string) => {
    const known = seenTerms.find((t) => sameWord(t, term));
    if (known) return known;
    seenTerms.push(term);
    return term;
  };
  const sentences = section.paragraphs.flatMap((p) => p.sentences.map((s) => s.text));
  const found = new Map<string, { forms: Map<string, number>; terms: string[]; sentences: Set<number>; nouns: number; seen: number }>();
  sentences.forEach((text, i) => {
    const words = wordsOf(text, lang);
    const termOf = words.map((w) => (/\d/.test(w) || w.length < 3 ? undefined : tokenize(w, lang)[0]));
    for (let start = 0; start < words.length; start++) {
      for (let end = start; end < Math.min(words.length, start + MAX_PHRASE_WORDS); end++) {
        if (!termOf[start] || !termOf[end]) continue;
        if (words.slice(start + 1, end).some((w, k) => !termOf[start + 1 + k] && !HEADING_LINKS.has(w.toLowerCase()))) continue;
        const terms = termOf.slice(start, end + 1).filter((t): t is string => Boolean(t)).map(canonical);
        if (terms.every((t) => topic.has(t))) continue;
        const key = terms.join(" ");
        const entry = found.get(key) ?? { forms: new Map<string, number>(), terms, sentences: new Set<number>(), nouns: 0, seen: 0 };
        const form = words.slice(start, end + 1).join(" ");
        entry.forms.set(form, (entry.forms.get(form) ?? 0) + 1);
        entry.sentences.add(i);
        entry.seen++;
        if (nounAt(words, start)) entry.nouns++;
        found.set(key, entry);
      }
    }
  });
  // A phrase's most frequent form is how the section names it, the shorter on a tie ("Blätter", not the dative "Blättern", one term).
  const surfaceOf = (p: { forms: Map<string, number> }) => [...p.forms].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length)[0][0];
  // How many of the other sections' sentences say every term of a phrase (in any form `sameWord` joins).
  const otherTerms = elsewhere.map((text) => tokenize(text, lang));
  const saidElsewhere = (terms: readonly string[]) => otherTerms.filter((ts) => terms.every((t) => ts.some((u) => sameWord(u, t)))).length;
  const concentrated = (p: { terms: string[]; sentences: Set<number> }) =>
    !elsewhere.length || p.sentences.size / sentences.length >= (CONCENTRATION * saidElsewhere(p.terms)) / elsewhere.length;
  const ranked = [...found.values()]
    .map((p) => ({ ...p, surface: surfaceOf(p) }))
    .filter((p) => p.sentences.size >= 2 && !used.has(p.terms.join(" ")) && p.nouns * 2 >= p.seen && concentrated(p))
    .sort((a, b) => b.sentences.size * b.terms.length - a.sentences.size * a.terms.length);
  const [first] = ranked;
  if (!first) return undefined;
  if (first.sentences.size >= sentences.length * PHRASE_SHARE) return headingOf(first.surface);
  // Two phrases, neither inside the other, together saying a third of the section: "Green material and brown material".
  const inside = (a: string[], b: string[]) => a.every((t) => b.includes(t));
  const second = ranked.find((p) => p !== first && !inside(p.terms, first.terms) && !inside(first.terms, p.terms));
  if (!second || new Set([...first.sentences, ...second.sentences]).size < sentences.length * PAIR_SHARE) return undefined;
  if (Math.min(first.sentences.size, second.sentences.size) < sentences.length * PAIR_EACH_SHARE) return undefined;
  return headingOf(`${first.surface} ${languagePack(lang).and} ${embedPhrase(second.surface, brief.brand?.name, lang)}`);
}

const sameWord = (a: string, b: string) => a === b || (Math.min(a.length, b.length) >= 4 && Math.abs(a.length - b.length) <= 2 && (a.startsWith(b) || b.startsWith(a)));

/** Whether the word at `i` reads as a noun: after an article or determiner (« l'huile » carries its own), or a capitalised German word inside the sentence. */
function nounTest(lang: string): (words: readonly string[], i: number) => boolean {
  const { determiners } = languageProfile(lang);
  const german = baseLanguage(lang) === "de";
  return (words, i) => {
    const [elided, rest] = words[i].split(/['’]/);
    if (rest && determiners.has(elided.toLowerCase())) return true;
    // German writes every noun with a capital: a word in lower case is none, whatever stands before it ("die
    // benutzt werden", a relative "die", had headed a section "Benutzt" in the held-out probe).
    if (german) return i > 0 && /^\p{Lu}/u.test(words[i]);
    return i > 0 && determiners.has(words[i - 1].toLowerCase());
  };
}

/** A phrase quoted from a sentence as a heading: its first letter up, nothing else changed. */
const headingOf = (phrase: string) => tidyHeading(capitalizeFirst(phrase));
