/**
 * Applying an update specification to one document. mingo's updater performs
 * the operators (including `$[]` and `$[id]` with arrayFilters); this module
 * adds what it lacks: MongoDB's validation and error codes, $setOnInsert,
 * the query-positional `$`, replacement and pipeline updates, upsert seeds,
 * and the immutable _id rule.
 */
import { ObjectId, Timestamp } from "bson";
import { Query } from "mingo";
import { createUpdater, UpdateExpression } from "mingo/updater";
import { badValue, CommandError, failedToParse, typeMismatch } from "./errors";
import { runPipeline } from "./query";
import { cloneValue, Doc, formatValue, getPath, isPlainObject, setPath, typeRank, valuesEqual } from "./values";

/** Argument values are fresh from the request and stored documents are never mutated in place, so no cloning. */
const mingoUpdate = createUpdater({ cloneMode: "none" });

const OPERATORS = new Set([
  "$set",
  "$unset",
  "$inc",
  "$mul",
  "$min",
  "$max",
  "$push",
  "$addToSet",
  "$pull",
  "$pullAll",
  "$pop",
  "$rename",
  "$setOnInsert",
  "$currentDate",
  "$bit",
]);
const ARRAY_OPS = new Set(["$push", "$addToSet", "$pull", "$pullAll", "$pop"]);
const PIPELINE_STAGES = new Set(["$addFields", "$set", "$project", "$unset", "$replaceRoot", "$replaceWith"]);

export const immutableId = () =>
  new CommandError(66, "ImmutableField", "Performing an update on the path '_id' would modify the immutable field '_id'");

export interface UpdateContext {
  filter: Doc;
  arrayFilters?: Doc[];
  /** True while building an upserted document: $setOnInsert applies. */
  inserting: boolean;
  variables?: Doc;
}

export function isOperatorUpdate(u: Doc): boolean {
  const keys = Object.keys(u);
  return keys.length > 0 && keys[0].startsWith("$");
}

/** Checks the update's shape before any document is touched (as MongoDB parses it up front). */
export function validateUpdate(u: unknown): void {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
      if (!name || !PIPELINE_STAGES.has(name))
        throw new CommandError(72, "InvalidOptions", `${name ?? "stage"} is not allowed to be used within an update`);
    }
    return;
  }
  if (!isPlainObject(u)) throw failedToParse("Update argument must be either an object or an array");
  if (!isOperatorUpdate(u)) {
    for (const k of Object.keys(u))
      if (k.startsWith("$"))
        throw new CommandError(52, "DollarPrefixedFieldName", `The dollar ($) prefixed field '${k}' in '${k}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`);
    return;
  }
  const seen: string[] = [];
  for (const [op, args] of Object.entries(u)) {
    if (!OPERATORS.has(op))
      throw failedToParse(`Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`);
    if (!isPlainObject(args))
      throw failedToParse(`Modifiers operate on fields but we found type ${Array.isArray(args) ? "array" : typeof args} instead. For example: {$mod: {<field>: ...}} not {${op}: ${formatValue(args)}}`);
    for (const [path, arg] of Object.entries(args)) {
      if ((op === "$inc" || op === "$mul") && typeRank(arg) !== 3)
        throw typeMismatch(`Cannot ${op === "$inc" ? "increment" : "multiply"} with non-numeric argument: {${path}: ${formatValue(arg)}}`);
      const paths = op === "$rename" ? [path, String(arg)] : [path];
      for (const p of paths) {
        const norm = p.replace(/\.\$(\[[^\]]*\])?/g, "");
        for (const other of seen)
          if (other === norm || other.startsWith(norm + ".") || norm.startsWith(other + "."))
            throw new CommandError(40, "ConflictingUpdateOperators", `Updating the path '${p}' would create a conflict at '${norm.length < other.length ? norm : other}'`);
        seen.push(norm);
      }
    }
  }
}

/** Resolves the query-positional `$` of `path` against the filter that matched `doc`. */
function resolvePositional(path: string, doc: Doc, filter: Doc): string {
  const i = path.indexOf(".$");
  if (i < 0 || path[i + 2] === "[") return path;
  if (i + 2 < path.length && path[i + 2] !== ".") return path;
  const arrayPath = path.slice(0, i);
  const arr = getPath(doc, arrayPath);
  const notFound = () => badValue("The positional operator did not find the match needed from the query.");
  if (!Array.isArray(arr)) throw notFound();
  for (const [k, cond] of Object.entries(flattenAnd(filter))) {
    let test: ((e: unknown) => boolean) | undefined;
    if (k === arrayPath) {
      const q = isPlainObject(cond) && "$elemMatch" in cond ? new Query(cond.$elemMatch as Doc) : new Query({ v: cond });
      test = isPlainObject(cond) && "$elemMatch" in cond ? (e) => isPlainObject(e) && q.test(e) : (e) => q.test({ v: e });
    } else if (k.startsWith(arrayPath + ".")) {
      const q = new Query({ [k.slice(arrayPath.length + 1)]: cond });
      test = (e) => isPlainObject(e) && q.test(e);
    }
    if (!test) continue;
    const idx = arr.findIndex(test);
    if (idx >= 0) return arrayPath + "." + idx + path.slice(i + 2);
  }
  throw notFound();
}

function flattenAnd(filter: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k === "$and" && Array.isArray(v)) Object.assign(out, ...v.filter(isPlainObject).map(flattenAnd));
    else if (!k.startsWith("$")) out[k] = v;
  }
  return out;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "double";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "array";
  if (v instanceof Date) return "date";
  const t = (v as { _bsontype?: string })._bsontype;
  return t ? t.toLowerCase() : "object";
}

function checkTargets(op: string, args: Doc, doc: Doc): void {
  for (const path of Object.keys(args)) {
    if (path.includes("$")) continue;
    const cur = getPath(doc, path);
    if (cur === undefined) continue;
    if ((op === "$inc" || op === "$mul") && typeRank(cur) !== 3)
      throw typeMismatch(`Cannot apply ${op} to a value of non-numeric type. {_id: ${formatValue(doc._id)}} has the field '${path.split(".").pop()}' of non-numeric type ${typeName(cur)}`);
    if (ARRAY_OPS.has(op) && !Array.isArray(cur)) {
      if (op === "$pull" || op === "$pullAll") throw badValue("Cannot apply $pull to a non-array value");
      if (op === "$pop") throw typeMismatch(`Path '${path}' contains an element of non-array type '${typeName(cur)}'`);
      throw badValue(`The field '${path}' must be an array but is of type ${typeName(cur)} in document {_id: ${formatValue(doc._id)}}`);
    }
  }
}

/** Operators performed as a $set of computed values. */
const SET_LIKE: Record<string, string> = { $setOnInsert: "$set", $currentDate: "$set" };

/** mingo's $currentDate stores epoch milliseconds; MongoDB stores a Date (or a Timestamp on request). */
function currentDates(args: Doc): Doc {
  const out: Doc = {};
  const now = new Date();
  for (const [path, spec] of Object.entries(args)) {
    if (isPlainObject(spec) && spec.$type === "timestamp") out[path] = new Timestamp({ t: Math.floor(now.getTime() / 1000), i: 1 });
    else if (spec === true || (isPlainObject(spec) && spec.$type === "date")) out[path] = now;
    else throw badValue(`${formatValue(spec)} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`);
  }
  return out;
}

/** Returns the updated document (a new object; `doc` is left untouched). */
export function applyUpdate(doc: Doc, u: Doc | Doc[], ctx: UpdateContext): Doc {
  let out: Doc;
  if (Array.isArray(u)) {
    out = runPipeline([cloneValue(doc)], u, ctx.variables ? { variables: ctx.variables } : {})[0] ?? {};
  } else if (!isOperatorUpdate(u)) {
    out = cloneValue(u);
    if ("_id" in out && doc._id !== undefined && !valuesEqual(out._id, doc._id)) throw immutableId();
    if (doc._id !== undefined) out = { _id: doc._id, ...out };
  } else {
    out = cloneValue(doc);
    for (const [op, rawArgs] of Object.entries(u)) {
      if (op === "$setOnInsert" && !ctx.inserting) continue;
      const args: Doc = {};
      for (const [p, v] of Object.entries(rawArgs as Doc)) args[resolvePositional(p, out, ctx.filter)] = v;
      checkTargets(op, args, out);
      try {
        mingoUpdate(out, { [SET_LIKE[op] ?? op]: op === "$currentDate" ? currentDates(args) : args } as unknown as UpdateExpression, ctx.arrayFilters ?? []);
      } catch (e) {
        throw badValue(e instanceof Error ? e.message : String(e));
      }
    }
  }
  if (doc._id !== undefined && !valuesEqual(out._id, doc._id)) throw immutableId();
  return withIdFirst(out);
}

/** MongoDB stores _id as the first field. */
export function withIdFirst(doc: Doc): Doc {
  if (doc._id === undefined) doc = { _id: new ObjectId(), ...doc };
  else if (Object.keys(doc)[0] !== "_id") {
    const { _id, ...rest } = doc;
    doc = { _id, ...rest };
  }
  if (Array.isArray(doc._id)) throw new CommandError(53, "InvalidIdField", "The '_id' value cannot be of type array");
  return doc;
}

/** The document an upsert starts from: the filter's equality fields. */
export function upsertSeed(filter: Doc): Doc {
  const seed: Doc = {};
  const visit = (f: Doc) => {
    for (const [k, v] of Object.entries(f)) {
      if (k === "$and" && Array.isArray(v)) v.filter(isPlainObject).forEach(visit);
      if (k.startsWith("$")) continue;
      if (isPlainObject(v) && Object.keys(v).some((o) => o.startsWith("$"))) {
        if ("$eq" in v) setPath(seed, k, cloneValue(v.$eq));
      } else setPath(seed, k, cloneValue(v));
    }
  };
  visit(filter);
  return seed;
}

/** Builds the document an upsert inserts. */
export function upsertDocument(filter: Doc, u: Doc | Doc[], ctx: Omit<UpdateContext, "inserting">): Doc {
  const seed = upsertSeed(filter);
  if (!Array.isArray(u) && !isOperatorUpdate(u)) {
    const doc = cloneValue(u);
    if (doc._id === undefined && seed._id !== undefined) return withIdFirst({ _id: seed._id, ...doc });
    return withIdFirst(doc);
  }
  const updated = applyUpdate(seed, u, { ...ctx, inserting: true });
  if (seed._id !== undefined && !valuesEqual(updated._id, seed._id)) throw immutableId();
  return updated;
}
