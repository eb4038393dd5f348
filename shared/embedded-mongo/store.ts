/**
 * The in-memory catalog: databases, collections, documents and secondary
 * indexes with unique enforcement. Every mutation is reported to `journal`
 * as its effect (the resulting document or the deleted _id), which is what
 * the write-ahead log persists. Stored documents are never mutated in place:
 * updates replace them, so cursors and snapshots can hold references.
 */
import { UUID } from "bson";
import { Query } from "mingo";
import { CommandError } from "./errors";
import { Doc, encodeKey, formatValue, lp, pathValues } from "./values";

export interface IndexSpec {
  v?: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Doc;
  [option: string]: unknown;
}

export type JournalRecord =
  | { op: "put"; db: string; coll: string; doc: Doc }
  | { op: "del"; db: string; coll: string; id: unknown }
  | { op: "create"; db: string; coll: string; options: Doc; uuid: UUID }
  | { op: "drop"; db: string; coll: string }
  | { op: "dropDatabase"; db: string }
  | { op: "index"; db: string; coll: string; spec: IndexSpec }
  | { op: "dropIndex"; db: string; coll: string; name: string };

export type Journal = (rec: JournalRecord) => void;

interface Entry {
  /** Insertion sequence: natural order for results that came out of an index. */
  rid: number;
  doc: Doc;
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: "_id_" };

export class Index {
  readonly fields: string[];
  readonly fieldParts: string[][];
  readonly unique: boolean;
  readonly sparse: boolean;
  private readonly partial: Query | null;
  /** Text and geo indexes are kept as definitions only. */
  readonly enforced: boolean;
  /** maps[j]: key prefix of j+1 fields -> keys of the documents holding it. */
  private readonly maps: Map<string, Set<string>>[];

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.fieldParts = this.fields.map((f) => f.split("."));
    this.unique = spec.unique === true;
    this.sparse = spec.sparse === true;
    this.partial = spec.partialFilterExpression ? new Query(spec.partialFilterExpression) : null;
    this.enforced = Object.values(spec.key).every((d) => typeof d === "number" || d === "hashed");
    this.maps = this.fields.map(() => new Map());
  }

  /** Usable to narrow an equality query: it holds every document having a value there. */
  get plannable(): boolean {
    return this.enforced && !this.partial;
  }

  /** The index key tuples of a document (several for array values), or null when it is not indexed. */
  tuples(doc: Doc): unknown[][] | null {
    if (!this.enforced) return null;
    if (this.partial && !this.partial.test(doc)) return null;
    const perField = this.fieldParts.map((p) => {
      const vals = pathValues(doc, p);
      return vals.length ? vals : [undefined];
    });
    if (this.sparse && perField.every((vals) => vals.length === 1 && vals[0] === undefined)) return null;
    let out: unknown[][] = [[]];
    for (const vals of perField) {
      const next: unknown[][] = [];
      for (const prefix of out) for (const v of vals) next.push([...prefix, v]);
      out = next;
    }
    return out;
  }

  private keyStrings(tuple: unknown[]): string[] {
    const keys: string[] = [];
    let acc = "";
    for (const v of tuple) {
      acc += lp(encodeKey(v));
      keys.push(acc);
    }
    return keys;
  }

  add(docKey: string, doc: Doc): void {
    for (const t of this.tuples(doc) ?? []) {
      this.keyStrings(t).forEach((k, j) => {
        let set = this.maps[j].get(k);
        if (!set) this.maps[j].set(k, (set = new Set()));
        set.add(docKey);
      });
    }
  }

  remove(docKey: string, doc: Doc): void {
    for (const t of this.tuples(doc) ?? []) {
      this.keyStrings(t).forEach((k, j) => {
        const set = this.maps[j].get(k);
        if (!set) return;
        set.delete(docKey);
        if (!set.size) this.maps[j].delete(k);
      });
    }
  }

  /** The first key tuple of `doc` already held by another document, if this index is unique. */
  conflict(doc: Doc, selfKey: string | undefined): unknown[] | null {
    if (!this.unique) return null;
    const full = this.fields.length - 1;
    for (const t of this.tuples(doc) ?? []) {
      const holders = this.maps[full].get(this.keyStrings(t)[full]);
      if (holders && (holders.size > 1 || !holders.has(selfKey as string))) return t;
    }
    return null;
  }

  /** Documents whose first `values.length` fields equal `values`. */
  lookup(values: unknown[]): Set<string> | undefined {
    return this.maps[values.length - 1].get(this.keyStrings(values)[values.length - 1]);
  }
}

export function duplicateKeyError(ns: string, indexName: string, fields: string[], tuple: unknown[]): CommandError {
  const keyValue: Doc = {};
  const keyPattern: Doc = {};
  fields.forEach((f, i) => {
    keyValue[f] = tuple[i] === undefined ? null : tuple[i];
    keyPattern[f] = 1;
  });
  const shown = fields.map((f, i) => `${f}: ${formatValue(tuple[i])}`).join(", ");
  return new CommandError(11000, "DuplicateKey", `E11000 duplicate key error collection: ${ns} index: ${indexName} dup key: { ${shown} }`, {
    keyPattern,
    keyValue,
  });
}

export class Collection {
  private readonly entries = new Map<string, Entry>();
  private nextRid = 1;
  indexes: Index[] = [];

  constructor(
    readonly db: string,
    readonly name: string,
    readonly options: Doc,
    readonly uuid: UUID,
    private readonly journal: Journal,
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Documents in natural (insertion) order. */
  *docs(): IterableIterator<Doc> {
    for (const e of this.entries.values()) yield e.doc;
  }

  getById(id: unknown): Doc | undefined {
    return this.entries.get(encodeKey(id))?.doc;
  }

  /** Documents for a set of keys, in natural order. */
  docsForKeys(keys: Iterable<string>): Doc[] {
    const found: Entry[] = [];
    for (const k of keys) {
      const e = this.entries.get(k);
      if (e) found.push(e);
    }
    if (found.length > 1) found.sort((a, b) => a.rid - b.rid);
    return found.map((e) => e.doc);
  }

  allIndexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...this.indexes.map((i) => i.spec)];
  }

  private checkUnique(doc: Doc, selfKey: string | undefined): void {
    for (const ix of this.indexes) {
      const t = ix.conflict(doc, selfKey);
      if (t) throw duplicateKeyError(this.ns, ix.spec.name, ix.fields, t);
    }
  }

  /** Inserts a document that already has its _id; all-or-nothing. */
  insert(doc: Doc): void {
    const key = encodeKey(doc._id);
    if (this.entries.has(key)) throw duplicateKeyError(this.ns, "_id_", ["_id"], [doc._id]);
    this.checkUnique(doc, undefined);
    this.put(key, doc);
    this.journal({ op: "put", db: this.db, coll: this.name, doc });
  }

  /** Replaces the document with the same _id; all-or-nothing. */
  replace(doc: Doc): void {
    const key = encodeKey(doc._id);
    this.checkUnique(doc, key);
    this.put(key, doc);
    this.journal({ op: "put", db: this.db, coll: this.name, doc });
  }

  remove(id: unknown): boolean {
    if (!this.unput(encodeKey(id))) return false;
    this.journal({ op: "del", db: this.db, coll: this.name, id });
    return true;
  }

  /** Replay path: effects from the log were validated when first applied. */
  put(key: string, doc: Doc): void {
    const old = this.entries.get(key);
    if (old) {
      for (const ix of this.indexes) ix.remove(key, old.doc);
      old.doc = doc;
    } else this.entries.set(key, { rid: this.nextRid++, doc });
    for (const ix of this.indexes) ix.add(key, doc);
  }

  unput(key: string): boolean {
    const old = this.entries.get(key);
    if (!old) return false;
    for (const ix of this.indexes) ix.remove(key, old.doc);
    this.entries.delete(key);
    return true;
  }

  /** Builds a new index over the existing documents; fails with E11000 without side effects. */
  addIndex(spec: IndexSpec, journal = true): void {
    const ix = new Index(spec);
    for (const [key, e] of this.entries) {
      const t = ix.conflict(e.doc, key);
      if (t) throw duplicateKeyError(this.ns, spec.name, ix.fields, t);
      ix.add(key, e.doc);
    }
    this.indexes.push(ix);
    if (journal) this.journal({ op: "index", db: this.db, coll: this.name, spec });
  }

  dropIndex(name: string, journal = true): void {
    this.indexes = this.indexes.filter((i) => i.spec.name !== name);
    if (journal) this.journal({ op: "dropIndex", db: this.db, coll: this.name, name });
  }
}

export class Store {
  readonly dbs = new Map<string, Map<string, Collection>>();
  journal: Journal = () => undefined;

  collection(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  /** The collection, created implicitly (as inserts and createIndexes do) when missing. */
  ensure(db: string, name: string): Collection {
    return this.collection(db, name) ?? this.create(db, name, {});
  }

  create(db: string, name: string, options: Doc, uuid = new UUID(), journal = true): Collection {
    let colls = this.dbs.get(db);
    if (!colls) this.dbs.set(db, (colls = new Map()));
    const coll = new Collection(db, name, options, uuid, (r) => this.journal(r));
    colls.set(name, coll);
    if (journal) this.journal({ op: "create", db, coll: name, options, uuid });
    return coll;
  }

  drop(db: string, name: string, journal = true): boolean {
    const colls = this.dbs.get(db);
    if (!colls?.delete(name)) return false;
    if (!colls.size) this.dbs.delete(db);
    if (journal) this.journal({ op: "drop", db, coll: name });
    return true;
  }

  dropDatabase(db: string, journal = true): void {
    if (!this.dbs.delete(db)) return;
    if (journal) this.journal({ op: "dropDatabase", db });
  }

  /** Applies a logged effect without journaling it again (recovery). */
  apply(rec: JournalRecord): void {
    switch (rec.op) {
      case "put":
        (this.collection(rec.db, rec.coll) ?? this.create(rec.db, rec.coll, {}, undefined, false)).put(encodeKey(rec.doc._id), rec.doc);
        return;
      case "del":
        this.collection(rec.db, rec.coll)?.unput(encodeKey(rec.id));
        return;
      case "create":
        if (!this.collection(rec.db, rec.coll)) this.create(rec.db, rec.coll, rec.options, rec.uuid, false);
        return;
      case "drop":
        this.drop(rec.db, rec.coll, false);
        return;
      case "dropDatabase":
        this.dropDatabase(rec.db, false);
        return;
      case "index": {
        const coll = this.collection(rec.db, rec.coll) ?? this.create(rec.db, rec.coll, {}, undefined, false);
        coll.dropIndex(rec.spec.name, false);
        const ix = new Index(rec.spec);
        for (const d of coll.docs()) ix.add(encodeKey(d._id), d);
        coll.indexes.push(ix);
        return;
      }
      case "dropIndex":
        this.collection(rec.db, rec.coll)?.dropIndex(rec.name, false);
        return;
    }
  }
}
