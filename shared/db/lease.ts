import type { Collection, Document, Filter, FindOneAndUpdateOptions, UpdateFilter, WithId } from "mongodb";

/**
 * Claim and fence: the one way a worker takes a document (a job, a webhook delivery) for itself.
 * A claim sets a lease (owner, expiry) and bumps the document's `fence`; every later write of the
 * claimer is conditioned on that fence, so a worker whose lease lapsed and was taken over cannot
 * write any more. A lapsed lease is the mark of a worker that died: the document is free again.
 */
export interface Lease {
  owner: string;
  expires_at: Date;
}

export interface Leased {
  _id: string;
  lease: Lease | null;
  fence: number;
}

/** Matches a document no live lease holds. */
export function free(now: Date): { $or: [{ lease: null }, { "lease.expires_at": { $lte: Date } }] } {
  return { $or: [{ lease: null }, { "lease.expires_at": { $lte: now } }] };
}

export interface ClaimOptions {
  owner: string;
  leaseMs: number;
  now: Date;
  /** More fields of the lease itself (e.g. when the attempt it covers started). */
  leaseExtra?: Record<string, unknown>;
  /** What the claim sets and increments besides the lease and the fence. */
  set?: Record<string, unknown>;
  inc?: Record<string, number>;
  sort?: FindOneAndUpdateOptions["sort"];
  /** The document as it was before the claim, or after it (the default). */
  returnDocument?: "before" | "after";
}

/** Claims one document matching `filter` that no live lease holds: atomic, so two claimers never both hold it. */
export async function claimOne<T extends Leased>(col: Collection<T>, filter: Filter<T>, opts: ClaimOptions): Promise<WithId<T> | null> {
  const lease = { owner: opts.owner, expires_at: new Date(opts.now.getTime() + opts.leaseMs), ...opts.leaseExtra };
  const update = { $set: { ...opts.set, lease }, $inc: { ...opts.inc, fence: 1 } } as unknown as UpdateFilter<T>;
  return col.findOneAndUpdate({ ...filter, ...free(opts.now) } as unknown as Filter<T>, update, {
    ...(opts.sort ? { sort: opts.sort } : {}),
    returnDocument: opts.returnDocument ?? "after",
  });
}

/** Applies `update` only while `fence` is still the document's fence; false when another claimer has taken it since. */
export async function updateFenced<T extends Document & { fence: number }>(col: Collection<T>, id: T["_id"], fence: number, update: UpdateFilter<T>): Promise<boolean> {
  const res = await col.updateOne({ _id: id, fence } as Filter<T>, update);
  return res.matchedCount === 1;
}

/** Extends a held lease by `leaseMs` from `now`, under the fence. */
export function renewLease<T extends Leased>(col: Collection<T>, id: string, fence: number, leaseMs: number, now: Date, set: Record<string, unknown> = {}): Promise<boolean> {
  return updateFenced(col, id, fence, { $set: { ...set, "lease.expires_at": new Date(now.getTime() + leaseMs) } } as unknown as UpdateFilter<T>);
}
