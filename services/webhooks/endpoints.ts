import type { Db } from "mongodb";
import type { Clock } from "../../shared/clock";
import type { Config } from "../../shared/config";
import { NotFoundError, ValidationError } from "../../shared/errors";
import { eventKinds, type EventSurface } from "../../shared/events/catalog";
import { generateWebhookSecret } from "../../shared/events/signer";
import { assertSameRequest, idForKey, insertOrReplay, requestHash } from "../../shared/idempotency";
import { newId } from "../../shared/ids";
import { outboundPolicy } from "../../shared/net/policy";
import { registerOutboundUrl, type HostResolver, type UrlPolicy } from "../../shared/net/url-guard";
import type { CreateEndpointInput } from "../../shared/schemas/webhooks";
import { endpoints, type EndpointDoc } from "./store";

/** Bounds the fan-out of one event (Stripe allows 16); docs/webhooks.md#decisions. */
export const MAX_ENDPOINTS_PER_ORG = 50;

export interface RegistrationRules {
  policy: UrlPolicy;
  requireHttps: boolean;
  /** DNS for the registration check; tests inject answers. */
  resolver?: HostResolver;
}

export function registrationRules(cfg: Pick<Config, "NODE_ENV" | "OUTBOUND_ALLOW_LOOPBACK">): RegistrationRules {
  return { policy: outboundPolicy(cfg), requireHttps: cfg.NODE_ENV === "production" };
}

/** Registers an endpoint after the URL guard (syntax and DNS) accepts its URL, with a new signing secret. */
export async function createEndpoint(db: Db, params: CreateEndpointInput, rules: RegistrationRules, clock: Clock): Promise<EndpointDoc> {
  const { idempotency_key: key, ...input } = params;
  const keyed = key ? { _id: idForKey("webhooks.endpoint", input.org_id, key), request_hash: requestHash(input) } : { _id: newId() };
  if (keyed.request_hash) {
    // A retry of a creation that was stored: its first outcome, secret included, before any check that could now refuse it.
    const earlier = await endpoints(db).findOne({ _id: keyed._id });
    if (earlier) return (assertSameRequest(earlier.request_hash, keyed.request_hash), earlier);
  }
  if (rules.requireHttps && new URL(input.url).protocol !== "https:") throw new ValidationError("url: must be an https URL");
  const url = await registerOutboundUrl(input.url, rules.policy, { resolver: rules.resolver });
  if ((await endpoints(db).countDocuments({ org_id: input.org_id })) >= MAX_ENDPOINTS_PER_ORG) {
    throw new ValidationError(`url: an organization can register at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`);
  }
  const now = clock.now();
  const doc: EndpointDoc = {
    ...keyed,
    org_id: input.org_id,
    surface: input.surface,
    url,
    events: [...new Set(input.events ?? eventKinds(input.surface))],
    secret: generateWebhookSecret(),
    active: true,
    created_at: now,
    updated_at: now,
  };
  return (await insertOrReplay(endpoints(db), doc)).doc;
}

/** Newest first; all of them, since an organization has at most MAX_ENDPOINTS_PER_ORG. */
export function listEndpoints(db: Db, orgId: string, surface?: EventSurface): Promise<EndpointDoc[]> {
  return endpoints(db)
    .find(surface ? { org_id: orgId, surface } : { org_id: orgId })
    .sort({ created_at: -1, _id: -1 })
    .toArray();
}

export async function requireEndpoint(db: Db, id: string): Promise<EndpointDoc> {
  const doc = await endpoints(db).findOne({ _id: id });
  if (!doc) throw new NotFoundError("webhook endpoint");
  return doc;
}

/** An inactive endpoint is sent nothing: no new deliveries, and due ones end as dead (docs/webhooks.md). */
export async function setEndpointActive(db: Db, id: string, active: boolean, clock: Clock): Promise<EndpointDoc> {
  const doc = await endpoints(db).findOneAndUpdate({ _id: id }, { $set: { active, updated_at: clock.now() } }, { returnDocument: "after" });
  if (!doc) throw new NotFoundError("webhook endpoint");
  return doc;
}
