import { z } from "zod";
import { contract } from "../action";
import { EVENT_SURFACES, eventKinds, type EventSurface } from "../events/catalog";
import { httpUrl, orgId, uuid } from "../validation";
import { IdempotencyKey } from "./idempotency-key";
import { PageParams, pageQuery, type ListPage } from "./pagination";

/** Webhook contracts, shared by the gateway (HTTP input) and the webhooks service (action params). */


const eventList = z.array(z.string(), { message: "must be an array of event kinds" }).min(1, "must not be empty");

/** Each subscribed kind must be one of the surface's: every unknown one is named with its position. */
function knownKinds(surface: EventSurface, events: string[] | undefined, ctx: z.RefinementCtx): void {
  const kinds = eventKinds(surface);
  events?.forEach((kind, i) => {
    if (!kinds.includes(kind)) ctx.addIssue({ code: "custom", path: ["events", i], message: `'${kind}' is not an event kind (expected one of ${kinds.join(", ")})` });
  });
}

/** `POST /v1/webhooks`: the article surface's kinds only (rule: an endpoint subscribes only to its surface's event kinds). */
export const CreateWebhookBody = z
  .strictObject({ url: httpUrl, events: eventList.optional() })
  .superRefine((body, ctx) => knownKinds("articles", body.events, ctx));

/**
 * The action behind it. `surface` is for internal callers (other surfaces' services, tests):
 * the HTTP contract above has no such field, so an API client always registers article events.
 */
export const CreateEndpointParams = z
  .strictObject({
    org_id: orgId,
    surface: z.enum(EVENT_SURFACES).default("articles"),
    url: httpUrl,
    events: eventList.optional(),
    idempotency_key: IdempotencyKey.optional(),
  })
  .superRefine((params, ctx) => knownKinds(params.surface, params.events, ctx));
export type CreateEndpointInput = z.output<typeof CreateEndpointParams>;

export const ListEndpointsParams = z.strictObject({ org_id: orgId });

export const SetEndpointActiveBody = z.strictObject({ active: z.boolean() });
export const SetEndpointActiveParams = SetEndpointActiveBody.extend({ id: uuid });

export const DeliveriesQuery = z.strictObject(pageQuery({ defaultLimit: 20, maxLimit: 100 }));
export const ListDeliveriesParams = PageParams.extend({ id: uuid });
export const DeliveryPath = z.strictObject({ id: uuid });

const dateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" });

/** What the pipeline's outbox hands over (services/pipeline/outbox.ts); always article events. */
export const RecordEventsParams = z.strictObject({
  events: z
    .array(z.strictObject({ id: uuid, org_id: orgId, kind: z.string(), payload: z.record(z.string(), z.unknown()), created_at: dateTime }))
    .max(500, "must hold at most 500 events"),
});

/** Any surface's event: validated against the catalog, then recorded and delivered like a job event. */
export const PublishParams = z.strictObject({
  org_id: orgId,
  kind: z.string().min(1, "must not be empty"),
  payload: z.unknown(),
  /** Makes a repeated publish of the same event a no-op; a new id when absent. */
  id: uuid.optional(),
  /** Needed only where the kind exists on several surfaces (`job.*`). */
  surface: z.enum(EVENT_SURFACES).optional(),
});

export interface WebhookEndpointResource {
  id: string;
  object: "webhook_endpoint";
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
}

/** The dashboard's and `/admin`'s view of an endpoint: whose it is and which surface's events it takes. */
export interface AdminWebhookEndpointResource extends WebhookEndpointResource {
  org_id: string;
  surface: EventSurface;
}

/** The creation response: the only place the secret ever appears. */
export interface CreatedWebhookEndpoint {
  id: string;
  object: "webhook_endpoint";
  url: string;
  events: string[];
  secret: string;
}

/** docs/webhooks.md#delivery-states */
export type DeliveryStatus = "pending" | "delivered" | "failed" | "dead";

export interface DeliveryAttemptResource {
  /** 1-based within its series. */
  attempt: number;
  /** 0 for the first series, n for the n-th redelivery. */
  series: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface WebhookDeliveryResource {
  id: string;
  object: "webhook_delivery";
  endpoint_id: string;
  event_id: string;
  event: string;
  webhook_id: string;
  status: DeliveryStatus;
  /** Why a dead delivery stopped: its attempts ran out, or its endpoint was inactive when it was due. */
  dead_reason: "attempts_exhausted" | "endpoint_inactive" | null;
  attempts: DeliveryAttemptResource[];
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** `webhooks.recordEvents`' reply: events seen for the first time, deliveries created, events refused by the catalog. */
export interface RecordEventsReply {
  recorded: number;
  deliveries: number;
  rejected: number;
}

// The webhooks service's actions other services call: params and reply declared once (shared/action.ts `contract`).
export const WebhooksActions = {
  recordEvents: contract<RecordEventsReply>()("webhooks.recordEvents", RecordEventsParams),
  adminListEndpoints: contract<{ object: "list"; data: AdminWebhookEndpointResource[] }>()("webhooks.adminListEndpoints", ListEndpointsParams),
  setEndpointActive: contract<AdminWebhookEndpointResource>()("webhooks.setEndpointActive", SetEndpointActiveParams),
  listDeliveries: contract<ListPage<WebhookDeliveryResource>>()("webhooks.listDeliveries", ListDeliveriesParams),
  redeliver: contract<WebhookDeliveryResource>()("webhooks.redeliver", DeliveryPath),
};
