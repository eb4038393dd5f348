import { badValue, CommandError, failedToParse } from "../errors";
import { matching, runPipeline } from "../query";
import type { Collection } from "../store";
import { Doc, EMPTY_ARRAY, encodeKey, isPlainObject, pathValues } from "../values";
import { collectionName, Handler, nonNegative, optionalDoc, optionalNumber } from "./context";

export const aggregate: Handler = (cmd, db, ctx) => {
  if (typeof cmd.aggregate !== "string")
    throw new CommandError(9, "FailedToParse", "{aggregate: 1} is not supported by the embedded server");
  const name = collectionName(cmd, "aggregate");
  const pipeline = cmd.pipeline;
  if (!Array.isArray(pipeline) || !pipeline.every(isPlainObject))
    throw new CommandError(14, "TypeMismatch", "'pipeline' option must be specified as an array");
  const cursor = optionalDoc(cmd, "cursor");
  if (!cursor && cmd.explain !== true) throw failedToParse("The 'cursor' option is required, except for aggregate with the explain argument");
  for (const stage of pipeline as Doc[]) {
    const op = Object.keys(stage)[0];
    if (op === "$out" || op === "$merge") throw badValue(`${op} is not supported by the embedded server`);
  }
  const variables = optionalDoc(cmd, "let");
  const coll = ctx.store.collection(db, name);
  // A leading $match goes through the index planner instead of a scan.
  const stages = pipeline as Doc[];
  const leading = stages[0] && isPlainObject(stages[0].$match) ? (stages[0].$match as Doc) : undefined;
  const source = coll ? (leading ? matching(coll, leading, variables) : [...coll.docs()]) : [];
  const docs = runPipeline(source, leading ? stages.slice(1) : stages, {
    collectionResolver: (other: string) => [...(ctx.store.collection(db, other)?.docs() ?? [])],
    ...(variables ? { variables } : {}),
  });
  return ctx.cursors.first(`${db}.${name}`, docs, nonNegative(cursor ?? {}, "batchSize"), false);
};

function filtered(coll: Collection | undefined, cmd: Doc): Doc[] {
  return coll ? matching(coll, optionalDoc(cmd, "query") ?? {}) : [];
}

export const count: Handler = (cmd, db, ctx) => {
  const docs = filtered(ctx.store.collection(db, collectionName(cmd, "count")), cmd);
  const skip = nonNegative(cmd, "skip") ?? 0;
  const limit = Math.abs(optionalNumber(cmd, "limit") ?? 0);
  const n = Math.max(0, docs.length - skip);
  return { n: limit ? Math.min(limit, n) : n, ok: 1 };
};

export const distinct: Handler = (cmd, db, ctx) => {
  const key = cmd.key;
  if (typeof key !== "string") throw new CommandError(40414, "Location40414", "BSON field 'distinct.key' is missing but a required field");
  const seen = new Set<string>();
  const values: unknown[] = [];
  for (const doc of filtered(ctx.store.collection(db, collectionName(cmd, "distinct")), cmd)) {
    for (const v of pathValues(doc, key)) {
      if (v === undefined || v === EMPTY_ARRAY) continue;
      const k = encodeKey(v);
      if (seen.has(k)) continue;
      seen.add(k);
      values.push(v);
    }
  }
  return { values, ok: 1 };
};
