import type { Db } from "mongodb";
import { insertNew } from "../../shared/db/duplicate-key";
import type { Clock } from "../../shared/clock";
import { parseEventPayload, type EventSurface } from "../../shared/events/catalog";
import { newId } from "../../shared/ids";
import { deliveries, endpoints, events, type DeliveryDoc, type EndpointDoc, type EventDoc } from "./store";

export interface IncomingEvent {
  id: string;
  org_id: string;
  surface: EventSurface;
  kind: string;
  /** Already validated against the catalog. */
  payload: Record<string, unknown>;
  created_at: Date;
}

/** A job event as the pipeline's outbox hands it over (services/pipeline/outbox.ts). */
export interface HandedOverEvent {
  id: string;
  org_id: string;
  kind: string;
  payload: Record<string, unknown>;
  created_at: string;
}

/**
 * The article surface's events to record from a hand-over. One whose payload breaks the catalog is
 * left out and passed to `reject` rather than failing the batch: a malformed event must not block the
 * outbox behind it, and the pipeline would hand it over again forever.
 */
export function articleEventsToRecord(handed: HandedOverEvent[], reject: (event: HandedOverEvent, problem: string) => void): IncomingEvent[] {
  const valid: IncomingEvent[] = [];
  for (const e of handed) {
    try {
      valid.push({ ...e, surface: "articles", payload: parseEventPayload("articles", e.kind, e.payload), created_at: new Date(e.created_at) });
    } catch (err) {
      reject(e, (err as Error).message);
    }
  }
  return valid;
}

export interface RecordOutcome {
  /** Events seen for the first time. */
  recorded: number;
  /** Deliveries created by this call. */
  deliveries: number;
}

/** The delivery body (rule: a delivery body is `{ event, data }`): serialized once, so every attempt signs and sends the same bytes. */
export function eventBody(kind: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ event: kind, data: payload });
}

/** `msg_` + the delivery id without dashes: the `webhook-id` receivers deduplicate on. */
export const webhookIdFor = (deliveryId: string): string => `msg_${deliveryId.replace(/-/g, "")}`;

/**
 * Records events idempotently (the event id is the key) and fans each out to the active endpoints
 * of its organization and surface subscribed to its kind: one delivery per (event, endpoint),
 * stored before any attempt. A repeated call changes nothing, except to finish a fan-out that a
 * crash interrupted (the unique (event, endpoint) key keeps that from duplicating deliveries).
 */
export async function recordEvents(db: Db, incoming: IncomingEvent[], clock: Clock): Promise<RecordOutcome> {
  if (!incoming.length) return { recorded: 0, deliveries: 0 };
  const now = clock.now();
  const recorded = await insertNew(
    events(db),
    incoming.map((e) => ({
      _id: e.id,
      org_id: e.org_id,
      surface: e.surface,
      kind: e.kind,
      payload: e.payload,
      body: eventBody(e.kind, e.payload),
      created_at: e.created_at,
      recorded_at: now,
      fanned_out: false,
    })),
  );
  const unfinished = await events(db)
    .find({ _id: { $in: incoming.map((e) => e.id) }, fanned_out: false }, { projection: { body: 0, payload: 0 } })
    .toArray();
  if (!unfinished.length) return { recorded, deliveries: 0 };
  const created = await insertNew(deliveries(db), await deliveriesFor(db, unfinished, now));
  await events(db).updateMany({ _id: { $in: unfinished.map((e) => e._id) } }, { $set: { fanned_out: true } });
  return { recorded, deliveries: created };
}

async function deliveriesFor(db: Db, evts: Pick<EventDoc, "_id" | "org_id" | "surface" | "kind">[], now: Date): Promise<DeliveryDoc[]> {
  const subscribers = new Map<string, Promise<EndpointDoc[]>>();
  const out: DeliveryDoc[] = [];
  for (const event of evts) {
    const audience = `${event.org_id}/${event.surface}`;
    if (!subscribers.has(audience)) subscribers.set(audience, endpoints(db).find({ org_id: event.org_id, surface: event.surface, active: true }).toArray());
    for (const endpoint of await subscribers.get(audience)!) {
      if (!endpoint.events.includes(event.kind)) continue;
      const id = newId();
      out.push({
        _id: id,
        webhook_id: webhookIdFor(id),
        event_id: event._id,
        endpoint_id: endpoint._id,
        org_id: event.org_id,
        kind: event.kind,
        status: "pending",
        dead_reason: null,
        series: 0,
        attempt_count: 0,
        attempts: [],
        next_attempt_at: now,
        lease: null,
        fence: 0,
        created_at: now,
        updated_at: now,
      });
    }
  }
  return out;
}
