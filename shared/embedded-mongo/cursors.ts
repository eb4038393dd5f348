/**
 * Open cursors: the rest of a find/aggregate/list result, handed out by
 * getMore in batches. Results are materialised when the cursor opens, which is
 * safe because stored documents are immutable values.
 */
import { BSON, Long } from "bson";
import { CommandError } from "./errors";
import type { Doc } from "./values";
import { MAX_BSON_SIZE } from "./wire";

interface OpenCursor {
  ns: string;
  docs: Doc[];
  pos: number;
  lastUsed: number;
}

/** Room left for the reply envelope around a batch. */
const BATCH_BYTES = MAX_BSON_SIZE - 64 * 1024;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;

export const cursorNotFound = (id: unknown) => new CommandError(43, "CursorNotFound", `cursor id ${String(id)} not found`);

export class Cursors {
  private readonly open = new Map<number, OpenCursor>();
  private nextId = Math.floor(Math.random() * 1e9) + 1;

  /** Takes up to `limit` documents (and at most ~16MB) starting at `pos`. */
  private static take(docs: Doc[], pos: number, limit: number): Doc[] {
    const out: Doc[] = [];
    let bytes = 0;
    for (let i = pos; i < docs.length && out.length < limit; i++) {
      bytes += BSON.calculateObjectSize(docs[i]);
      if (out.length && bytes > BATCH_BYTES) break;
      out.push(docs[i]);
    }
    return out;
  }

  /** First batch of a result; leaves a cursor open when more remains and `single` is false. */
  first(ns: string, docs: Doc[], batchSize: number | undefined, single: boolean): Doc {
    const batch = Cursors.take(docs, 0, batchSize ?? 101);
    let id = 0;
    if (!single && batch.length < docs.length) {
      id = this.nextId++;
      this.open.set(id, { ns, docs, pos: batch.length, lastUsed: Date.now() });
    }
    return { cursor: { firstBatch: batch, id: Long.fromNumber(id), ns }, ok: 1 };
  }

  getMore(idValue: unknown, ns: string, batchSize: number | undefined): Doc {
    const id = Number(idValue);
    const c = this.open.get(id);
    if (!c) throw cursorNotFound(idValue);
    if (c.ns !== ns)
      throw new CommandError(13, "Unauthorized", `Requested getMore on namespace '${ns}', but cursor belongs to a different namespace ${c.ns}`);
    const batch = Cursors.take(c.docs, c.pos, batchSize && batchSize > 0 ? batchSize : Number.MAX_SAFE_INTEGER);
    c.pos += batch.length;
    c.lastUsed = Date.now();
    const done = c.pos >= c.docs.length;
    if (done) this.open.delete(id);
    return { cursor: { nextBatch: batch, id: Long.fromNumber(done ? 0 : id), ns }, ok: 1 };
  }

  kill(ids: unknown[]): Doc {
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const raw of ids) {
      const id = Number(raw);
      (this.open.delete(id) ? killed : notFound).push(Long.fromNumber(id));
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
  }

  /** Drops cursors idle longer than MongoDB's default 10 minutes. */
  reap(now = Date.now()): void {
    for (const [id, c] of this.open) if (now - c.lastUsed > IDLE_TIMEOUT_MS) this.open.delete(id);
  }
}
