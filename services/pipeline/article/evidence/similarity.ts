import { tokenize } from "../../../../shared/text/tokenize";

/**
 * Recently computed term sets. Stages compare the same sentences and quotes many times (every claim against
 * its quote, every sentence against the others); tokenizing is the costly part, so results are kept, up to
 * a bound, oldest dropped first.
 */
const TERM_CACHE_SIZE = 5000;
const termCache = new Map<string, ReadonlySet<string>>();

/** Content terms of a text (stopwords out, English stemmed), as a set: what overlap measures compare. Shared: do not modify. */
export function termSet(text: string, lang: string): ReadonlySet<string> {
  const key = `${lang}\u0000${text}`;
  let terms = termCache.get(key);
  if (!terms) {
    terms = new Set(tokenize(text, lang));
    termCache.set(key, terms);
    if (termCache.size > TERM_CACHE_SIZE) termCache.delete(termCache.keys().next().value!);
  }
  return terms;
}

/** |A ∩ B| / |A ∪ B|. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size && !b.size) return 1;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Share of A's terms that B has: 1 when everything A says in content words is in B. */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (!a.size) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / a.size;
}

/**
 * Two sentences say the same thing when their terms mostly coincide (Jaccard ≥ 0.6) or the shorter one is
 * nearly contained in the longer (≥ 0.85), the usual shape of a repeated claim with a clause added.
 */
export function nearDuplicate(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (!a.size || !b.size) return false;
  const [short, long] = a.size <= b.size ? [a, b] : [b, a];
  return jaccard(a, b) >= 0.6 || (short.size >= 4 && containment(short, long) >= 0.85);
}

/**
 * The figures of a text, normalised so that "38,000", "38 000" and "38000" compare equal: digits with
 * their decimal part, a percent sign kept as part of the figure.
 */
export function figuresOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const match of text.matchAll(/\d[\d,.\u00a0\u202f ]*\d%?|\d%?/g)) {
    const raw = match[0].replace(/[\u00a0\u202f ]/g, "");
    // A comma or dot followed by exactly three digits groups thousands; otherwise it is a decimal mark.
    const normalised = raw.replace(/[,.](?=\d{3}(?:\D|$))/g, "").replace(",", ".");
    out.add(normalised);
  }
  return out;
}
