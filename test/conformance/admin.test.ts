import { MongoServerError } from "mongodb";
import { collName, Loose, rejection, targets, useTarget } from "./harness";

describe.each(targets)("server and catalog commands on $name", (target) => {
  const s = useTarget(target);

  test("hello answers as a writable primary with wire version 21", async () => {
    const hello = await s.db.admin().command({ hello: 1 });
    expect(hello).toMatchObject({ isWritablePrimary: true, maxWireVersion: 21, minWireVersion: 0, logicalSessionTimeoutMinutes: 30, ok: 1 });
    for (const f of ["maxBsonObjectSize", "maxMessageSizeBytes", "maxWriteBatchSize", "connectionId"]) expect(typeof hello[f]).toBe("number");
    expect(hello.localTime).toBeInstanceOf(Date);
    const legacy = await s.db.admin().command({ isMaster: 1 });
    expect(legacy).toMatchObject({ ismaster: true, ok: 1 });
  });

  test("ping, buildInfo, serverStatus, endSessions", async () => {
    expect(await s.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    const info = await s.db.admin().command({ buildInfo: 1 });
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Array.isArray(info.versionArray)).toBe(true);
    const status = await s.db.admin().command({ serverStatus: 1 });
    expect(status).toMatchObject({ ok: 1, process: expect.stringMatching(/mongod/) });
    expect(status.connections.current).toBeGreaterThan(0);
    expect(await s.db.admin().command({ endSessions: [] })).toMatchObject({ ok: 1 });
  });

  test("an unknown command fails with code 59 CommandNotFound", async () => {
    const err = await rejection(s.db.command({ frobnicate: 1 }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(59);
    expect(err.codeName).toBe("CommandNotFound");
    expect(err.message).toContain("no such command: 'frobnicate'");
  });

  test("transactions are refused on a standalone with code 20", async () => {
    const session = s.client.startSession();
    try {
      session.startTransaction();
      const err = await rejection(s.db.collection<Loose>(collName()).insertOne({ a: 1 }, { session }));
      expect(err.code).toBe(20);
    } finally {
      await session.endSession();
    }
  });

  test("create, listCollections (filter, nameOnly), drop", async () => {
    const a = collName("lc");
    const b = collName("lc");
    await s.db.createCollection(a);
    await s.db.collection<Loose>(b).insertOne({ x: 1 });
    expect((await rejection(s.db.createCollection(a))).code).toBe(48);
    const full = await s.db.listCollections({ name: a }).toArray();
    expect(full).toHaveLength(1);
    expect(full[0]).toMatchObject({ name: a, type: "collection", options: {}, info: { readOnly: false } });
    const names = (await s.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([a, b]));
    expect(await s.db.collection<Loose>(a).drop()).toBe(true);
    const after = (await s.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(after).not.toContain(a);
    expect(after).toContain(b);
  });

  test("listDatabases and dropDatabase", async () => {
    const other = s.client.db(`${s.db.databaseName}_other`);
    await other.collection("x").insertOne({ a: 1 });
    const list = await s.client.db("admin").admin().listDatabases();
    expect(list.databases.map((d) => d.name)).toEqual(expect.arrayContaining([s.db.databaseName, other.databaseName]));
    const names = await s.client.db("admin").admin().listDatabases({ nameOnly: true });
    expect(names.databases.map((d) => d.name)).toContain(other.databaseName);
    expect(await other.dropDatabase()).toBe(true);
    const after = await s.client.db("admin").admin().listDatabases();
    expect(after.databases.map((d) => d.name)).not.toContain(other.databaseName);
    expect(await other.collection("x").countDocuments()).toBe(0);
  });
});
