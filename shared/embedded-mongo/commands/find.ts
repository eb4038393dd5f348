import { matching, project, sortDocs } from "../query";
import type { Doc } from "../values";
import { collectionName, Handler, nonNegative, optionalDoc, optionalNumber } from "./context";

export const find: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "find");
  const ns = `${db}.${name}`;
  const filter = optionalDoc(cmd, "filter") ?? {};
  const sort = optionalDoc(cmd, "sort");
  const projection = optionalDoc(cmd, "projection");
  const skip = nonNegative(cmd, "skip") ?? 0;
  const rawLimit = optionalNumber(cmd, "limit") ?? 0;
  const batchSize = nonNegative(cmd, "batchSize");
  // A negative limit is the legacy "single batch of |limit|".
  const single = cmd.singleBatch === true || rawLimit < 0;
  const limit = Math.abs(rawLimit);
  const coll = ctx.store.collection(db, name);
  const sorted = sort && Object.keys(sort).length > 0;
  let docs: Doc[] = coll ? matching(coll, filter, optionalDoc(cmd, "let"), sorted || !limit ? undefined : skip + limit) : [];
  if (sorted) sortDocs(docs, sort);
  if (skip || limit) docs = docs.slice(skip, limit ? skip + limit : undefined);
  docs = project(docs, projection, filter);
  return ctx.cursors.first(ns, docs, batchSize, single);
};

export const getMore: Handler = (cmd, db, ctx) =>
  ctx.cursors.getMore(cmd.getMore, `${db}.${collectionName(cmd, "collection")}`, nonNegative(cmd, "batchSize"));

export const killCursors: Handler = (cmd, _db, ctx) => {
  collectionName(cmd, "killCursors");
  return ctx.cursors.kill(Array.isArray(cmd.cursors) ? cmd.cursors : []);
};
