import type { Db } from "mongodb";
import type { Clock } from "../../shared/clock";
import { claimOne, free, updateFenced } from "../../shared/db/lease";
import { pageNewestFirst, type PageRequest } from "../../shared/db/paging";
import { NotFoundError, ValidationError } from "../../shared/errors";
import type { ListPage } from "../../shared/schemas/pagination";
import type { DeliveryStatus, WebhookDeliveryResource } from "../../shared/schemas/webhooks";
import { webhookDeliveries } from "../../shared/metrics";
import { sendAttempt, type AttemptOutcome, type AttemptSettings } from "./attempt";
import { requireEndpoint } from "./endpoints";
import { deliveries, endpoints, events, type AttemptRecord, type DeliveryDoc } from "./store";
import { toDeliveryResource } from "./views";

/** `retryDelaysMs[i]` is the wait after the (i+1)-th failed attempt; one attempt more than delays in all. */
export const maxAttempts = (retryDelaysMs: readonly number[]): number => retryDelaysMs.length + 1;

export interface NextState {
  status: DeliveryStatus;
  next_attempt_at: Date | null;
  dead_reason: DeliveryDoc["dead_reason"];
}

/** The delivery state machine after attempt `attempt` of a series (docs/webhooks.md#delivery-states). */
export function afterAttempt(attempt: number, delivered: boolean, retryDelaysMs: readonly number[], now: Date): NextState {
  if (delivered) return { status: "delivered", next_attempt_at: null, dead_reason: null };
  if (attempt >= maxAttempts(retryDelaysMs)) return { status: "dead", next_attempt_at: null, dead_reason: "attempts_exhausted" };
  return { status: "failed", next_attempt_at: new Date(now.getTime() + retryDelaysMs[attempt - 1]), dead_reason: null };
}

const WAITING: DeliveryStatus[] = ["pending", "failed"];

/** Waiting and due: what a claim asks of a delivery besides being free (`claimOne` adds that). */
function due(now: Date) {
  return { status: { $in: WAITING }, next_attempt_at: { $lte: now } };
}

/** Due and not held by a live lease (a lapsed lease is the mark of a process that died mid-attempt). */
function dueFilter(now: Date) {
  return { ...due(now), ...free(now) };
}

export interface DueDelivery {
  _id: string;
  endpoint_id: string;
}

/** Candidates to claim, earliest due first, skipping endpoints this process has no room for. */
export async function findDueDeliveries(db: Db, now: Date, opts: { excludeEndpoints: string[]; limit: number }): Promise<DueDelivery[]> {
  const filter = opts.excludeEndpoints.length ? { ...dueFilter(now), endpoint_id: { $nin: opts.excludeEndpoints } } : dueFilter(now);
  return deliveries(db)
    .find(filter, { projection: { _id: 1, endpoint_id: 1 } })
    .sort({ next_attempt_at: 1 })
    .limit(opts.limit)
    .toArray();
}

export interface Claim {
  /** The delivery as it was before the claim. */
  delivery: DeliveryDoc;
  fence: number;
  /** This attempt's number in its series. */
  attempt: number;
  /** The attempt a dead process left without an outcome, when this claim took over its lapsed lease. */
  interrupted: AttemptRecord | null;
}

/** Claims one delivery if it is still due and free: atomic, so two processes never both hold it. */
export async function claimDelivery(db: Db, id: string, owner: string, leaseMs: number, clock: Clock): Promise<Claim | null> {
  const now = clock.now();
  const before = await claimOne(deliveries(db), { _id: id, ...due(now) }, {
    owner,
    leaseMs,
    now,
    leaseExtra: { started_at: now },
    set: { updated_at: now },
    inc: { attempt_count: 1 },
    returnDocument: "before",
  });
  if (!before) return null;
  const interrupted: AttemptRecord | null = before.lease
    ? {
        attempt: before.attempt_count,
        series: before.series,
        attempted_at: before.lease.started_at,
        status_code: null,
        error: "interrupted: the process making this attempt stopped before recording its outcome",
        duration_ms: Math.max(0, now.getTime() - before.lease.started_at.getTime()),
        node: before.lease.owner,
      }
    : null;
  return { delivery: before, fence: before.fence + 1, attempt: before.attempt_count + 1, interrupted };
}

/** Writes the outcome under the claim's fence; false when another process has taken the delivery since. */
async function settle(db: Db, claim: Claim, next: NextState, records: AttemptRecord[], now: Date): Promise<boolean> {
  const settled = await updateFenced(deliveries(db), claim.delivery._id, claim.fence, {
    $set: { ...next, lease: null, updated_at: now },
    $push: { attempts: { $each: records } },
  });
  if (settled) webhookDeliveries.inc({ outcome: next.status });
  return settled;
}

/**
 * Recorded events never change, so the deliveries of one event's fan-out read its body once.
 * First in, first out, bounded by the characters held (bodies range from a job to a call transcript).
 */
export class EventBodies {
  private readonly bodies = new Map<string, string>();
  private held = 0;

  constructor(private readonly maxChars = 4_000_000) {}

  async get(db: Db, eventId: string): Promise<string | null> {
    const cached = this.bodies.get(eventId);
    if (cached !== undefined) return cached;
    const doc = await events(db).findOne({ _id: eventId }, { projection: { body: 1 } });
    if (!doc) return null;
    this.bodies.set(eventId, doc.body);
    this.held += doc.body.length;
    for (const [id, body] of this.bodies) {
      if (this.held <= this.maxChars) break;
      this.bodies.delete(id);
      this.held -= body.length;
    }
    return doc.body;
  }
}

export interface AttemptDeps extends AttemptSettings {
  retryDelaysMs: readonly number[];
  node: string;
  bodies: EventBodies;
  send?: typeof sendAttempt;
}

/**
 * Makes the claimed attempt and records it: to the endpoint's current URL with its secret, unless
 * the endpoint was deactivated meanwhile (then the delivery ends dead, nothing sent) or the attempt
 * taken over from a dead process was already the last one. Returns whether the write kept its fence.
 */
export async function performClaimedAttempt(db: Db, claim: Claim, deps: AttemptDeps): Promise<boolean> {
  const d = claim.delivery;
  const carried = claim.interrupted ? [claim.interrupted] : [];
  if (claim.attempt > maxAttempts(deps.retryDelaysMs)) {
    return settle(db, claim, { status: "dead", next_attempt_at: null, dead_reason: "attempts_exhausted" }, carried, deps.clock.now());
  }
  // The endpoint is read at every attempt: a deactivation or a new URL applies from the next attempt on.
  const [endpoint, body] = await Promise.all([
    endpoints(db).findOne({ _id: d.endpoint_id }, { projection: { url: 1, secret: 1, active: 1 } }),
    deps.bodies.get(db, d.event_id),
  ]);
  if (body === null) throw new Error(`delivery ${d._id} refers to a missing event ${d.event_id}`);
  if (!endpoint?.active) {
    return settle(db, claim, { status: "dead", next_attempt_at: null, dead_reason: "endpoint_inactive" }, carried, deps.clock.now());
  }
  const outcome: AttemptOutcome = await (deps.send ?? sendAttempt)({ url: endpoint.url, secret: endpoint.secret }, { webhook_id: d.webhook_id, body }, deps);
  const now = deps.clock.now();
  const record: AttemptRecord = {
    attempt: claim.attempt,
    series: d.series,
    attempted_at: outcome.attempted_at,
    status_code: outcome.status_code,
    error: outcome.error,
    duration_ms: outcome.duration_ms,
    node: deps.node,
  };
  return settle(db, claim, afterAttempt(claim.attempt, outcome.delivered, deps.retryDelaysMs, now), [...carried, record], now);
}

/**
 * Sends a dead delivery again under the same `webhook-id`: a new series of attempts, due now.
 * Only a dead delivery can be redelivered, and only while its endpoint is active.
 */
export async function redeliver(db: Db, id: string, clock: Clock): Promise<DeliveryDoc> {
  const current = await deliveries(db).findOne({ _id: id });
  if (!current) throw new NotFoundError("webhook delivery");
  if (current.status !== "dead") throw new ValidationError(`status: only a dead delivery can be redelivered; this one is ${current.status}`);
  const endpoint = await endpoints(db).findOne({ _id: current.endpoint_id }, { projection: { active: 1 } });
  if (!endpoint?.active) throw new ValidationError("endpoint: is inactive; activate it before redelivering");
  const now = clock.now();
  const next = await deliveries(db).findOneAndUpdate(
    { _id: id, status: "dead" },
    { $set: { status: "pending", dead_reason: null, attempt_count: 0, next_attempt_at: now, updated_at: now }, $inc: { series: 1 } },
    { returnDocument: "after" },
  );
  // Another redelivery won the race: this one asked for what is already happening.
  return next ?? (await deliveries(db).findOne({ _id: id }))!;
}

/** An endpoint's deliveries, newest first, paged by `starting_after` (a delivery id of the same endpoint). */
export async function listDeliveries(db: Db, endpointId: string, page: PageRequest): Promise<ListPage<WebhookDeliveryResource>> {
  await requireEndpoint(db, endpointId);
  const { docs, has_more } = await pageNewestFirst(deliveries(db), { endpoint_id: endpointId }, page, { what: "webhook delivery" });
  return { object: "list", data: docs.map(toDeliveryResource), has_more };
}
