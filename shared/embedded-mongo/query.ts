/**
 * Reading documents: index selection for equality predicates (mingo only
 * scans), then mingo for the full filter semantics, MongoDB's cross-type sort
 * order, and find-style projection through mingo.
 */
import "mingo/init/system";
import { Aggregator, Context, Query } from "mingo";
import type { Options } from "mingo/core";
import type { Iterator } from "mingo/lazy";
import { badValue } from "./errors";
import type { Collection } from "./store";
import { compareValues, Doc, EMPTY_ARRAY, encodeKey, isPlainObject, pathValues } from "./values";

/** A value usable as an exact index key: null, arrays and regexes match more than their own key. */
function indexable(v: unknown): boolean {
  if (v === null || v === undefined || Array.isArray(v) || v instanceof RegExp) return false;
  if (typeof v !== "object") return true;
  const t = (v as { _bsontype?: string })._bsontype;
  if (t === "BSONRegExp") return false;
  return t !== undefined || !Object.keys(v).some((k) => k.startsWith("$"));
}

/** field -> alternative values any match must hold there (from equality and $in). */
function equalities(filter: Doc, out = new Map<string, unknown[]>()): Map<string, unknown[]> {
  for (const [k, v] of Object.entries(filter)) {
    if (k === "$and" && Array.isArray(v)) {
      for (const sub of v) if (isPlainObject(sub)) equalities(sub, out);
      continue;
    }
    if (k.startsWith("$")) continue;
    if (isPlainObject(v) && Object.keys(v).some((o) => o.startsWith("$"))) {
      if ("$eq" in v && indexable(v.$eq)) out.set(k, [v.$eq]);
      else if (Array.isArray(v.$in) && v.$in.length && v.$in.every(indexable)) out.set(k, v.$in);
    } else if (indexable(v)) out.set(k, [v]);
  }
  return out;
}

const MAX_LOOKUPS = 1000;

/**
 * Candidate documents for a filter, narrowed through the _id map or the
 * secondary index with the longest fully-constrained key prefix; null = scan.
 */
export function candidates(coll: Collection, filter: Doc): Doc[] | null {
  const eq = equalities(filter);
  if (!eq.size) return null;
  const ids = eq.get("_id");
  if (ids) {
    const out: Doc[] = [];
    for (const id of ids) {
      const d = coll.getById(id);
      if (d && !out.includes(d)) out.push(d);
    }
    return out;
  }
  let best: Set<string> | null = null;
  for (const ix of coll.indexes) {
    if (!ix.plannable) continue;
    const prefix: unknown[][] = [];
    let combos = 1;
    for (const f of ix.fields) {
      const alts = eq.get(f);
      if (!alts || combos * alts.length > MAX_LOOKUPS) break;
      prefix.push(alts);
      combos *= alts.length;
    }
    if (!prefix.length) continue;
    const keys = new Set<string>();
    let tuples: unknown[][] = [[]];
    for (const alts of prefix) tuples = tuples.flatMap((t) => alts.map((a) => [...t, a]));
    for (const t of tuples) for (const k of ix.lookup(t) ?? []) keys.add(k);
    if (!best || keys.size < best.size) best = keys;
    if (!best.size) break;
  }
  return best ? coll.docsForKeys(best) : null;
}

function mingoMatcher(filter: Doc, variables?: Doc): (doc: Doc) => boolean {
  try {
    const q = new Query(filter, variables ? { variables } : undefined);
    return (doc) => q.test(doc);
  } catch (e) {
    throw badValue(e instanceof Error ? e.message : String(e));
  }
}

/**
 * A matcher for filters made only of exact field equalities, the per-request
 * hot path. Hand-written because constructing a mingo Query copies its whole
 * operator table (tens of microseconds); for such filters MongoDB's rule is
 * simply "some value at the path equals the operand", which encodeKey decides.
 */
function equalityMatcher(filter: Doc): ((doc: Doc) => boolean) | null {
  const pairs: [string[], string][] = [];
  for (const [k, v] of Object.entries(filter)) {
    if (k.startsWith("$")) return null;
    const operand = isPlainObject(v) && Object.keys(v).length === 1 && "$eq" in v ? v.$eq : v;
    if (!indexable(operand)) return null;
    pairs.push([k.split("."), encodeKey(operand)]);
  }
  return (doc) => pairs.every(([path, key]) => pathValues(doc, path).some((v) => encodeKey(v) === key));
}

/** Documents matching `filter`, in natural order; stops after `max` when given. */
export function matching(coll: Collection, filter: Doc, variables?: Doc, max = Infinity): Doc[] {
  const pool = candidates(coll, filter);
  const test = Object.keys(filter).length ? (equalityMatcher(filter) ?? mingoMatcher(filter, variables)) : null;
  const out: Doc[] = [];
  for (const d of pool ?? coll.docs()) {
    if (out.length >= max) break;
    if (!test || test(d)) out.push(d);
  }
  return out;
}

/** The value a document sorts by: arrays by their smallest (ascending) or largest (descending) element. */
function sortKey(doc: Doc, path: string, dir: number): unknown {
  const vals = pathValues(doc, path);
  if (!vals.length) return null;
  let best: unknown = vals[0] === undefined ? null : vals[0];
  for (let i = 1; i < vals.length; i++) {
    const v = vals[i] === undefined ? null : vals[i];
    const c = compareValues(v, best);
    if ((dir > 0 && c < 0) || (dir < 0 && c > 0)) best = v;
  }
  return best === EMPTY_ARRAY && dir < 0 ? EMPTY_ARRAY : best;
}

/** Stable in-place sort by a MongoDB sort specification. */
export function sortDocs<T extends Doc>(docs: T[], spec: Doc): T[] {
  const fields = Object.entries(spec)
    .filter(([, d]) => typeof d === "number" || typeof d === "string" || typeof d === "bigint")
    .map(([f, d]) => {
      const dir = Number(d);
      if (dir !== 1 && dir !== -1) throw badValue(`$sort key ordering must be 1 (for ascending) or -1 (for descending)`);
      return [f, dir] as const;
    });
  if (!fields.length || docs.length < 2) return docs;
  const keyed = docs.map((d) => ({ d, k: fields.map(([f, dir]) => sortKey(d, f, dir)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const c = compareValues(a.k[i], b.k[i]);
      if (c) return c * fields[i][1];
    }
    return 0;
  });
  keyed.forEach((e, i) => (docs[i] = e.d));
  return docs;
}

/** mingo's $sort uses its own type order; this one follows MongoDB's. */
const bsonSort = (collection: Iterator, spec: unknown): Iterator => collection.transform((coll) => sortDocs(coll as Doc[], spec as Doc));

const context = Context.init({ pipeline: { $sort: bsonSort } });

export function runPipeline(docs: Doc[], pipeline: Doc[], extra: Partial<Options> = {}): Doc[] {
  try {
    return new Aggregator(pipeline, { context, ...extra }).run(docs) as Doc[];
  } catch (e) {
    throw badValue(e instanceof Error ? e.message : String(e));
  }
}

/** mingo's projection emits _id last; MongoDB keeps it first. */
function idFirst(doc: Doc): Doc {
  if (!("_id" in doc) || Object.keys(doc)[0] === "_id") return doc;
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/** Applies a find/findAndModify projection (mingo implements $slice, $elemMatch and positional forms). */
export function project(docs: Doc[], projection: Doc | undefined, filter: Doc): Doc[] {
  if (!projection || !Object.keys(projection).length) return docs;
  const positional = Object.keys(projection).some((k) => k.endsWith(".$"));
  try {
    return new Query(positional ? filter : {}).find<Doc>(docs, projection).all().map(idFirst);
  } catch (e) {
    throw badValue(e instanceof Error ? e.message : String(e));
  }
}
