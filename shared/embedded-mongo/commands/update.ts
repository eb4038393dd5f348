import { CommandError, failedToParse, toCommandError } from "../errors";
import { matching } from "../query";
import { applyUpdate, isOperatorUpdate, upsertDocument, validateUpdate } from "../update";
import { Doc, isPlainObject, valuesEqual } from "../values";
import { collectionName, CommandContext, Handler, optionalDoc } from "./context";

interface Outcome {
  n: number;
  nModified: number;
  upsertedId?: unknown;
}

function updateOne(stmt: Doc, db: string, name: string, ctx: CommandContext, variables: Doc | undefined): Outcome {
  const q = optionalDoc(stmt, "q") ?? {};
  const u = stmt.u as Doc | Doc[];
  validateUpdate(u);
  const multi = stmt.multi === true;
  if (multi && !Array.isArray(u) && !isOperatorUpdate(u)) throw failedToParse("multi update is not supported for replacement-style update");
  const arrayFilters = Array.isArray(stmt.arrayFilters) ? (stmt.arrayFilters as Doc[]) : undefined;
  const coll = ctx.store.collection(db, name);
  const docs = coll ? matching(coll, q, variables, multi ? undefined : 1) : [];
  if (!docs.length) {
    if (stmt.upsert !== true) return { n: 0, nModified: 0 };
    const doc = upsertDocument(q, u, { filter: q, arrayFilters, variables });
    ctx.store.ensure(db, name).insert(doc);
    return { n: 1, nModified: 0, upsertedId: doc._id };
  }
  let nModified = 0;
  for (const doc of docs) {
    const next = applyUpdate(doc, u, { filter: q, arrayFilters, inserting: false, variables });
    if (!valuesEqual(next, doc)) {
      coll!.replace(next);
      nModified++;
    }
  }
  return { n: docs.length, nModified };
}

export const update: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "update");
  const updates = cmd.updates;
  if (!Array.isArray(updates)) throw new CommandError(40414, "Location40414", "BSON field 'update.updates' is missing but a required field");
  const ordered = cmd.ordered !== false;
  const variables = optionalDoc(cmd, "let");
  let n = 0;
  let nModified = 0;
  const upserted: Doc[] = [];
  const writeErrors: Doc[] = [];
  for (let i = 0; i < updates.length; i++) {
    try {
      if (!isPlainObject(updates[i])) throw failedToParse("update statement must be an object");
      const r = updateOne(updates[i] as Doc, db, name, ctx, variables);
      n += r.n;
      nModified += r.nModified;
      if (r.upsertedId !== undefined) upserted.push({ index: i, _id: r.upsertedId });
    } catch (e) {
      writeErrors.push(toCommandError(e).toWriteError(i));
      if (ordered) break;
    }
  }
  const reply: Doc = { n, nModified };
  if (upserted.length) reply.upserted = upserted;
  if (writeErrors.length) reply.writeErrors = writeErrors;
  reply.ok = 1;
  return reply;
};
