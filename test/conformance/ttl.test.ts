import { collName, Loose, targets, useTarget } from "./harness";

/** Real MongoDB's TTL monitor runs every 60 s; the embedded one is shrunk for tests. */
describe.each(targets)("TTL indexes on $name", (target) => {
  const s = useTarget(target, { ttlMonitorIntervalMs: 100 });
  const deadline = target.embedded ? 5_000 : 75_000;

  test(
    "documents expire once date + expireAfterSeconds has passed; others stay",
    async () => {
      const c = s.db.collection<Loose>(collName());
      await c.createIndex({ at: 1 }, { expireAfterSeconds: 1 });
      const list = await c.listIndexes().toArray();
      expect(list[1]).toMatchObject({ key: { at: 1 }, expireAfterSeconds: 1 });
      const now = Date.now();
      await c.insertMany([
        { _id: "old", at: new Date(now - 60_000) },
        { _id: "oldArray", at: [new Date(now - 60_000), new Date(now + 3_600_000)] },
        { _id: "future", at: new Date(now + 3_600_000) },
        { _id: "notADate", at: "yesterday" },
        { _id: "noField" },
      ] as never[]);
      const start = Date.now();
      while ((await c.countDocuments({ _id: { $in: ["old", "oldArray"] } } as never)) > 0) {
        if (Date.now() - start > deadline) throw new Error("TTL monitor did not remove expired documents in time");
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await c.find().sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual(["future", "noField", "notADate"]);
    },
    deadline + 15_000,
  );
});
