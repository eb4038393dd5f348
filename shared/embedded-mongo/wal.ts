/**
 * Durability for a data directory: an append-only write-ahead log of write
 * effects plus a periodic snapshot.
 *
 * - Every effect (resulting document, deleted _id, catalog change) is framed
 *   as [u32 length][u32 crc32][BSON] and appended; replies wait for fdatasync.
 * - Group commit: effects appended while a write+fsync is in flight go out
 *   together in the next one, so throughput does not pay one fsync per write.
 * - Compaction: once the log passes `compactBytes`, appends switch to a new
 *   log file at the same instant the in-memory state is captured; the capture
 *   is written to snapshot.tmp, fsynced, renamed over snapshot.bson, the
 *   directory fsynced, and only then are the older log files deleted. Every
 *   effect is an overwrite, so replaying log records the snapshot already
 *   contains is harmless.
 * - Recovery: load the snapshot, replay the log files it does not cover, and
 *   stop at the first record that is short or fails its checksum (a torn
 *   write from a crash), truncating it away.
 */
import { promises as fsp } from "fs";
import * as fs from "fs";
import * as path from "path";
import { crc32 } from "zlib";
import { Binary, BSON, UUID } from "bson";
import type { JournalRecord, Store } from "./store";
import type { Doc } from "./values";

export interface WalLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const SNAPSHOT = "snapshot.bson";
const SNAPSHOT_TMP = "snapshot.tmp";
const HEADER = 8;
const walName = (seq: number) => `wal-${String(seq).padStart(8, "0")}.log`;
const WAL_RE = /^wal-(\d{8})\.log$/;

export function encodeRecord(rec: Doc): Buffer {
  const u = BSON.serialize(rec);
  const body = Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  const out = Buffer.allocUnsafe(HEADER + body.length);
  out.writeUInt32LE(body.length, 0);
  out.writeUInt32LE(crc32(body), 4);
  body.copy(out, HEADER);
  return out;
}

/** Decodes records up to the first incomplete or corrupt one; `validLength` is where that one starts. */
export function decodeRecords(buf: Buffer): { records: Doc[]; validLength: number } {
  const records: Doc[] = [];
  let off = 0;
  while (off + HEADER <= buf.length) {
    const len = buf.readUInt32LE(off);
    if (len < 5 || off + HEADER + len > buf.length) break;
    const body = buf.subarray(off + HEADER, off + HEADER + len);
    if (crc32(body) !== buf.readUInt32LE(off + 4)) break;
    try {
      records.push(BSON.deserialize(body));
    } catch {
      break;
    }
    off += HEADER + len;
  }
  return { records, validLength: off };
}

function toJournal(rec: Doc): JournalRecord {
  if (rec.op === "create" && rec.uuid instanceof Binary && !(rec.uuid instanceof UUID)) rec.uuid = rec.uuid.toUUID();
  return rec as JournalRecord;
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, "r");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Raw descriptors, because compaction must switch log files synchronously (see startCompaction). */
function writeAll(fd: number, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const step = (off: number) =>
      off >= data.length
        ? resolve()
        : fs.write(fd, data, off, data.length - off, null, (err, n) => (err ? reject(err) : step(off + n)));
    step(0);
  });
}

const fdatasync = (fd: number) => new Promise<void>((res, rej) => fs.fdatasync(fd, (e) => (e ? rej(e) : res())));
const fsyncFd = (fd: number) => new Promise<void>((res, rej) => fs.fsync(fd, (e) => (e ? rej(e) : res())));
const closeFd = (fd: number) => new Promise<void>((res, rej) => fs.close(fd, (e) => (e ? rej(e) : res())));

export class Wal {
  private pending: Buffer[] = [];
  private appended = 0;
  private durableSeq = 0;
  private waiters: { target: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private flushing: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private failed: Error | null = null;

  private constructor(
    private readonly dir: string,
    private readonly store: Store,
    private readonly logger: WalLogger,
    private readonly compactBytes: number,
    private fd: number,
    private seq: number,
    private size: number,
  ) {}

  /** Loads the directory into `store`, then journals every later effect of `store` to disk. */
  static async open(dir: string, store: Store, logger: WalLogger, compactBytes: number): Promise<Wal> {
    await fsp.mkdir(dir, { recursive: true });
    await fsp.rm(path.join(dir, SNAPSHOT_TMP), { force: true });
    let firstSeq = 1;
    const snapshot = await fsp.readFile(path.join(dir, SNAPSHOT)).catch(() => null);
    if (snapshot) {
      const { records } = decodeRecords(snapshot);
      if (records[0]?.op !== "snapshot" || records[records.length - 1]?.op !== "end")
        throw new Error(`embedded-mongo: ${path.join(dir, SNAPSHOT)} is incomplete or corrupt`);
      firstSeq = Number(records[0].walSeq);
      for (const r of records.slice(1, -1)) store.apply(toJournal(r));
    }
    const seqs = (await fsp.readdir(dir))
      .map((f) => WAL_RE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    let seq = firstSeq;
    let size = 0;
    let replayed = 0;
    let stopped = false;
    for (const s of seqs) {
      const file = path.join(dir, walName(s));
      if (s < firstSeq || stopped) {
        // Covered by the snapshot, or after a corrupt record (nothing after it can be trusted).
        if (stopped) logger.warn({ file }, "embedded-mongo: discarding log file after a corrupt record");
        await fsp.rm(file, { force: true });
        continue;
      }
      const buf = await fsp.readFile(file);
      const { records, validLength } = decodeRecords(buf);
      for (const r of records) store.apply(toJournal(r));
      replayed += records.length;
      if (validLength < buf.length) {
        logger.warn({ file, dropped: buf.length - validLength }, "embedded-mongo: truncating torn log tail");
        await fsp.truncate(file, validLength);
        stopped = true;
      }
      seq = s;
      size = validLength;
    }
    const file = path.join(dir, walName(seq));
    const fd = fs.openSync(file, "a");
    await fsyncFd(fd);
    await fsyncDir(dir);
    logger.info({ dir, replayed, snapshot: snapshot !== null }, "embedded-mongo: data directory loaded");
    const wal = new Wal(dir, store, logger, compactBytes, fd, seq, size);
    store.journal = (rec) => wal.append(rec);
    return wal;
  }

  append(rec: JournalRecord): void {
    this.pending.push(encodeRecord(rec));
    this.appended++;
    if (!this.flushing) this.flushing = new Promise<void>((r) => setImmediate(r)).then(() => this.flushLoop());
  }

  /** Resolves once everything appended so far is on disk. */
  durable(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.durableSeq >= this.appended) return Promise.resolve();
    const target = this.appended;
    return new Promise((resolve, reject) => this.waiters.push({ target, resolve, reject }));
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.pending.length) {
        const data = Buffer.concat(this.pending);
        const target = this.appended;
        this.pending = [];
        await writeAll(this.fd, data);
        await fdatasync(this.fd);
        this.size += data.length;
        this.durableSeq = target;
        this.waiters = this.waiters.filter((w) => (w.target <= target ? (w.resolve(), false) : true));
        if (this.size >= this.compactBytes && !this.compacting) this.startCompaction();
      }
    } catch (e) {
      this.failed = e instanceof Error ? e : new Error(String(e));
      this.logger.error({ err: this.failed.message }, "embedded-mongo: write-ahead log failed; further writes are refused");
      for (const w of this.waiters) w.reject(this.failed);
      this.waiters = [];
    } finally {
      this.flushing = null;
    }
  }

  /** Switches to a new log file and captures the state in the same tick; the snapshot is written in the background. */
  private startCompaction(): void {
    const nextSeq = this.seq + 1;
    const oldFd = this.fd;
    this.fd = fs.openSync(path.join(this.dir, walName(nextSeq)), "a");
    this.seq = nextSeq;
    this.size = 0;
    const records = this.capture(nextSeq);
    this.compacting = this.writeSnapshot(records, nextSeq, oldFd)
      .catch((e) => this.logger.error({ err: String(e) }, "embedded-mongo: snapshot failed; the log is kept"))
      .finally(() => (this.compacting = null));
  }

  private capture(walSeq: number): Doc[] {
    const out: Doc[] = [{ op: "snapshot", walSeq }];
    for (const [db, colls] of this.store.dbs) {
      for (const c of colls.values()) {
        out.push({ op: "create", db, coll: c.name, options: c.options, uuid: c.uuid });
        for (const ix of c.indexes) out.push({ op: "index", db, coll: c.name, spec: ix.spec });
        for (const doc of c.docs()) out.push({ op: "put", db, coll: c.name, doc });
      }
    }
    out.push({ op: "end" });
    return out;
  }

  private async writeSnapshot(records: Doc[], walSeq: number, oldFd: number): Promise<void> {
    await closeFd(oldFd);
    // The new log file's directory entry must be durable before older files can go.
    await fsyncDir(this.dir);
    const tmp = path.join(this.dir, SNAPSHOT_TMP);
    const fd = fs.openSync(tmp, "w");
    try {
      let chunk: Buffer[] = [];
      let bytes = 0;
      for (const r of records) {
        const b = encodeRecord(r);
        chunk.push(b);
        bytes += b.length;
        if (bytes >= 1 << 20) {
          await writeAll(fd, Buffer.concat(chunk));
          chunk = [];
          bytes = 0;
        }
      }
      await writeAll(fd, Buffer.concat(chunk));
      await fsyncFd(fd);
    } finally {
      await closeFd(fd);
    }
    await fsp.rename(tmp, path.join(this.dir, SNAPSHOT));
    await fsyncDir(this.dir);
    for (const f of await fsp.readdir(this.dir)) {
      const m = WAL_RE.exec(f);
      if (m && Number(m[1]) < walSeq) await fsp.rm(path.join(this.dir, f), { force: true });
    }
    this.logger.info({ walSeq, records: records.length }, "embedded-mongo: snapshot written, log compacted");
  }

  /** Flushes outstanding effects and waits for a running snapshot. */
  async close(): Promise<void> {
    while (this.flushing || this.compacting) await (this.flushing ?? this.compacting);
    this.store.journal = () => undefined;
    await closeFd(this.fd);
  }
}
