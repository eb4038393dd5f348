import { collName, Loose, targets, useTarget } from "./harness";

describe.each(targets)("atomicity under concurrency on $name", (target) => {
  const s = useTarget(target);

  test("100 concurrent $inc updates all land", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertOne({ _id: "ctr", n: 0 } as never);
    await Promise.all(Array.from({ length: 100 }, () => c.updateOne({ _id: "ctr" } as never, { $inc: { n: 1 } })));
    expect((await c.findOne({ _id: "ctr" } as never))!.n).toBe(100);
    await Promise.all(Array.from({ length: 100 }, () => c.findOneAndUpdate({ _id: "ctr" } as never, { $inc: { n: 1 } })));
    expect((await c.findOne({ _id: "ctr" } as never))!.n).toBe(200);
  });

  test("50 concurrent upserts on a unique key leave exactly one document", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ key: 1 }, { unique: true });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () => c.updateOne({ key: "only" }, { $inc: { hits: 1 } }, { upsert: true })),
    );
    // Real MongoDB may reject a racing upsert with 11000 (it retries most internally); every success counted once.
    const ok = results.filter((r) => r.status === "fulfilled").length;
    for (const r of results) if (r.status === "rejected") expect((r.reason as { code?: number }).code).toBe(11000);
    const docs = await c.find({ key: "only" }).toArray();
    expect(docs).toHaveLength(1);
    expect(docs[0].hits).toBe(ok);
  });

  test("50 concurrent findOneAndUpdate upserts leave exactly one document", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.createIndex({ key: 1 }, { unique: true });
    await Promise.allSettled(
      Array.from({ length: 50 }, () => c.findOneAndUpdate({ key: "k" }, { $setOnInsert: { at: 1 }, $inc: { n: 1 } }, { upsert: true })),
    );
    expect(await c.countDocuments({ key: "k" })).toBe(1);
  });
});
