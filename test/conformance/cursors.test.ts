import { collName, Loose, rejection, targets, useTarget } from "./harness";

describe.each(targets)("cursors on $name", (target) => {
  const s = useTarget(target);

  test("find with a small batchSize pages through getMore and returns everything in order", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany(Array.from({ length: 25 }, (_, i) => ({ _id: i })) as never[]);
    const cursor = c.find({}, { batchSize: 4 }).sort({ _id: 1 });
    const seen: number[] = [];
    for await (const d of cursor) seen.push(d._id as unknown as number);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  test("raw find/getMore/killCursors", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i })) as never[]);
    const first = await s.db.command({ find: c.collectionName, filter: {}, sort: { _id: 1 }, batchSize: 3 });
    expect(first.cursor.firstBatch.map((d: { _id: number }) => d._id)).toEqual([0, 1, 2]);
    expect(first.cursor.ns).toBe(`${s.db.databaseName}.${c.collectionName}`);
    const id = first.cursor.id;
    expect(Number(id)).not.toBe(0);
    const more = await s.db.command({ getMore: id, collection: c.collectionName, batchSize: 3 });
    expect(more.cursor.nextBatch.map((d: { _id: number }) => d._id)).toEqual([3, 4, 5]);
    const killed = await s.db.command({ killCursors: c.collectionName, cursors: [id] });
    expect(killed.cursorsKilled.map(String)).toEqual([String(id)]);
    const gone = await rejection(s.db.command({ getMore: id, collection: c.collectionName }));
    expect(gone.code).toBe(43);
  });

  test("a cursor is closed when exhausted; limit and singleBatch close it early", async () => {
    const c = s.db.collection<Loose>(collName());
    await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i })) as never[]);
    const all = await s.db.command({ find: c.collectionName, batchSize: 20 });
    expect(Number(all.cursor.id)).toBe(0);
    const limited = await s.db.command({ find: c.collectionName, limit: 5, batchSize: 2 });
    const rest = await s.db.command({ getMore: limited.cursor.id, collection: c.collectionName });
    expect(limited.cursor.firstBatch.length + rest.cursor.nextBatch.length).toBe(5);
    expect(Number(rest.cursor.id)).toBe(0);
    const single = await s.db.command({ find: c.collectionName, batchSize: 2, singleBatch: true });
    expect(single.cursor.firstBatch).toHaveLength(2);
    expect(Number(single.cursor.id)).toBe(0);
    const closedEarly = c.find({}, { batchSize: 2 });
    await closedEarly.next();
    await closedEarly.close();
  });
});
