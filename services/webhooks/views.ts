import type { AdminWebhookEndpointResource, CreatedWebhookEndpoint, WebhookDeliveryResource, WebhookEndpointResource } from "../../shared/schemas/webhooks";
import type { DeliveryDoc, EndpointDoc } from "./store";

/** The endpoint as `GET /v1/webhooks` lists it: never the secret. */
export function toEndpointResource(doc: EndpointDoc): WebhookEndpointResource {
  return { id: doc._id, object: "webhook_endpoint", url: doc.url, events: doc.events, active: doc.active, created_at: doc.created_at.toISOString() };
}

/** The dashboard's view adds whose endpoint it is and which surface's events it takes. */
export function toAdminEndpointResource(doc: EndpointDoc): AdminWebhookEndpointResource {
  return { ...toEndpointResource(doc), org_id: doc.org_id, surface: doc.surface };
}

/** The creation response (rule: a webhook secret is shown once): the one place the secret is shown. */
export function toCreatedEndpoint(doc: EndpointDoc): CreatedWebhookEndpoint {
  return { id: doc._id, object: "webhook_endpoint", url: doc.url, events: doc.events, secret: doc.secret };
}

export function toDeliveryResource(doc: DeliveryDoc): WebhookDeliveryResource {
  return {
    id: doc._id,
    object: "webhook_delivery",
    endpoint_id: doc.endpoint_id,
    event_id: doc.event_id,
    event: doc.kind,
    webhook_id: doc.webhook_id,
    status: doc.status,
    dead_reason: doc.dead_reason,
    attempts: doc.attempts.map((a) => ({
      attempt: a.attempt,
      series: a.series,
      attempted_at: a.attempted_at.toISOString(),
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
    })),
    next_attempt_at: doc.next_attempt_at ? doc.next_attempt_at.toISOString() : null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}
