import { CommandError, failedToParse, toCommandError } from "../errors";
import { matching } from "../query";
import { Doc, isPlainObject } from "../values";
import { collectionName, Handler, optionalDoc } from "./context";

export const del: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "delete");
  const deletes = cmd.deletes;
  if (!Array.isArray(deletes)) throw new CommandError(40414, "Location40414", "BSON field 'delete.deletes' is missing but a required field");
  const ordered = cmd.ordered !== false;
  const variables = optionalDoc(cmd, "let");
  const coll = ctx.store.collection(db, name);
  let n = 0;
  const writeErrors: Doc[] = [];
  for (let i = 0; i < deletes.length; i++) {
    try {
      const stmt = deletes[i];
      if (!isPlainObject(stmt)) throw failedToParse("delete statement must be an object");
      const limit = Number(stmt.limit ?? 0);
      if (limit !== 0 && limit !== 1) throw failedToParse(`The limit field in delete objects must be 0 or 1. Got ${limit}`);
      if (!coll) continue;
      for (const doc of matching(coll, optionalDoc(stmt, "q") ?? {}, variables, limit || undefined)) if (coll.remove(doc._id)) n++;
    } catch (e) {
      writeErrors.push(toCommandError(e).toWriteError(i));
      if (ordered) break;
    }
  }
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};
