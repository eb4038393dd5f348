import { ObjectId } from "bson";
import { decodeRecords, encodeRecord } from "../../shared/embedded-mongo/wal";

describe("embedded-mongo write-ahead log records", () => {
  const recs = [
    { op: "put", db: "d", coll: "c", doc: { _id: new ObjectId(), at: new Date(5), n: 1.5 } },
    { op: "del", db: "d", coll: "c", id: "x" },
    { op: "dropDatabase", db: "d" },
  ];
  const log = Buffer.concat(recs.map(encodeRecord));

  test("round-trips records with their BSON types", () => {
    const { records, validLength } = decodeRecords(log);
    expect(validLength).toBe(log.length);
    expect(records).toEqual(recs);
    expect((records[0].doc as { at: unknown }).at).toBeInstanceOf(Date);
  });

  test("stops before a record cut short at every possible length", () => {
    const lastStart = log.length - encodeRecord(recs[2]).length;
    for (let cut = lastStart; cut < log.length; cut++) {
      const { records, validLength } = decodeRecords(log.subarray(0, cut));
      expect(records).toHaveLength(2);
      expect(validLength).toBe(lastStart);
    }
  });

  test("stops at the first record whose checksum does not match", () => {
    const damaged = Buffer.from(log);
    const second = encodeRecord(recs[0]).length;
    damaged[second + 12] ^= 0xff;
    const { records, validLength } = decodeRecords(damaged);
    expect(records).toHaveLength(1);
    expect(validLength).toBe(second);
  });

  test("an empty or garbage-only log yields nothing", () => {
    expect(decodeRecords(Buffer.alloc(0))).toEqual({ records: [], validLength: 0 });
    expect(decodeRecords(Buffer.from([1, 0, 0, 0, 9, 9, 9, 9, 0])).records).toEqual([]);
  });
});
