import type { Collection, Db } from "mongodb";
import type { CollectionSpec } from "../../shared/db/mixin";
import type { EventSurface } from "../../shared/events/catalog";
import type { DeliveryStatus, WebhookDeliveryResource } from "../../shared/schemas/webhooks";

export interface EndpointDoc {
  _id: string;
  org_id: string;
  /** Whose event kinds it subscribes to; `articles` for every endpoint created over the API. */
  surface: EventSurface;
  url: string;
  events: string[];
  /**
   * The signing secret (`whsec_…`). HMAC signing needs the key itself, so it cannot be hashed like
   * an API key; it lives only in this database, is never returned after creation and never logged.
   */
  secret: string;
  active: boolean;
  /** Created under an Idempotency-Key (its id derives from the key): the hash of that request (shared/idempotency.ts). */
  request_hash?: string;
  created_at: Date;
  updated_at: Date;
}

/** An event as recorded: `_id` is the event id, which makes recording it idempotent. */
export interface EventDoc {
  _id: string;
  org_id: string;
  surface: EventSurface;
  kind: string;
  payload: Record<string, unknown>;
  /** The exact bytes every delivery of this event sends and signs: `{"event":…,"data":…}`. */
  body: string;
  created_at: Date;
  recorded_at: Date;
  /** False until one delivery per subscribed endpoint exists; a repeated recording finishes the fan-out. */
  fanned_out: boolean;
}

export interface AttemptRecord {
  attempt: number;
  series: number;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** The process that made it (operations only). */
  node: string;
}

export interface DeliveryLease {
  owner: string;
  expires_at: Date;
  /** When the attempt under this lease began: recorded as an interrupted attempt if its holder dies. */
  started_at: Date;
}

/** One event to one endpoint (docs/webhooks.md#delivery-states). */
export interface DeliveryDoc {
  _id: string;
  /** `webhook-id` on every attempt of this delivery, redeliveries included. */
  webhook_id: string;
  event_id: string;
  endpoint_id: string;
  org_id: string;
  kind: string;
  status: DeliveryStatus;
  dead_reason: WebhookDeliveryResource["dead_reason"];
  /** Redeliveries so far: each starts a new series of attempts. */
  series: number;
  /** Attempts claimed in the current series (an interrupted one included). */
  attempt_count: number;
  attempts: AttemptRecord[];
  /** When the next attempt is due; null once delivered or dead. */
  next_attempt_at: Date | null;
  lease: DeliveryLease | null;
  /** Incremented by every claim: a write carrying an older fence is from a process that lost the delivery. */
  fence: number;
  created_at: Date;
  updated_at: Date;
}

export const ENDPOINTS = "endpoints";
export const EVENTS = "events";
export const DELIVERIES = "deliveries";

export const WEBHOOK_COLLECTIONS: CollectionSpec[] = [
  {
    name: ENDPOINTS,
    indexes: [
      { key: { org_id: 1, created_at: -1 }, name: "org_recent" },
      { key: { org_id: 1, surface: 1, active: 1 }, name: "org_subscribers" },
    ],
  },
  { name: EVENTS, indexes: [] },
  {
    name: DELIVERIES,
    indexes: [
      { key: { event_id: 1, endpoint_id: 1 }, name: "one_delivery_per_event_and_endpoint", unique: true },
      { key: { status: 1, next_attempt_at: 1 }, name: "due" },
      { key: { endpoint_id: 1, created_at: -1, _id: -1 }, name: "endpoint_recent" },
    ],
  },
];

export const endpoints = (db: Db): Collection<EndpointDoc> => db.collection<EndpointDoc>(ENDPOINTS);
export const events = (db: Db): Collection<EventDoc> => db.collection<EventDoc>(EVENTS);
export const deliveries = (db: Db): Collection<DeliveryDoc> => db.collection<DeliveryDoc>(DELIVERIES);
