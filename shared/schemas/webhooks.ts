import { z } from "zod";
import { contract } from "../action";
import { EVENT_SURFACES, eventKinds, type EventSurface } from "../events/catalog";
import { httpUrl, orgId, uuid } from "../validation";
import { IdempotencyKey } from "./idempotency-key";
import { PageParams, pageQuery, type ListPage } from "./pagination";
import { listOf, listPageOf, resourceId, timestamp } from "./resource";

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

export const WebhookEndpointResource = z.strictObject({
  id: resourceId,
  object: z.literal("webhook_endpoint"),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  created_at: timestamp,
});
export type WebhookEndpointResource = z.output<typeof WebhookEndpointResource>;
export const WebhookEndpointList = listOf(WebhookEndpointResource);

/** The dashboard's and `/admin`'s view of an endpoint: whose it is and which surface's events it takes. */
export const AdminWebhookEndpointResource = WebhookEndpointResource.extend({ org_id: resourceId, surface: z.enum(EVENT_SURFACES) });
export type AdminWebhookEndpointResource = z.output<typeof AdminWebhookEndpointResource>;
export const AdminWebhookEndpointList = listOf(AdminWebhookEndpointResource);

/** The creation response: the only place the secret ever appears (`whsec_…`, the Standard Webhooks signing secret). */
export const CreatedWebhookEndpoint = WebhookEndpointResource.pick({ id: true, object: true, url: true, events: true }).extend({ secret: z.string() });
export type CreatedWebhookEndpoint = z.output<typeof CreatedWebhookEndpoint>;

/** docs/webhooks.md#delivery-states */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "dead"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DeliveryAttemptResource = z.strictObject({
  /** 1-based within its series. */
  attempt: z.number().int().min(1),
  /** 0 for the first series, n for the n-th redelivery. */
  series: z.number().int().min(0),
  attempted_at: timestamp,
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().min(0),
});
export type DeliveryAttemptResource = z.output<typeof DeliveryAttemptResource>;

export const WebhookDeliveryResource = z.strictObject({
  id: resourceId,
  object: z.literal("webhook_delivery"),
  endpoint_id: resourceId,
  event_id: resourceId,
  event: z.string(),
  webhook_id: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  /** Why a dead delivery stopped: its attempts ran out, or its endpoint was inactive when it was due. */
  dead_reason: z.enum(["attempts_exhausted", "endpoint_inactive"]).nullable(),
  attempts: z.array(DeliveryAttemptResource),
  next_attempt_at: timestamp.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type WebhookDeliveryResource = z.output<typeof WebhookDeliveryResource>;
export const WebhookDeliveryList = listPageOf(WebhookDeliveryResource);

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
