import os from "node:os";
import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { serve, zodAction } from "../../shared/action";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { dbMixin, type DbService } from "../../shared/db/mixin";
import { parseEventPayload, resolveSurface } from "../../shared/events/catalog";
import { newId } from "../../shared/ids";
import { logFor, rootLogger } from "../../shared/logger";
import { outboundPolicy } from "../../shared/net/policy";
import { CreateEndpointParams, ListEndpointsParams, PublishParams, WebhooksActions } from "../../shared/schemas/webhooks";
import { listDeliveries, redeliver } from "./deliveries";
import { DeliveryDispatcher } from "./dispatcher";
import { createEndpoint, listEndpoints, registrationRules, setEndpointActive } from "./endpoints";
import { articleEventsToRecord, recordEvents, type IncomingEvent } from "./events";
import { WEBHOOK_COLLECTIONS } from "./store";
import { toAdminEndpointResource, toCreatedEndpoint, toDeliveryResource, toEndpointResource } from "./views";

type WebhooksService = Service & DbService & { dispatcher?: DeliveryDispatcher };

const clock = systemClock;
/** Tells every webhooks process (this one included) that deliveries are due now. */
const DELIVERIES_DUE = "webhooks.deliveriesDue";

async function recordAndAnnounce(svc: WebhooksService, ctx: Context, incoming: IncomingEvent[]) {
  const outcome = await recordEvents(svc.db, incoming, clock);
  if (outcome.deliveries > 0) ctx.broadcast(DELIVERIES_DUE, {});
  return outcome;
}

/** Webhook endpoints, the event record, and signed, durable, retried delivery (docs/webhooks.md). */
const WebhooksServiceSchema: ServiceSchema<ServiceSettingSchema, WebhooksService> = {
  name: "webhooks",
  mixins: [dbMixin("webhooks", WEBHOOK_COLLECTIONS)],

  actions: {
    /** `POST /v1/webhooks`; internal callers may pass `surface` to subscribe to another surface's kinds. */
    createEndpoint: zodAction(CreateEndpointParams, async (params, _ctx, svc: WebhooksService) =>
      toCreatedEndpoint(await createEndpoint(svc.db, params, registrationRules(config()), clock)),
    ),

    /** `GET /v1/webhooks`: the article surface's endpoints. */
    listEndpoints: zodAction(ListEndpointsParams, async ({ org_id }, _ctx, svc: WebhooksService) => ({
      object: "list",
      data: (await listEndpoints(svc.db, org_id, "articles")).map(toEndpointResource),
    })),

    /** `GET /admin/orgs/:org_id/webhooks`: every surface's endpoints of the organization. */
    adminListEndpoints: serve(WebhooksActions.adminListEndpoints, async ({ org_id }, _ctx, svc: WebhooksService) => ({
      object: "list",
      data: (await listEndpoints(svc.db, org_id)).map(toAdminEndpointResource),
    })),

    setEndpointActive: serve(WebhooksActions.setEndpointActive, async ({ id, active }, _ctx, svc: WebhooksService) =>
      toAdminEndpointResource(await setEndpointActive(svc.db, id, active, clock)),
    ),

    listDeliveries: serve(WebhooksActions.listDeliveries, ({ id, ...page }, _ctx, svc: WebhooksService) => listDeliveries(svc.db, id, page)),

    redeliver: serve(WebhooksActions.redeliver, async ({ id }, ctx, svc: WebhooksService) => {
      const delivery = await redeliver(svc.db, id, clock);
      ctx.broadcast(DELIVERIES_DUE, {});
      return toDeliveryResource(delivery);
    }),

    /** The pipeline's outbox hands over job events here, at least once; a malformed one is logged and skipped. */
    recordEvents: serve(WebhooksActions.recordEvents, async ({ events }, ctx, svc: WebhooksService) => {
      const valid = articleEventsToRecord(events, (e, problem) =>
        logFor(ctx, { org_id: e.org_id }).error({ event_id: e.id, kind: e.kind, problem }, "job event breaks the event catalog; not delivered"),
      );
      return { ...(await recordAndAnnounce(svc, ctx, valid)), rejected: events.length - valid.length };
    }),

    /** Other surfaces' events: validated against the catalog (400 on a mismatch), then delivered like job events. */
    publish: zodAction(PublishParams, async (params, ctx, svc: WebhooksService) => {
      const surface = resolveSurface(params.kind, params.surface);
      const id = params.id ?? newId();
      const payload = parseEventPayload(surface, params.kind, params.payload);
      const outcome = await recordAndAnnounce(svc, ctx, [{ id, org_id: params.org_id, surface, kind: params.kind, payload, created_at: clock.now() }]);
      return { id, ...outcome };
    }),
  },

  events: {
    [DELIVERIES_DUE](this: WebhooksService) {
      this.dispatcher?.wake();
    },
  },

  started(this: WebhooksService) {
    const cfg = config();
    this.dispatcher = new DeliveryDispatcher(
      {
        owner: `${os.hostname()}:${process.pid}:${this.broker.nodeID}`,
        concurrency: cfg.WEBHOOK_CONCURRENCY,
        perEndpointConcurrency: cfg.WEBHOOK_PER_ENDPOINT_CONCURRENCY,
        pollMs: cfg.WEBHOOK_POLL_MS,
        timeoutMs: cfg.WEBHOOK_TIMEOUT_MS,
        retryDelaysMs: cfg.WEBHOOK_RETRY_DELAYS_MS,
        policy: outboundPolicy(cfg),
      },
      { db: () => this.db, clock, log: rootLogger().child({ mod: "webhooks.dispatcher" }) },
    );
    this.dispatcher.start();
  },

  async stopped(this: WebhooksService) {
    await this.dispatcher?.stop();
  },
};

export default WebhooksServiceSchema;
