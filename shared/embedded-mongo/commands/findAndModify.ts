import { failedToParse } from "../errors";
import { matching, project, sortDocs } from "../query";
import { applyUpdate, upsertDocument, validateUpdate } from "../update";
import { Doc, valuesEqual } from "../values";
import { collectionName, Handler, optionalDoc } from "./context";

export const findAndModify: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, Object.keys(cmd)[0]);
  const query = optionalDoc(cmd, "query") ?? {};
  const sort = optionalDoc(cmd, "sort");
  const fields = optionalDoc(cmd, "fields");
  const variables = optionalDoc(cmd, "let");
  const remove = cmd.remove === true;
  const u = cmd.update as Doc | Doc[] | undefined;
  const upsert = cmd.upsert === true;
  const returnNew = cmd.new === true;
  const arrayFilters = Array.isArray(cmd.arrayFilters) ? (cmd.arrayFilters as Doc[]) : undefined;
  if (remove && u !== undefined) throw failedToParse("Cannot specify both an update and remove=true");
  if (!remove && u === undefined) throw failedToParse("Either an update or remove=true must be specified");
  if (remove && upsert) throw failedToParse("Cannot specify both upsert=true and remove=true ");
  if (remove && returnNew) throw failedToParse("Cannot specify both new=true and remove=true; 'remove' always returns the deleted document");
  if (u !== undefined) validateUpdate(u);

  const coll = ctx.store.collection(db, name);
  const sorted = sort && Object.keys(sort).length > 0;
  let found: Doc[] = coll ? matching(coll, query, variables, sorted ? undefined : 1) : [];
  if (sorted) found = sortDocs(found, sort);
  const target = found[0];
  const shape = (d: Doc | null) => (d ? project([d], fields, query)[0] : null);

  if (remove) {
    if (!target) return { lastErrorObject: { n: 0 }, value: null, ok: 1 };
    coll!.remove(target._id);
    return { lastErrorObject: { n: 1 }, value: shape(target), ok: 1 };
  }
  if (target) {
    const next = applyUpdate(target, u!, { filter: query, arrayFilters, inserting: false, variables });
    if (!valuesEqual(next, target)) coll!.replace(next);
    return { lastErrorObject: { n: 1, updatedExisting: true }, value: shape(returnNew ? next : target), ok: 1 };
  }
  if (!upsert) return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  const doc = upsertDocument(query, u!, { filter: query, arrayFilters, variables });
  ctx.store.ensure(db, name).insert(doc);
  return { lastErrorObject: { n: 1, updatedExisting: false, upserted: doc._id }, value: returnNew ? shape(doc) : null, ok: 1 };
};
