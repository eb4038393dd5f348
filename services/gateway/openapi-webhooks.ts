import { z } from "zod";
import { EVENT_CATALOG, EVENT_SURFACES, type EventSurface } from "../../shared/events/catalog";

/**
 * The document's `webhooks`: one entry per event kind of every surface's catalog (shared/events/catalog.ts),
 * named `{surface}.{kind}` (`job.succeeded` exists on all three surfaces with different payloads). The
 * body is `{event, data}` with `data` from the kind's zod schema (zod 4's JSON Schema output), sent with
 * the Standard Webhooks headers (docs/webhooks.md#signing).
 */

/** When each event fires (spec §6 and the sibling surfaces' §6). */
const WHEN: Record<EventSurface, Record<string, string>> = {
  articles: {
    "job.succeeded": "An article or source-ingest job finished: `data` is the Job without its stages; `result` names what it made.",
    "job.failed": "A job failed; its charged credits were refunded before the event fired. `data.error` explains.",
  },
  recruiting: {
    "job.succeeded": "A recruiting run (`jd_generate`, `screen_batch`, `interview_kit`, `distribute`) finished; a screening run's `result` carries `screening_id` and `screened`.",
    "job.failed": "A recruiting run failed; charged credits were refunded before the event fired. `data.error` explains.",
    "application.received": "A candidate applied through the career page, the embed or the apply API.",
    "screening.completed": "A screening finished and its ranked results are available.",
  },
  voice: {
    "call.started": "A call connected and the agent is live: status `in_progress`; recording, transcript and outcome are null.",
    "call.completed": "A call ended normally: the full call object.",
    "call.failed": "A call never completed (`failed`, `no_answer` or `busy`); `data.error` explains; no voice minutes are billed.",
    "campaign.completed": "Every call of an outbound campaign has landed: the campaign id and its counts.",
    "job.succeeded": "A background analysis job finished: the job object including its output.",
    "job.failed": "A background analysis job failed; charged credits are refunded. `data.error` explains.",
  },
};

const header = (name: string, description: string, pattern: string) => ({ name, in: "header", required: true, description, schema: { type: "string", pattern } });

/** The Standard Webhooks headers every delivery carries. */
const STANDARD_WEBHOOKS_HEADERS = [
  header("webhook-id", "`msg_` + the delivery id: the same on every attempt of a delivery, redeliveries included. Deduplicate on it.", "^msg_[0-9a-f]{32}$"),
  header("webhook-timestamp", "Unix seconds when this attempt was signed (every attempt is signed afresh). Refuse one too far from now.", "^[0-9]+$"),
  header(
    "webhook-signature",
    "`v1,` + base64(HMAC-SHA256(key, `{webhook-id}.{webhook-timestamp}.{raw body}`)), key = the base64-decoded endpoint secret after `whsec_`.",
    "^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$",
  ),
];

const DELIVERY_RULES =
  "POSTed as `application/json` to every active endpoint of the organization subscribed to the kind on its surface. Any 2xx within 10 seconds (WEBHOOK_TIMEOUT_MS) acknowledges; " +
  "anything else is retried (three attempts, at about 30 s and 5 min by default: WEBHOOK_RETRY_DELAYS_MS), then the delivery is `dead` until redelivered. Treat polling as the source of truth and key on `data.id` and `data.status`.";

function bodySchema(kind: string, data: z.ZodType): Record<string, unknown> {
  const schema = z.toJSONSchema(z.strictObject({ event: z.literal(kind), data }), { target: "draft-2020-12", io: "output", unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export function openApiWebhooks(): Record<string, unknown> {
  const webhooks: Record<string, unknown> = {};
  for (const surface of EVENT_SURFACES) {
    for (const [kind, data] of Object.entries(EVENT_CATALOG[surface] as Record<string, z.ZodType>)) {
      const name = `${surface}.${kind}`;
      webhooks[name] = {
        post: {
          operationId: `webhook.${name}`,
          summary: `${kind} (${surface} surface)`,
          description: `${WHEN[surface][kind]} ${DELIVERY_RULES}`,
          tags: ["webhooks"],
          parameters: STANDARD_WEBHOOKS_HEADERS,
          requestBody: { required: true, content: { "application/json": { schema: bodySchema(kind, data) } } },
          responses: {
            "2XX": { description: "Received: the delivery is acknowledged and not sent again." },
            default: { description: "Not received: the attempt is retried (a new `webhook-timestamp` and signature, the same `webhook-id`)." },
          },
        },
      };
    }
  }
  return webhooks;
}

/** The kinds with no sentence in WHEN (openapi.test.ts: none). */
export function undescribedEventKinds(): string[] {
  return EVENT_SURFACES.flatMap((surface) => Object.keys(EVENT_CATALOG[surface]).filter((kind) => !WHEN[surface][kind]).map((kind) => `${surface}.${kind}`));
}
