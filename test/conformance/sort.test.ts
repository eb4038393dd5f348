import { MaxKey, MinKey, ObjectId } from "mongodb";
import { collName, Loose, targets, useTarget } from "./harness";

describe.each(targets)("sort order on $name", (target) => {
  const s = useTarget(target);

  test("mixed BSON types sort in MongoDB's canonical order; missing sorts as null", async () => {
    const c = s.db.collection<Loose>(collName());
    const oid = new ObjectId("65a000000000000000000000");
    await c.insertMany([
      { _id: "date", v: new Date(0) },
      { _id: "max", v: new MaxKey() },
      { _id: "true", v: true },
      { _id: "oid", v: oid },
      { _id: "str", v: "abc" },
      { _id: "num", v: 42 },
      { _id: "obj", v: { a: 1 } },
      { _id: "null", v: null },
      { _id: "missing" },
      { _id: "min", v: new MinKey() },
      { _id: "false", v: false },
      { _id: "neg", v: -1.5 },
      { _id: "regex", v: /x/ },
    ] as never[]);
    const asc = (await c.find({}, { sort: { v: 1, _id: 1 } }).toArray()).map((d) => d._id);
    expect(asc).toEqual(["min", "missing", "null", "neg", "num", "str", "obj", "oid", "false", "true", "date", "regex", "max"]);
    const desc = (await c.find({}, { sort: { v: -1, _id: 1 } }).toArray()).map((d) => d._id);
    expect(desc).toEqual(["max", "regex", "date", "true", "false", "oid", "obj", "str", "num", "neg", "missing", "null", "min"]);
  });

  test("arrays sort by their smallest element ascending and largest descending", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany([
      { _id: "a", v: [5, 1] },
      { _id: "b", v: 3 },
      { _id: "c", v: [2, 9] },
    ] as never[]);
    expect((await c.find().sort({ v: 1 }).toArray()).map((d) => d._id)).toEqual(["a", "c", "b"]);
    expect((await c.find().sort({ v: -1 }).toArray()).map((d) => d._id)).toEqual(["c", "a", "b"]);
  });

  test("compound sort, nested fields, dates and numbers of mixed representation", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany([
      { _id: 1, g: "x", at: new Date("2024-03-01"), n: { v: 2.5 } },
      { _id: 2, g: "x", at: new Date("2023-03-01"), n: { v: 2 } },
      { _id: 3, g: "a", at: new Date("2025-03-01"), n: { v: 10 } },
      { _id: 4, g: "x", at: new Date("2024-03-01"), n: { v: -1 } },
    ] as never[]);
    expect((await c.find().sort({ g: 1, at: -1, _id: 1 }).toArray()).map((d) => d._id)).toEqual([3, 1, 4, 2]);
    expect((await c.find().sort({ "n.v": 1 }).toArray()).map((d) => d._id)).toEqual([4, 2, 1, 3]);
    const agg = await c.aggregate([{ $sort: { at: 1, _id: 1 } }, { $project: { _id: 1 } }]).toArray();
    expect(agg.map((d) => d._id)).toEqual([2, 1, 4, 3]);
    const latest = await c.find({ at: { $gte: new Date("2024-01-01") } }).sort({ at: -1 }).limit(1).next();
    expect(latest!.at).toEqual(new Date("2025-03-01"));
  });
});
