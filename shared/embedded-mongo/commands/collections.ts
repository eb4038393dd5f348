import { Query } from "mingo";
import { CommandError, failedToParse } from "../errors";
import { ID_INDEX } from "../store";
import { Doc, isPlainObject } from "../values";
import { collectionName, Handler, optionalDoc } from "./context";

/** Generic command fields that are not collection options. */
const NOT_OPTIONS = new Set(["create", "writeConcern", "lsid", "$db", "$readPreference", "comment", "txnNumber", "$clusterTime"]);

export const create: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "create");
  if ("viewOn" in cmd) throw failedToParse("views are not supported by the embedded server");
  if (ctx.store.collection(db, name)) throw new CommandError(48, "NamespaceExists", `Collection ${db}.${name} already exists.`);
  const options: Doc = {};
  for (const [k, v] of Object.entries(cmd)) if (!NOT_OPTIONS.has(k)) options[k] = v;
  ctx.store.create(db, name, options);
  return { ok: 1 };
};

export const drop: Handler = (cmd, db, ctx) => {
  const name = collectionName(cmd, "drop");
  const coll = ctx.store.collection(db, name);
  if (!coll) return { ok: 1 };
  const nIndexesWas = coll.allIndexSpecs().length;
  ctx.store.drop(db, name);
  return { nIndexesWas, ns: `${db}.${name}`, ok: 1 };
};

export const listCollections: Handler = (cmd, db, ctx) => {
  const filter = optionalDoc(cmd, "filter");
  const nameOnly = cmd.nameOnly === true;
  let entries: Doc[] = ctx.store.collections(db).map((c) => ({
    name: c.name,
    type: "collection",
    options: c.options,
    info: { readOnly: false, uuid: c.uuid },
    idIndex: ID_INDEX,
  }));
  if (filter && Object.keys(filter).length) {
    const q = new Query(filter);
    entries = entries.filter((e) => q.test(e));
  }
  if (nameOnly) entries = entries.map((e) => ({ name: e.name, type: e.type }));
  const batchSize = isPlainObject(cmd.cursor) && typeof cmd.cursor.batchSize === "number" ? cmd.cursor.batchSize : undefined;
  return ctx.cursors.first(`${db}.$cmd.listCollections`, entries, batchSize, false);
};

export const listDatabases: Handler = (cmd, _db, ctx) => {
  const filter = optionalDoc(cmd, "filter");
  let dbs: Doc[] = [...ctx.store.dbs.keys()].map((name) => ({ name, sizeOnDisk: 0, empty: false }));
  if (filter && Object.keys(filter).length) {
    const q = new Query(filter);
    dbs = dbs.filter((d) => q.test(d));
  }
  if (cmd.nameOnly === true) return { databases: dbs.map((d) => ({ name: d.name })), ok: 1 };
  return { databases: dbs, totalSize: 0, totalSizeMb: 0, ok: 1 };
};

export const dropDatabase: Handler = (_cmd, db, ctx) => {
  ctx.store.dropDatabase(db);
  return { dropped: db, ok: 1 };
};
