import { CommandError, failedToParse, nsNotFound } from "../errors";
import { ID_INDEX, IndexSpec } from "../store";
import { Doc, encodeKey, formatValue, isPlainObject } from "../values";
import { collectionName, Handler } from "./context";

const KEY_TYPES = new Set(["text", "2d", "2dsphere", "hashed", "geoHaystack"]);
/** Fields that never distinguish two index definitions. */
const IGNORED = new Set(["v", "key", "name", "ns", "background"]);

function normalize(raw: unknown): IndexSpec {
  if (!isPlainObject(raw)) throw failedToParse("index specification must be an object");
  const { key, name } = raw;
  if (!isPlainObject(key) || !Object.keys(key).length) throw new CommandError(67, "CannotCreateIndex", "Index keys cannot be empty.");
  for (const [f, d] of Object.entries(key))
    if (!(typeof d === "number" && d !== 0) && !KEY_TYPES.has(String(d)))
      throw new CommandError(67, "CannotCreateIndex", `Values in the index key pattern can only be numbers or strings, found: ${f}: ${formatValue(d)}`);
  if (typeof name !== "string" || !name) throw failedToParse("The index name must be a non-empty string");
  if ("expireAfterSeconds" in raw && (typeof raw.expireAfterSeconds !== "number" || raw.expireAfterSeconds < 0))
    throw new CommandError(67, "CannotCreateIndex", "TTL index 'expireAfterSeconds' option must be a non-negative number");
  const spec: IndexSpec = { v: 2, key, name };
  for (const [k, v] of Object.entries(raw)) {
    if (IGNORED.has(k)) continue;
    if ((k === "unique" || k === "sparse") && v !== true) continue;
    spec[k] = v;
  }
  return spec;
}

const optionsKey = (spec: IndexSpec): string =>
  encodeKey(Object.fromEntries(Object.keys(spec).filter((k) => !IGNORED.has(k)).sort().map((k) => [k, spec[k]])));

const show = (s: IndexSpec) => formatValue(s);

export const createIndexes: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "createIndexes");
  if (!Array.isArray(cmd.indexes) || !cmd.indexes.length) throw failedToParse("Must specify at least one index to create");
  const specs = cmd.indexes.map(normalize);
  const existed = ctx.store.collection(db, name) !== undefined;
  const coll = ctx.store.ensure(db, name);
  const before = coll.allIndexSpecs().length;
  const created: string[] = [];
  try {
    for (const spec of specs) {
      const existing = coll.allIndexSpecs();
      const sameName = existing.find((e) => e.name === spec.name);
      const sameKey = encodeKey(spec.key);
      if (sameName) {
        if (encodeKey(sameName.key) !== sameKey)
          throw new CommandError(86, "IndexKeySpecsConflict", `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${show(spec)}, existing index: ${show(sameName)}`);
        if (sameName !== ID_INDEX && optionsKey(sameName) !== optionsKey(spec))
          throw new CommandError(85, "IndexOptionsConflict", `An equivalent index already exists with the same name but different options. Requested index: ${show(spec)}, existing index: ${show(sameName)}`);
        continue;
      }
      const sameShape = existing.find(
        (e) => encodeKey(e.key) === sameKey && encodeKey(e.partialFilterExpression) === encodeKey(spec.partialFilterExpression),
      );
      if (sameShape) throw new CommandError(85, "IndexOptionsConflict", `Index already exists with a different name: ${sameShape.name}`);
      coll.addIndex(spec);
      created.push(spec.name);
    }
  } catch (e) {
    // createIndexes is all-or-nothing.
    for (const n of created) coll.dropIndex(n);
    if (!existed && !coll.size) ctx.store.drop(db, name);
    throw e;
  }
  const after = coll.allIndexSpecs().length;
  const reply: Doc = { numIndexesBefore: before, numIndexesAfter: after, createdCollectionAutomatically: !existed };
  if (before === after) reply.note = "all indexes already exist";
  reply.ok = 1;
  return reply;
};

export const listIndexes: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "listIndexes");
  const coll = ctx.store.collection(db, name);
  if (!coll) throw nsNotFound(`ns does not exist: ${db}.${name}`);
  const batchSize = isPlainObject(cmd.cursor) && typeof cmd.cursor.batchSize === "number" ? cmd.cursor.batchSize : undefined;
  return ctx.cursors.first(`${db}.${name}`, coll.allIndexSpecs().map((s) => ({ ...s })), batchSize, false);
};

export const dropIndexes: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, Object.keys(cmd)[0]);
  const coll = ctx.store.collection(db, name);
  if (!coll) throw nsNotFound(`ns not found ${db}.${name}`);
  const was = coll.allIndexSpecs().length;
  const target = cmd.index;
  const notFound = (what: string) => new CommandError(27, "IndexNotFound", what);
  const cannotDropId = () => new CommandError(72, "InvalidOptions", "cannot drop _id index");
  let names: string[];
  if (target === "*") names = coll.indexes.map((i) => i.spec.name);
  else if (typeof target === "string") names = [target];
  else if (Array.isArray(target)) names = target.map(String);
  else if (isPlainObject(target)) {
    const match = coll.allIndexSpecs().filter((s) => encodeKey(s.key) === encodeKey(target));
    if (!match.length) throw notFound(`can't find index with key: ${formatValue(target)}`);
    names = [match[0].name];
  } else throw new CommandError(14, "TypeMismatch", "invalid index argument");
  for (const n of names) {
    if (n === "_id_") throw cannotDropId();
    if (!coll.indexes.some((i) => i.spec.name === n)) throw notFound(`index not found with name [${n}]`);
  }
  for (const n of names) coll.dropIndex(n);
  return target === "*" ? { nIndexesWas: was, msg: "non-_id indexes dropped for collection", ok: 1 } : { nIndexesWas: was, ok: 1 };
};
