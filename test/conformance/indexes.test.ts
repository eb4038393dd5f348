import { MongoBulkWriteError, MongoServerError } from "mongodb";
import { collName, Loose, rejection, targets, useTarget } from "./harness";

describe.each(targets)("indexes and duplicate keys on $name", (target) => {
  const s = useTarget(target);

  test("createIndexes, listIndexes, identical re-create is a no-op, dropIndexes", async () => {
    const c = s.db.collection<Loose>(collName());
    expect(await c.createIndex({ email: 1 }, { unique: true })).toBe("email_1");
    expect(await c.createIndex({ a: 1, b: -1 }, { name: "ab" })).toBe("ab");
    const again = await s.db.command({ createIndexes: c.collectionName, indexes: [{ key: { email: 1 }, name: "email_1", unique: true }] });
    expect(again).toMatchObject({ ok: 1, numIndexesBefore: 3, numIndexesAfter: 3 });
    const list = await c.listIndexes().toArray();
    expect(list.map((i) => [i.name, i.key, i.unique ?? false])).toEqual([
      ["_id_", { _id: 1 }, false],
      ["email_1", { email: 1 }, true],
      ["ab", { a: 1, b: -1 }, false],
    ]);
    await c.dropIndex("ab");
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_", "email_1"]);
    expect((await rejection(c.dropIndex("nope"))).code).toBe(27);
    expect((await rejection(c.dropIndex("_id_"))).code).toBe(72);
    await c.dropIndexes();
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
  });

  test("createIndex on a missing collection creates it; listIndexes on a missing one fails with 26", async () => {
    const name = collName();
    const res = await s.db.command({ createIndexes: name, indexes: [{ key: { x: 1 }, name: "x_1" }] });
    expect(res).toMatchObject({ ok: 1, createdCollectionAutomatically: true, numIndexesBefore: 1, numIndexesAfter: 2 });
    expect((await rejection(s.db.collection<Loose>(collName()).listIndexes().toArray())).code).toBe(26);
  });

  test("conflicting index definitions", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ k: 1 }, { name: "k" });
    expect((await rejection(c.createIndex({ other: 1 }, { name: "k" }))).code).toBe(86);
    expect((await rejection(c.createIndex({ k: 1 }, { name: "k", unique: true }))).code).toBe(85);
    expect((await rejection(c.createIndex({ k: 1 }, { name: "k2" }))).code).toBe(85);
  });

  test("a unique index over existing duplicates fails with 11000 and is not created", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany([{ e: "a" }, { e: "a" }]);
    const err = await rejection(c.createIndex({ e: 1 }, { unique: true }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(11000);
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_"]);
  });

  test("duplicate keys: insert, update, upsert and findAndModify all report 11000", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ email: 1 }, { unique: true });
    await c.insertMany([{ email: "a@x" }, { email: "b@x" }]);

    const ins = await rejection(c.insertOne({ email: "a@x" }));
    expect(ins).toBeInstanceOf(MongoServerError);
    expect(ins.code).toBe(11000);
    expect(ins.message).toMatch(new RegExp(`^E11000 duplicate key error collection: ${s.db.databaseName}\\.${c.collectionName} index: email_1 dup key: \\{ email: "a@x" \\}`));
    expect((ins as MongoServerError).keyValue).toEqual({ email: "a@x" });

    const upd = await rejection(c.updateOne({ email: "b@x" }, { $set: { email: "a@x" } }));
    expect(upd.code).toBe(11000);
    const ups = await rejection(c.updateOne({ email: "a@x", other: 1 }, { $set: { v: 1 } }, { upsert: true }));
    expect(ups.code).toBe(11000);
    const fam = await rejection(c.findOneAndUpdate({ email: "b@x" }, { $set: { email: "a@x" } }));
    expect(fam).toBeInstanceOf(MongoServerError);
    expect(fam.code).toBe(11000);
    const bulk = await rejection(c.bulkWrite([{ insertOne: { document: { email: "c@x" } } }, { insertOne: { document: { email: "c@x" } } }]));
    expect(bulk).toBeInstanceOf(MongoBulkWriteError);
    expect(bulk.code).toBe(11000);

    expect((await c.find({}, { projection: { _id: 0 } }).sort({ email: 1 }).toArray()).map((d) => d.email)).toEqual(["a@x", "b@x", "c@x"]);
  });

  test("a unique index treats a missing field as null (one document only)", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ u: 1 }, { unique: true });
    await c.insertOne({ x: 1 });
    expect((await rejection(c.insertOne({ x: 2 }))).code).toBe(11000);
  });

  test("sparse unique index ignores documents without the field", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ u: 1 }, { unique: true, sparse: true });
    await c.insertMany([{ x: 1 }, { x: 2 }, { u: 1 }]);
    expect((await rejection(c.insertOne({ u: 1 }))).code).toBe(11000);
  });

  test("partial unique index only constrains matching documents", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ slug: 1 }, { unique: true, partialFilterExpression: { live: true } });
    await c.insertMany([{ slug: "a", live: false }, { slug: "a", live: false }, { slug: "a", live: true }]);
    expect((await rejection(c.insertOne({ slug: "a", live: true }))).code).toBe(11000);
    await c.insertOne({ slug: "b", live: true });
    expect((await rejection(c.updateOne({ slug: "b" }, { $set: { slug: "a" } }))).code).toBe(11000);
    const list = await c.listIndexes().toArray();
    expect(list[1].partialFilterExpression).toEqual({ live: true });
  });

  test("compound unique index constrains the combination, and equality on its prefix finds documents", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ tenant: 1, key: 1 }, { unique: true });
    await c.insertMany([
      { tenant: "t1", key: "a" },
      { tenant: "t1", key: "b" },
      { tenant: "t2", key: "a" },
    ]);
    const err = await rejection(c.insertOne({ tenant: "t1", key: "a" }));
    expect(err.code).toBe(11000);
    expect((err as MongoServerError).keyValue).toEqual({ tenant: "t1", key: "a" });
    expect(await c.countDocuments({ tenant: "t1" })).toBe(2);
    expect(await c.countDocuments({ tenant: "t1", key: "b" })).toBe(1);
    expect(await c.countDocuments({ tenant: { $in: ["t1", "t2"] }, key: "a" })).toBe(2);
  });

  test("unique index over array values (multikey)", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ tags: 1 }, { unique: true });
    await c.insertOne({ tags: ["a", "b", "a"] });
    expect((await rejection(c.insertOne({ tags: ["c", "b"] }))).code).toBe(11000);
    await c.insertOne({ tags: ["c"] });
    expect(await c.countDocuments({ tags: "b" })).toBe(1);
  });

  test("numbers of different BSON types collide on a unique index", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ n: 1 }, { unique: true });
    await c.insertOne({ n: 1 });
    expect((await rejection(c.insertOne({ n: 1.0 }))).code).toBe(11000);
  });
});
