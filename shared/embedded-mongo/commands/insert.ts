import { CommandError, toCommandError } from "../errors";
import { withIdFirst } from "../update";
import { Doc, isPlainObject } from "../values";
import { collectionName, Handler } from "./context";

export const insert: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "insert");
  const docs = cmd.documents;
  if (!Array.isArray(docs)) throw new CommandError(40414, "Location40414", "BSON field 'insert.documents' is missing but a required field");
  const ordered = cmd.ordered !== false;
  const coll = ctx.store.ensure(db, name);
  const writeErrors: Doc[] = [];
  let n = 0;
  for (let i = 0; i < docs.length; i++) {
    try {
      if (!isPlainObject(docs[i])) throw new CommandError(2, "BadValue", "document to insert must be an object");
      coll.insert(withIdFirst(docs[i] as Doc));
      n++;
    } catch (e) {
      writeErrors.push(toCommandError(e).toWriteError(i));
      if (ordered) break;
    }
  }
  return writeErrors.length ? { n, writeErrors, ok: 1 } : { n, ok: 1 };
};
