/**
 * BSON value semantics that mingo does not provide the MongoDB way:
 * the cross-type comparison order (mingo ranks booleans before dates and all
 * BSON classes such as ObjectId last), canonical index keys (int 1 == double 1.0),
 * multikey path traversal, cloning that keeps BSON class instances, and the
 * shell-like value rendering MongoDB uses in E11000 messages.
 */
import { Binary, BSONRegExp, Decimal128, Long, ObjectId, Timestamp } from "bson";

export type Doc = Record<string, unknown>;

const isBsonType = (v: object, name: string): boolean => (v as { _bsontype?: string })._bsontype === name;

export function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** MongoDB's canonical type order; null and missing share a rank, an empty array sorts just below them. */
export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 2;
  switch (typeof v) {
    case "number":
    case "bigint":
      return 3;
    case "string":
      return 4;
    case "boolean":
      return 9;
    case "object":
      break;
    default:
      return 4;
  }
  if (Array.isArray(v)) return 6;
  if (v instanceof Date) return 10;
  if (v instanceof RegExp) return 12;
  const t = (v as { _bsontype?: string })._bsontype;
  switch (t) {
    case "MinKey":
      return 1;
    case "EmptyArray":
      return 1.5;
    case "MaxKey":
      return 13;
    case "Long":
    case "Int32":
    case "Double":
    case "Decimal128":
      return 3;
    case "BSONSymbol":
      return 4;
    case "Binary":
      return 7;
    case "ObjectId":
      return 8;
    case "Timestamp":
      return 11;
    case "BSONRegExp":
      return 12;
    default:
      return 5;
  }
}

function toNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  const t = (v as { _bsontype?: string })._bsontype;
  if (t === "Long") return (v as Long).toNumber();
  if (t === "Decimal128") return Number((v as Decimal128).toString());
  return Number((v as { valueOf(): number }).valueOf());
}

function cmpNum(a: number, b: number): number {
  // MongoDB orders NaN below every other number.
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Total order over BSON values as MongoDB compares them (no collation). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 1:
    case 2:
    case 13:
      return 0;
    case 3:
      return cmpNum(toNumber(a), toNumber(b));
    case 4:
      return cmpStr(String(a), String(b));
    case 5:
      return compareObjects(a as Doc, b as Doc);
    case 6: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c) return c;
      }
      return x.length - y.length;
    }
    case 7: {
      const x = a as Binary;
      const y = b as Binary;
      if (x.length() !== y.length()) return x.length() - y.length();
      if (x.sub_type !== y.sub_type) return x.sub_type - y.sub_type;
      return Buffer.compare(x.value(), y.value());
    }
    case 8:
      return cmpStr((a as ObjectId).toHexString(), (b as ObjectId).toHexString());
    case 9:
      return Number(a) - Number(b);
    case 10:
      return cmpNum((a as Date).getTime(), (b as Date).getTime());
    case 11: {
      const x = a as Timestamp;
      const y = b as Timestamp;
      return cmpNum(x.t, y.t) || cmpNum(x.i, y.i);
    }
    case 12: {
      const [pa, fa] = regexParts(a);
      const [pb, fb] = regexParts(b);
      return cmpStr(pa, pb) || cmpStr(fa, fb);
    }
    default:
      return 0;
  }
}

function regexParts(v: unknown): [string, string] {
  if (v instanceof RegExp) return [v.source, v.flags];
  const r = v as BSONRegExp;
  return [r.pattern, r.options];
}

function compareObjects(a: Doc, b: Doc): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
    const va = a[ka[i]];
    const vb = b[kb[i]];
    const c = typeRank(va) - typeRank(vb) || cmpStr(ka[i], kb[i]) || compareValues(va, vb);
    if (c) return c;
  }
  return ka.length - kb.length;
}

/**
 * All values a dotted path reaches, descending through arrays the way MongoDB
 * queries and multikey indexes do; a terminal array contributes its elements.
 * An empty result means the path is missing.
 */
export function pathValues(doc: unknown, path: string | string[], expandTerminal = true): unknown[] {
  const parts = typeof path === "string" ? path.split(".") : path;
  const out: unknown[] = [];
  collect(doc, parts, 0, out, expandTerminal);
  return out;
}

function collect(v: unknown, parts: string[], i: number, out: unknown[], expandTerminal: boolean): void {
  if (i === parts.length) {
    if (Array.isArray(v) && expandTerminal) {
      if (v.length === 0) out.push(EMPTY_ARRAY);
      else for (const e of v) out.push(e);
    } else out.push(v);
    return;
  }
  if (v === null || typeof v !== "object") return;
  if (Array.isArray(v)) {
    const idx = /^\d+$/.test(parts[i]) ? Number(parts[i]) : -1;
    if (idx >= 0 && idx < v.length) collect(v[idx], parts, i + 1, out, expandTerminal);
    for (const e of v) if (e !== null && typeof e === "object" && !Array.isArray(e)) collect(e, parts, i, out, expandTerminal);
    return;
  }
  if (!isPlainObject(v)) return;
  const next = v[parts[i]];
  if (next === undefined) return;
  collect(next, parts, i + 1, out, expandTerminal);
}

/** Marker for an empty array at an indexed path: MongoDB indexes it as its own key, below null. */
export const EMPTY_ARRAY = Object.freeze({ _bsontype: "EmptyArray" });

/**
 * Canonical string for index lookups: values MongoDB considers equal map to the
 * same string (int/long/double of the same value, any missing/null).
 */
export function encodeKey(v: unknown): string {
  if (v === undefined || v === null) return "z";
  switch (typeof v) {
    case "number":
      return "n" + (Object.is(v, -0) ? "0" : String(v));
    case "string":
      return "s" + v;
    case "boolean":
      return v ? "T" : "F";
    case "bigint":
      return "n" + v.toString();
    default:
      break;
  }
  if (v === EMPTY_ARRAY) return "e";
  if (v instanceof Date) return "d" + v.getTime();
  if (Array.isArray(v)) return "[" + v.map((e) => lp(encodeKey(e))).join("") + "]";
  if (v instanceof RegExp) return "r" + lp(v.source) + v.flags;
  const t = (v as { _bsontype?: string })._bsontype;
  switch (t) {
    case "ObjectId":
      return "o" + (v as ObjectId).toHexString();
    case "Long":
    case "Int32":
    case "Double": {
      const n = toNumber(v);
      return Number.isSafeInteger(n) || !Number.isInteger(n) ? "n" + String(n) : "n" + (v as Long).toString();
    }
    case "Decimal128":
      return "n" + Number((v as Decimal128).toString());
    case "Binary":
      return "b" + (v as Binary).sub_type + ":" + Buffer.from((v as Binary).value()).toString("base64");
    case "Timestamp":
      return "t" + (v as Timestamp).toString();
    case "MinKey":
      return "<";
    case "MaxKey":
      return ">";
    case undefined:
      break;
    default:
      return t + ":" + String(v);
  }
  const o = v as Doc;
  let s = "{";
  for (const k of Object.keys(o)) s += lp(k) + lp(encodeKey(o[k]));
  return s + "}";
}

/** Length-prefixes a component so concatenations stay unambiguous. */
export const lp = (s: string): string => s.length + ":" + s;

/** Deep copy of plain objects, arrays and Dates; BSON class instances are immutable and shared. */
export function cloneValue<T>(v: T): T {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(cloneValue) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (!isPlainObject(v)) return v;
  const out: Doc = {};
  for (const k of Object.keys(v)) out[k] = cloneValue((v as Doc)[k]);
  return out as T;
}

/** Structural equality including field order and BSON type family (as MongoDB compares stored documents). */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (typeRank(a) !== typeRank(b)) return false;
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !valuesEqual(a[ka[i]], b[kb[i]])) return false;
    return true;
  }
  return compareValues(a, b) === 0 && (typeof a !== "object" || a === null || Array.isArray(a) === Array.isArray(b));
}

/** Renders a value the way MongoDB prints it in error messages (e.g. `{ email: "a@b.c" }`). */
export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return "null";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (Array.isArray(v)) return `[ ${v.map(formatValue).join(", ")} ]`;
  if (v instanceof RegExp) return String(v);
  if (isBsonType(v as object, "ObjectId")) return `ObjectId('${(v as ObjectId).toHexString()}')`;
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    return keys.length ? `{ ${keys.map((k) => `${k}: ${formatValue(v[k])}`).join(", ")} }` : "{}";
  }
  return String(v);
}

export function getPath(doc: Doc, path: string): unknown {
  let cur: unknown = doc;
  for (const p of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Doc)[p];
  }
  return cur;
}

export function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split(".");
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = cur[parts[i]];
    if (next === null || typeof next !== "object") cur[parts[i]] = {};
    cur = cur[parts[i]] as Doc;
  }
  cur[parts[parts.length - 1]] = value;
}
