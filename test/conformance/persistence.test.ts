/**
 * Durability of the embedded server's data directory, driven only through the
 * driver against `cli.js` child processes (needs the tsc build in dist/).
 */
import { ChildProcess, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { MongoClient } from "mongodb";

const CLI = path.resolve(__dirname, "../../dist/shared/embedded-mongo/cli.js");

interface Running {
  proc: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

async function startCli(dir: string, extra: string[] = []): Promise<Running> {
  if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npx tsc -p tsconfig.json\` first`);
  const proc = spawn(process.execPath, [CLI, "--port", "0", "--dir", dir, ...extra], { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  let stderr = "";
  proc.stderr!.on("data", (d) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    proc.stdout!.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    void exited.then((code) => reject(new Error(`cli exited with ${code}: ${stderr}`)));
  });
  const { url, port } = JSON.parse(line) as { url: string; port: number };
  expect(url).toBe(`mongodb://127.0.0.1:${port}/?directConnection=true`);
  return { proc, url, exited };
}

const connect = (url: string) => MongoClient.connect(url, { serverSelectionTimeoutMS: 5000 });

describe("persistence of the embedded server (cli.js with --dir)", () => {
  let dir: string;
  const cleanup: (() => Promise<unknown>)[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "embedded-mongo-"));
  });
  afterEach(async () => {
    for (const f of cleanup.splice(0)) await f().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function track(r: Running, client?: MongoClient): void {
    cleanup.push(async () => {
      await client?.close(true);
      r.proc.kill("SIGKILL");
    });
  }

  /** Writes as fast as possible until killed; returns what was acknowledged. */
  async function writeUntilKilled(url: string, kill: () => void) {
    const client = await connect(url);
    const db = client.db("app");
    await db.collection("users").createIndex({ email: 1 }, { unique: true });
    await db.createCollection("empty");
    await db.collection("gone").insertOne({ x: 1 });
    await db.collection("gone").drop();
    const acked = new Set<number>();
    const deleted = new Set<number>();
    /** Deletes sent but not acknowledged may or may not have happened. */
    const deleting = new Set<number>();
    let incAcked = 0;
    let incSent = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const id = w * 1_000_000 + i;
        try {
          await db.collection("users").insertOne({ _id: id, email: `u${id}@x`, at: new Date(id) } as never);
          acked.add(id);
          incSent++;
          await db.collection("counters").updateOne({ _id: "c" } as never, { $inc: { n: 1 } }, { upsert: true });
          incAcked++;
          if (i % 5 === 0) {
            deleting.add(id);
            await db.collection("users").deleteOne({ _id: id } as never);
            deleted.add(id);
          }
        } catch {
          return;
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w + 1));
    await new Promise((r) => setTimeout(r, 700));
    kill();
    stop = true;
    await Promise.all(workers);
    await client.close(true);
    return { acked, deleted, deleting, incAcked, incSent };
  }

  async function verify(url: string, r: Awaited<ReturnType<typeof writeUntilKilled>>): Promise<void> {
    const client = await connect(url);
    try {
      const db = client.db("app");
      const ids = new Set((await db.collection("users").find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id as unknown as number));
      for (const id of r.acked) if (!r.deleting.has(id)) expect(ids.has(id)).toBe(true);
      for (const id of r.deleted) expect(ids.has(id)).toBe(false);
      const n = ((await db.collection("counters").findOne({ _id: "c" } as never))?.n as number) ?? 0;
      expect(n).toBeGreaterThanOrEqual(r.incAcked);
      expect(n).toBeLessThanOrEqual(r.incSent);
      const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();
      expect(names).toEqual(expect.arrayContaining(["counters", "empty", "users"]));
      expect(names).not.toContain("gone");
      // The unique index came back and is enforced.
      const some = [...r.acked].find((id) => !r.deleting.has(id))!;
      await expect(db.collection("users").insertOne({ email: `u${some}@x` })).rejects.toMatchObject({ code: 11000 });
      const one = await db.collection("users").findOne({ _id: some } as never);
      expect(one!.at).toEqual(new Date(some));
    } finally {
      await client.close();
    }
  }

  test("kill -9 loses no acknowledged write", async () => {
    const first = await startCli(dir);
    track(first);
    const result = await writeUntilKilled(first.url, () => first.proc.kill("SIGKILL"));
    await first.exited;
    expect(result.acked.size).toBeGreaterThan(50);
    const second = await startCli(dir);
    track(second);
    await verify(second.url, result);
  });

  test("SIGTERM stops cleanly and everything is there after a restart", async () => {
    const first = await startCli(dir);
    track(first);
    const result = await writeUntilKilled(first.url, () => first.proc.kill("SIGTERM"));
    expect(await first.exited).toBe(0);
    const second = await startCli(dir);
    track(second);
    await verify(second.url, result);
  });

  test("compaction cycles (snapshot + log truncation) keep everything, across kill -9", async () => {
    const first = await startCli(dir, ["--compact-bytes", "20000"]);
    track(first);
    const result = await writeUntilKilled(first.url, () => first.proc.kill("SIGKILL"));
    await first.exited;
    expect(fs.existsSync(path.join(dir, "snapshot.bson"))).toBe(true);
    const second = await startCli(dir, ["--compact-bytes", "20000"]);
    track(second);
    await verify(second.url, result);
    // A second life on top of the snapshot: more writes, a clean stop, a third start.
    const client = await connect(second.url);
    await client.db("app").collection("later").insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i, pad: "p".repeat(100) })) as never[]);
    await client.close();
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const third = await startCli(dir);
    const c3 = await connect(third.url);
    track(third, c3);
    expect(await c3.db("app").collection("later").countDocuments()).toBe(300);
    await verify(third.url, result);
  });

  test("a torn record at the end of the log is dropped and the rest recovers", async () => {
    const first = await startCli(dir);
    track(first);
    const client = await connect(first.url);
    await client.db("app").collection("t").insertMany([{ _id: 1 }, { _id: 2 }] as never[]);
    await client.close();
    first.proc.kill("SIGTERM");
    await first.exited;
    const log = fs.readdirSync(dir).find((f) => f.endsWith(".log"))!;
    // Half a record: a length prefix and a few bytes, as a crash mid-append leaves.
    fs.appendFileSync(path.join(dir, log), Buffer.from([200, 0, 0, 0, 1, 2, 3, 4, 5, 6]));
    const second = await startCli(dir);
    const c2 = await connect(second.url);
    track(second, c2);
    await c2.db("app").collection("t").insertOne({ _id: 3 } as never);
    expect((await c2.db("app").collection("t").find().toArray()).map((d) => d._id)).toEqual([1, 2, 3]);
  });

  test("dropDatabase and dropped indexes persist", async () => {
    const first = await startCli(dir);
    track(first);
    const client = await connect(first.url);
    await client.db("a").collection("x").insertOne({ a: 1 });
    await client.db("b").collection("y").createIndex({ k: 1 }, { unique: true, name: "k" });
    await client.db("b").collection("y").createIndex({ j: 1 }, { name: "j" });
    await client.db("b").collection("y").dropIndex("j");
    await client.db("a").dropDatabase();
    await client.close();
    first.proc.kill("SIGKILL");
    await first.exited;
    const second = await startCli(dir);
    const c2 = await connect(second.url);
    track(second, c2);
    const dbs = (await c2.db("admin").admin().listDatabases()).databases.map((d) => d.name);
    expect(dbs).not.toContain("a");
    expect((await c2.db("b").collection("y").listIndexes().toArray()).map((i) => i.name)).toEqual(["_id_", "k"]);
  });
});
