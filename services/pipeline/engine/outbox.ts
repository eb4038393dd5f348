import type { Db } from "mongodb";
import { OUTBOX, type OutboxDoc } from "./store";

/** A job event as the webhooks service records it. */
export interface OutboxEvent {
  id: string;
  org_id: string;
  kind: string;
  payload: Record<string, unknown>;
  created_at: string;
}

/**
 * Hands pending job events, oldest first, to `deliver` (the webhooks service records them
 * idempotently by id), then marks them handed over. A crash between the two hands them over
 * again: at least once, never lost. Returns how many were handed over.
 */
export async function drainOutbox(db: Db, deliver: (events: OutboxEvent[]) => Promise<unknown>, now: () => Date, limit = 100): Promise<number> {
  const col = db.collection<OutboxDoc>(OUTBOX);
  const pending = await col.find({ pending: true }).sort({ created_at: 1 }).limit(limit).toArray();
  if (!pending.length) return 0;
  await deliver(
    pending.map((e) => ({ id: e._id, org_id: e.org_id, kind: e.kind, payload: e.payload, created_at: e.created_at.toISOString() })),
  );
  await col.updateMany({ _id: { $in: pending.map((e) => e._id) } }, { $set: { pending: false, delivered_at: now() } });
  return pending.length;
}
