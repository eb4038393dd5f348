import { collName, Loose, targets, useTarget } from "./harness";

describe.each(targets)("aggregate, count and distinct on $name", (target) => {
  const s = useTarget(target);
  const orders = () => s.db.collection<Loose>("orders");

  beforeAll(async () => {
    await orders().insertMany([
      { _id: 1, cust: "ann", items: ["a", "b"], total: 10, at: new Date("2024-01-01") },
      { _id: 2, cust: "bob", items: ["a"], total: 5, at: new Date("2024-01-02") },
      { _id: 3, cust: "ann", items: ["c"], total: 7, at: new Date("2024-01-03") },
      { _id: 4, cust: "cy", items: [], total: 1, at: new Date("2024-01-04") },
    ] as never[]);
    await s.db.collection<Loose>("customers").insertMany([
      { _id: "ann", city: "Oslo" },
      { _id: "bob", city: "Rome" },
    ] as never[]);
  });

  test("$match $group $sort $project", async () => {
    const out = await orders()
      .aggregate([
        { $match: { total: { $gte: 5 } } },
        { $group: { _id: "$cust", sum: { $sum: "$total" }, n: { $sum: 1 }, last: { $max: "$at" } } },
        { $sort: { sum: -1 } },
        { $project: { _id: 0, cust: "$_id", sum: 1, n: 1, last: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { cust: "ann", sum: 17, n: 2, last: new Date("2024-01-03") },
      { cust: "bob", sum: 5, n: 1, last: new Date("2024-01-02") },
    ]);
  });

  test("$unwind $count $skip $limit $addFields $set", async () => {
    expect(await orders().aggregate([{ $unwind: "$items" }, { $count: "n" }]).toArray()).toEqual([{ n: 4 }]);
    const page = await orders()
      .aggregate([{ $sort: { _id: 1 } }, { $skip: 1 }, { $limit: 2 }, { $addFields: { double: { $multiply: ["$total", 2] } } }, { $set: { k: 1 } }, { $project: { double: 1, k: 1 } }])
      .toArray();
    expect(page).toEqual([
      { _id: 2, double: 10, k: 1 },
      { _id: 3, double: 14, k: 1 },
    ]);
  });

  test("$lookup and $facet", async () => {
    const joined = await orders()
      .aggregate([{ $match: { _id: { $in: [1, 2] } } }, { $lookup: { from: "customers", localField: "cust", foreignField: "_id", as: "c" } }, { $sort: { _id: 1 } }, { $project: { city: { $first: "$c.city" } } }])
      .toArray();
    expect(joined).toEqual([
      { _id: 1, city: "Oslo" },
      { _id: 2, city: "Rome" },
    ]);
    const [facets] = await orders()
      .aggregate([{ $facet: { big: [{ $match: { total: { $gt: 6 } } }, { $count: "n" }], custs: [{ $group: { _id: "$cust" } }, { $sort: { _id: 1 } }] } }])
      .toArray();
    expect(facets).toEqual({ big: [{ n: 2 }], custs: [{ _id: "ann" }, { _id: "bob" }, { _id: "cy" }] });
  });

  test("aggregate with a small batchSize is served through getMore", async () => {
    const out = await orders().aggregate([{ $sort: { _id: -1 } }], { batchSize: 1 }).toArray();
    expect(out.map((d) => d._id)).toEqual([4, 3, 2, 1]);
  });

  test("countDocuments, estimatedDocumentCount and the count command with query/skip/limit", async () => {
    expect(await orders().countDocuments()).toBe(4);
    expect(await orders().countDocuments({ cust: "ann" })).toBe(2);
    expect(await orders().countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect(await orders().estimatedDocumentCount()).toBe(4);
    expect(await s.db.command({ count: "orders", query: { total: { $lt: 8 } } })).toMatchObject({ n: 3, ok: 1 });
    expect(await s.db.command({ count: "orders", query: {}, skip: 3, limit: 5 })).toMatchObject({ n: 1 });
    expect(await s.db.command({ count: collName() })).toMatchObject({ n: 0, ok: 1 });
  });

  test("distinct flattens arrays and honours the query", async () => {
    expect((await orders().distinct("cust")).sort()).toEqual(["ann", "bob", "cy"]);
    expect((await orders().distinct("items")).sort()).toEqual(["a", "b", "c"]);
    expect((await orders().distinct("items", { cust: "ann" })).sort()).toEqual(["a", "b", "c"]);
    expect(await orders().distinct("nothing")).toEqual([]);
  });
});
