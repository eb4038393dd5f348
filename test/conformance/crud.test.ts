import { MongoBulkWriteError, MongoServerError, ObjectId } from "mongodb";
import { collName, Loose, rejection, targets, useTarget } from "./harness";

describe.each(targets)("CRUD on $name", (target) => {
  const s = useTarget(target);

  test("insert generates an ObjectId _id, stores it first, and find returns the documents", async () => {
    const c = s.db.collection<Loose>(collName());
    const res = await c.insertOne({ a: 1 }, { forceServerObjectId: true });
    expect(res.acknowledged).toBe(true);
    const docs = await c.find().toArray();
    expect(docs).toHaveLength(1);
    expect(docs[0]._id).toBeInstanceOf(ObjectId);
    expect(Object.keys(docs[0])).toEqual(["_id", "a"]);
  });

  test("ordered insertMany stops at the first duplicate _id; unordered continues", async () => {
    const c = s.db.collection<Loose>(collName());
    const ordered = await rejection(c.insertMany([{ _id: 1 }, { _id: 1 }, { _id: 2 }] as never[]));
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect(ordered.code).toBe(11000);
    expect((ordered as unknown as MongoBulkWriteError).result.insertedCount).toBe(1);
    expect(await c.countDocuments()).toBe(1);

    const c2 = s.db.collection<Loose>(collName());
    const unordered = (await rejection(c2.insertMany([{ _id: 1 }, { _id: 1 }, { _id: 2 }] as never[], { ordered: false }))) as unknown as MongoBulkWriteError;
    expect(unordered.code).toBe(11000);
    expect(unordered.result.insertedCount).toBe(2);
    expect(unordered.writeErrors).toHaveLength(1);
    expect(await c2.countDocuments()).toBe(2);
  });

  test("find: filter, sort, skip, limit, projection", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, n: i, odd: i % 2 === 1, tags: [`t${i}`, "all"], sub: { x: i * 10, y: "y" } })) as never[]);
    const odd = await c.find({ odd: true }, { sort: { n: -1 }, skip: 1, limit: 2 }).toArray();
    expect(odd.map((d) => d._id)).toEqual([7, 5]);
    expect(await c.find({ n: { $gte: 3, $lt: 6 } }).sort({ n: 1 }).map((d) => d.n).toArray()).toEqual([3, 4, 5]);
    expect(await c.find({ tags: "t4" }).map((d) => d._id).toArray()).toEqual([4]);
    expect(await c.find({ "sub.x": { $in: [20, 30] } }).sort({ _id: 1 }).map((d) => d._id).toArray()).toEqual([2, 3]);
    expect(await c.find({ $or: [{ n: 1 }, { n: 8 }] }).sort({ _id: 1 }).map((d) => d._id).toArray()).toEqual([1, 8]);
    const projected = await c.find({ _id: 2 }, { projection: { n: 1, "sub.x": 1 } }).toArray();
    expect(projected).toEqual([{ _id: 2, n: 2, sub: { x: 20 } }]);
    const excluded = await c.findOne({ _id: 3 }, { projection: { tags: 0, sub: 0, _id: 0 } });
    expect(excluded).toEqual({ n: 3, odd: true });
    const sliced = await c.findOne({ _id: 3 }, { projection: { tags: { $slice: 1 }, n: 1 } });
    expect(sliced).toEqual({ _id: 3, n: 3, tags: ["t3"] });
    expect(await c.findOne({ n: 42 })).toBeNull();
  });

  test("update operators", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertOne({ _id: 1, n: 5, m: 2, lo: 5, hi: 5, arr: [1, 2, 3], set: ["a"], gone: true, old: "v", nested: { a: 1 } } as never);
    const res = await c.updateOne(
      { _id: 1 },
      {
        $set: { "nested.b": 2, s: "x" },
        $unset: { gone: "" },
        $inc: { n: 3, fresh: 1 },
        $mul: { m: 5 },
        $min: { lo: 1 },
        $max: { hi: 9 },
        $push: { arr: { $each: [4, 5, 6], $slice: -4 } },
        $addToSet: { set: { $each: ["a", "b"] } },
        $rename: { old: "renamed" },
        $currentDate: { touched: true },
      } as never,
    );
    expect(res.matchedCount).toBe(1);
    expect(res.modifiedCount).toBe(1);
    const doc = await c.findOne({ _id: 1 });
    expect(doc).toMatchObject({ n: 8, fresh: 1, m: 10, lo: 1, hi: 9, arr: [3, 4, 5, 6], set: ["a", "b"], renamed: "v", nested: { a: 1, b: 2 }, s: "x" });
    expect(doc).not.toHaveProperty("gone");
    expect(doc).not.toHaveProperty("old");
    expect(doc!.touched).toBeInstanceOf(Date);

    await c.updateOne({ _id: 1 }, { $push: { arr: { $each: [0], $position: 0 } }, $pull: { set: "a" } } as never);
    await c.updateOne({ _id: 1 }, { $pop: { arr: 1 }, $pullAll: { set: ["b"] } } as never);
    expect(await c.findOne({ _id: 1 }, { projection: { arr: 1, set: 1 } })).toEqual({ _id: 1, arr: [0, 3, 4, 5], set: [] });
    await c.updateOne({ _id: 1 }, { $pull: { arr: { $gte: 4 } } } as never);
    expect((await c.findOne({ _id: 1 }))!.arr).toEqual([0, 3]);
  });

  test("update reports matched/modified counts and multi updates", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany([{ g: 1, v: 0 }, { g: 1, v: 0 }, { g: 2, v: 0 }]);
    const many = await c.updateMany({ g: 1 }, { $set: { v: 1 } });
    expect([many.matchedCount, many.modifiedCount]).toEqual([2, 2]);
    const noop = await c.updateMany({ g: 1 }, { $set: { v: 1 } });
    expect([noop.matchedCount, noop.modifiedCount]).toEqual([2, 0]);
    const none = await c.updateOne({ g: 9 }, { $set: { v: 1 } });
    expect([none.matchedCount, none.modifiedCount, none.upsertedCount]).toEqual([0, 0, 0]);
  });

  test("arrayFilters, $[] and the positional $", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertOne({ _id: 1, items: [{ k: "a", q: 1 }, { k: "b", q: 5 }, { k: "c", q: 9 }], xs: [1, 2, 3] } as never);
    await c.updateOne({ _id: 1 }, { $inc: { "items.$[big].q": 100 } }, { arrayFilters: [{ "big.q": { $gte: 5 } }] });
    await c.updateOne({ _id: 1 }, { $mul: { "xs.$[]": 10 } } as never);
    await c.updateOne({ _id: 1, "items.k": "a" }, { $set: { "items.$.q": 0 } } as never);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, items: [{ k: "a", q: 0 }, { k: "b", q: 105 }, { k: "c", q: 109 }], xs: [10, 20, 30] });
  });

  test("replacement keeps _id; changing _id fails with code 66", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertOne({ _id: 1, a: 1, b: 2 } as never);
    await c.replaceOne({ _id: 1 }, { c: 3 });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, c: 3 });
    const e1 = await rejection(c.updateOne({ _id: 1 }, { $set: { _id: 2 } } as never));
    expect(e1).toBeInstanceOf(MongoServerError);
    expect(e1.code).toBe(66);
    const e2 = await rejection(c.replaceOne({ _id: 1 }, { _id: 5, c: 4 } as never));
    expect(e2.code).toBe(66);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, c: 3 });
  });

  test("invalid updates fail with MongoDB's codes", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertOne({ _id: 1, s: "text", n: 1 } as never);
    expect((await rejection(c.updateOne({ _id: 1 }, { $inc: { s: 1 } } as never))).code).toBe(14);
    expect((await rejection(c.updateOne({ _id: 1 }, { $inc: { n: "x" } } as never))).code).toBe(14);
    expect((await rejection(c.updateOne({ _id: 1 }, { $push: { s: 1 } } as never))).code).toBe(2);
    expect((await rejection(c.updateOne({ _id: 1 }, { $set: { n: 1 }, $inc: { n: 1 } } as never))).code).toBe(40);
    expect((await rejection(s.db.command({ update: c.collectionName, updates: [{ q: {}, u: { $foo: { a: 1 } } }] }).then((r) => {
      if (r.writeErrors) throw Object.assign(new Error(r.writeErrors[0].errmsg), { code: r.writeErrors[0].code });
    }))).code).toBe(9);
  });

  test("upserts: operator update seeds from the filter, $setOnInsert only on insert; replacement upsert", async () => {
    const c = s.db.collection<Loose>(collName());
    const first = await c.updateOne({ key: "k", "meta.kind": "x" }, { $inc: { n: 1 }, $setOnInsert: { created: true } }, { upsert: true });
    expect(first.upsertedCount).toBe(1);
    expect(first.upsertedId).toBeInstanceOf(ObjectId);
    const second = await c.updateOne({ key: "k", "meta.kind": "x" }, { $inc: { n: 1 }, $setOnInsert: { created: false } }, { upsert: true });
    expect([second.matchedCount, second.modifiedCount, second.upsertedCount]).toEqual([1, 1, 0]);
    const doc = await c.findOne({ key: "k" }, { projection: { _id: 0 } });
    expect(doc).toEqual({ key: "k", meta: { kind: "x" }, n: 2, created: true });
    const rep = await c.replaceOne({ _id: "fixed" } as never, { v: 1 }, { upsert: true });
    expect(rep.upsertedId).toBe("fixed");
    expect(await c.findOne({ _id: "fixed" } as never)).toEqual({ _id: "fixed", v: 1 });
  });

  test("pipeline-style update", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertOne({ _id: 1, a: 2, b: 3 } as never);
    await c.updateOne({ _id: 1 }, [{ $set: { sum: { $add: ["$a", "$b"] } } }, { $unset: "b" }]);
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, a: 2, sum: 5 });
  });

  test("delete with limit 1 and 0", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany([{ g: 1 }, { g: 1 }, { g: 1 }, { g: 2 }]);
    expect((await c.deleteOne({ g: 1 })).deletedCount).toBe(1);
    expect((await c.deleteMany({ g: 1 })).deletedCount).toBe(2);
    expect((await c.deleteMany({ g: 7 })).deletedCount).toBe(0);
    expect(await c.countDocuments()).toBe(1);
  });

  test("findAndModify: sort, new, upsert, remove, fields", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany([{ _id: 1, q: "x", p: 3 }, { _id: 2, q: "x", p: 1 }, { _id: 3, q: "x", p: 2 }] as never[]);
    const before = await c.findOneAndUpdate({ q: "x" }, { $set: { taken: true } }, { sort: { p: 1 }, returnDocument: "before" });
    expect(before).toEqual({ _id: 2, q: "x", p: 1 });
    const after = await c.findOneAndUpdate({ q: "x", taken: { $exists: false } }, { $inc: { p: 10 } }, { sort: { p: -1 }, returnDocument: "after", projection: { p: 1 } });
    expect(after).toEqual({ _id: 1, p: 13 });
    const meta = await c.findOneAndUpdate({ q: "none" }, { $set: { v: 1 } }, { upsert: true, returnDocument: "after", includeResultMetadata: true });
    expect(meta.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false });
    expect(meta.lastErrorObject!.upserted).toBeInstanceOf(ObjectId);
    expect(meta.value).toMatchObject({ q: "none", v: 1 });
    const upsertBefore = await c.findOneAndUpdate({ q: "none2" }, { $set: { v: 1 } }, { upsert: true, returnDocument: "before" });
    expect(upsertBefore).toBeNull();
    const missing = await c.findOneAndUpdate({ q: "nope" }, { $set: { v: 1 } });
    expect(missing).toBeNull();
    const replaced = await c.findOneAndReplace({ _id: 3 }, { r: true }, { returnDocument: "after" });
    expect(replaced).toEqual({ _id: 3, r: true });
    const removed = await c.findOneAndDelete({ q: "x" }, { sort: { p: -1 } });
    expect(removed).toMatchObject({ _id: 1, p: 13 });
    expect(await c.findOne({ _id: 1 })).toBeNull();
    expect(await c.findOneAndDelete({ q: "nothing" })).toBeNull();
  });

  test("unacknowledged (w: 0) writes are applied", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertOne({ _id: "fire-and-forget" }, { writeConcern: { w: 0 } });
    const start = Date.now();
    while (!(await c.findOne({ _id: "fire-and-forget" }))) {
      if (Date.now() - start > 5000) throw new Error("w:0 insert never became visible");
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  test("values round-trip with their BSON types (dates, ObjectIds, nested arrays, binary, null)", async () => {
    const c = s.db.collection<Loose>(collName());
    const when = new Date("2024-02-29T12:34:56.789Z");
    const ref = new ObjectId();
    const doc = { _id: ref, when, list: [[1, 2], { x: null }], text: "é✓", flag: false, big: 2 ** 40, frac: 1.5, neg: -3 };
    await c.insertOne(doc);
    const back = await c.findOne({ _id: ref });
    expect(back).toEqual(doc);
    expect(back!.when).toBeInstanceOf(Date);
    expect(await c.countDocuments({ when: { $gt: new Date("2024-01-01") } })).toBe(1);
    expect(await c.countDocuments({ when: { $lt: new Date("2024-01-01") } })).toBe(0);
    expect(await c.countDocuments({ "list.x": null })).toBe(1);
  });

  test("queries with $regex, $exists, $elemMatch, $size, $type, $not, $nin, $all", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany([
      { _id: 1, name: "alpha", arr: [{ a: 1, b: 2 }, { a: 3, b: 4 }], tags: ["x", "y"] },
      { _id: 2, name: "beta", arr: [{ a: 1, b: 4 }], tags: ["y"] },
      { _id: 3, name: "Gamma", opt: null },
    ] as never[]);
    const ids = async (f: object) => (await s.db.collection<Loose>(c.collectionName).find(f).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ name: { $regex: "^a" } })).toEqual([1]);
    expect(await ids({ name: /^g/i })).toEqual([3]);
    expect(await ids({ opt: { $exists: true } })).toEqual([3]);
    expect(await ids({ opt: null })).toEqual([1, 2, 3]);
    expect(await ids({ arr: { $elemMatch: { a: 1, b: 4 } } })).toEqual([2]);
    expect(await ids({ tags: { $size: 2 } })).toEqual([1]);
    expect(await ids({ tags: { $all: ["x", "y"] } })).toEqual([1]);
    expect(await ids({ name: { $type: "string" }, tags: { $nin: ["x"] } })).toEqual([2, 3]);
    expect(await ids({ name: { $not: /a$/ } })).toEqual([]);
    expect(await ids({ $expr: { $eq: ["$name", "beta"] } })).toEqual([2]);
  });
});
