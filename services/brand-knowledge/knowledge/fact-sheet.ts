import { sentencesOf, wordsOf } from "../../../shared/text/segment";
import { tokenize } from "../../../shared/text/tokenize";

export type FactKind = "offering" | "figure" | "claim";

export interface Fact {
  fact: string;
  kind: FactKind;
  /** The chunk the fact was read from: every fact is traceable to its source text. */
  chunkId: string;
  sourceUrl: string;
}

export interface FactSourceChunk {
  id: string;
  documentUrl: string;
  text: string;
}

export interface FactSheetOptions {
  /** Facts kept; no kind takes more than half of them while others have candidates. */
  max?: number;
  lang?: string;
}

export const DEFAULT_MAX_FACTS = 40;

const CURRENCY_SYMBOLS = ["$", "€", "£", "¥", "₹"];
const CURRENCY_WORDS = new Set(["usd", "eur", "gbp", "dollars", "euros", "pounds", "cents"]);
const UNIT_WORDS = new Set(
  "users seats customers clients employees people countries cities languages integrations partners hours minutes days weeks months years seconds ms gb tb mb stores locations offices teams businesses companies times x".split(" "),
);
const NUMBER_WORDS = new Set("two three four five six seven eight nine ten eleven twelve twenty hundred hundreds thousand thousands million millions billion billions dozen dozens".split(" "));
const OFFER_VERBS = new Set(
  "offer offers offered provide provides include includes including support supports enable enables help helps let lets allow allows integrate integrates deliver delivers sell sells build builds ship ships automate automates connect connects available comes".split(" "),
);
const PRODUCT_NOUNS = new Set(
  "plan plans platform product products service services feature features integration integrations api app apps tool tools module modules add-on add-ons addon tier tiers subscription subscriptions solution solutions package packages software dashboard dashboards workflow workflows".split(" "),
);
const CLAIM_WORDS = new Set(
  "best fastest leading largest biggest easiest safest simplest award awarded award-winning trusted certified compliant guarantee guaranteed proven recognized recognised rated pioneer pioneered unique".split(" "),
);
/**
 * "first", "only" and "top" claim something only after "the" ("the only tool that…"): alone, or before a
 * stretch of time ("within the first month"), they are too common.
 */
const CLAIM_AFTER_THE = new Set(["first", "only", "top"]);
const TIME_WORDS = new Set(["minute", "hour", "day", "days", "week", "weeks", "month", "months", "quarter", "year", "years", "time"]);
/** Calls to action and context-bound openers are not standalone facts. */
const IMPERATIVES = new Set("click sign contact learn read get try book subscribe download join see discover find call request start".split(" "));
const DEPENDENT_OPENERS = new Set("it this that they these those he she its their".split(" "));
const BOILERPLATE = new Set(["cookie", "cookies", "copyright", "©", "unsubscribe", "javascript"]);

interface ScoredSentence {
  kind: FactKind;
  score: number;
}

/**
 * Kind and informativeness of a sentence, or null when it is no fact. Figures (currency, percentages, years,
 * counts with units) outrank offerings (an offer verb with a product noun or "we" as subject), which outrank
 * claims (superlatives, awards, certifications). Names (capitalised words inside the sentence) and content
 * words add a little; a sentence opening with "it"/"this" depends on its neighbours and loses a point.
 */
export function classifySentence(sentence: string, lang = "en"): ScoredSentence | null {
  const text = sentence.trim();
  if (!text || text.endsWith("?")) return null;
  const raw = wordsOf(text, lang);
  const words = raw.map((w) => w.toLowerCase());
  if (words.length < 4 || words.length > 50) return null;
  if (IMPERATIVES.has(words[0]) || words.some((w) => BOILERPLATE.has(w)) || text.includes("©")) return null;

  let figure = 0;
  if (CURRENCY_SYMBOLS.some((c) => text.includes(c)) || words.some((w) => CURRENCY_WORDS.has(w))) figure += 2;
  if (text.includes("%") || words.includes("percent")) figure += 2;
  words.forEach((w, i) => {
    if (!/\d/.test(w)) return;
    figure += /^(19|20)\d\d$/.test(w) ? 1.5 : 1;
    if (UNIT_WORDS.has(words[i + 1] ?? "")) figure += 0.5;
  });
  if (figure === 0 && words.some((w) => NUMBER_WORDS.has(w))) figure = words.some((w) => UNIT_WORDS.has(w)) ? 1 : 0;

  const offerVerb = words.some((w) => OFFER_VERBS.has(w));
  const productNoun = words.some((w) => PRODUCT_NOUNS.has(w));
  const weSubject = words[0] === "we" || words[0] === "our";
  const offering = offerVerb && (productNoun || weSubject) ? 1 + (productNoun ? 1 : 0) + (weSubject ? 0.5 : 0) : 0;
  const claim =
    words.filter((w, i) => CLAIM_WORDS.has(w) || (CLAIM_AFTER_THE.has(w) && words[i - 1] === "the" && !TIME_WORDS.has(words[i + 1] ?? ""))).length +
    (text.includes("#1") ? 1 : 0);

  const kind: FactKind | null = figure > 0 ? "figure" : offering > 0 ? "offering" : claim > 0 ? "claim" : null;
  if (!kind) return null;
  const names = raw.slice(1).filter((w) => /^\p{Lu}/u.test(w)).length;
  const content = new Set(tokenize(text, lang)).size;
  let score = figure + offering + claim + Math.min(names * 0.3, 1.5) + Math.min(content, 15) / 10;
  if (DEPENDENT_OPENERS.has(words[0])) score -= 1;
  return { kind, score };
}

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared || 1);
}

interface Candidate extends Fact {
  score: number;
  order: number;
}

/** Best first; near-duplicates (≥ 80% shared terms, e.g. the same sentence in overlapping chunks) kept once. */
function selectFacts(candidates: Candidate[], max: number, lang: string): Fact[] {
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  const perKind = Math.ceil(max / 2);
  const kept: { fact: Candidate; terms: Set<string> }[] = [];
  const counts: Record<FactKind, number> = { offering: 0, figure: 0, claim: 0 };
  const deferred: Candidate[] = [];
  const take = (c: Candidate, terms: Set<string>) => {
    kept.push({ fact: c, terms });
    counts[c.kind]++;
  };
  for (const c of candidates) {
    if (kept.length >= max) break;
    const terms = new Set(tokenize(c.fact, lang));
    if (kept.some((k) => jaccard(k.terms, terms) >= 0.8)) continue;
    if (counts[c.kind] >= perKind) deferred.push(c);
    else take(c, terms);
  }
  for (const c of deferred) {
    if (kept.length >= max) break;
    const terms = new Set(tokenize(c.fact, lang));
    if (!kept.some((k) => jaccard(k.terms, terms) >= 0.8)) take(c, terms);
  }
  return kept
    .map((k) => k.fact)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ fact, kind, chunkId, sourceUrl }) => ({ fact, kind, chunkId, sourceUrl }));
}

function sentenceCandidates(chunks: readonly FactSourceChunk[], lang: string): Candidate[] {
  const out: Candidate[] = [];
  for (const chunk of chunks) {
    for (const sentence of sentencesOf(chunk.text, lang)) {
      const scored = classifySentence(sentence, lang);
      if (scored) out.push({ fact: sentence.replace(/\s+/g, " "), kind: scored.kind, chunkId: chunk.id, sourceUrl: chunk.documentUrl, score: scored.score, order: out.length });
    }
  }
  return out;
}

/** Offline fact sheet: sentence heuristics over the chunks, de-duplicated, ranked by informativeness, capped. */
export function buildFactSheet(chunks: readonly FactSourceChunk[], options: FactSheetOptions = {}): Fact[] {
  const lang = options.lang ?? "en";
  return selectFacts(sentenceCandidates(chunks, lang), options.max ?? DEFAULT_MAX_FACTS, lang);
}
