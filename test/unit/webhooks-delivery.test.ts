import type { Db } from "mongodb";
import { useServiceDatabase } from "../support/test-database";
import type { AttemptOutcome } from "../../services/webhooks/attempt";
import { afterAttempt, claimDelivery, EventBodies, listDeliveries, performClaimedAttempt, redeliver, type AttemptDeps } from "../../services/webhooks/deliveries";
import { createEndpoint, setEndpointActive } from "../../services/webhooks/endpoints";
import { articleEventsToRecord, recordEvents, type IncomingEvent } from "../../services/webhooks/events";
import { deliveries, events, WEBHOOK_COLLECTIONS, type DeliveryDoc } from "../../services/webhooks/store";
import { systemClock, type Clock } from "../../shared/clock";
import type { EventSurface } from "../../shared/events/catalog";
import { newId } from "../../shared/ids";

/** The embedded server in memory, or the real MongoDB at MONGO_URL. */
let db: Db;
useServiceDatabase("webhooks", WEBHOOK_COLLECTIONS, (opened) => (db = opened));

const RULES = { policy: { allowLoopback: true }, requireHttps: false };
const DELAYS = [30_000, 300_000];

/** A clock the test moves by hand. */
function manualClock(start = Date.parse("2025-03-01T12:00:00Z")): Clock & { advance(ms: number): void } {
  let t = start;
  return { now: () => new Date(t), advance: (ms) => void (t += ms) };
}

async function endpoint(org_id: string, opts: { events?: string[]; surface?: EventSurface; url?: string } = {}) {
  return createEndpoint(db, { org_id, surface: opts.surface ?? "articles", url: opts.url ?? "http://127.0.0.1:9/hooks", events: opts.events }, RULES, systemClock);
}

function jobEvent(org_id: string, kind: "job.succeeded" | "job.failed" = "job.succeeded", surface: EventSurface = "articles"): IncomingEvent {
  const id = newId();
  const status = kind === "job.succeeded" ? "succeeded" : "failed";
  return { id: newId(), org_id, surface, kind, payload: { id, type: "ingest_source", status, result: {}, error: status === "failed" ? "boom" : null }, created_at: new Date() };
}

const deliveriesOf = (eventId: string) => deliveries(db).find({ event_id: eventId }).toArray();

describe("delivery state machine", () => {
  const now = new Date("2025-03-01T12:00:00Z");
  it.each([
    [1, true, { status: "delivered", next_attempt_at: null, dead_reason: null }],
    [1, false, { status: "failed", next_attempt_at: new Date(now.getTime() + 30_000), dead_reason: null }],
    [2, false, { status: "failed", next_attempt_at: new Date(now.getTime() + 300_000), dead_reason: null }],
    [3, true, { status: "delivered", next_attempt_at: null, dead_reason: null }],
    [3, false, { status: "dead", next_attempt_at: null, dead_reason: "attempts_exhausted" }],
  ])("attempt %i, delivered %s", (attempt, delivered, next) => {
    expect(afterAttempt(attempt, delivered, DELAYS, now)).toEqual(next);
  });

  it("makes as many attempts as there are delays, plus one", () => {
    expect(afterAttempt(1, false, [], now).status).toBe("dead");
    expect(afterAttempt(4, false, [1, 2, 3, 4], now).status).toBe("failed");
    expect(afterAttempt(5, false, [1, 2, 3, 4], now).status).toBe("dead");
  });
});

describe("recording events", () => {
  it("fans an event out to the active endpoints of its organization and surface subscribed to its kind", async () => {
    const org = newId();
    const both = await endpoint(org);
    const failedOnly = await endpoint(org, { events: ["job.failed"] });
    const inactive = await endpoint(org);
    await setEndpointActive(db, inactive._id, false, systemClock);
    const voice = await endpoint(org, { surface: "voice", events: ["job.succeeded", "call.completed"] });
    await endpoint(newId());

    const succeeded = jobEvent(org);
    expect(await recordEvents(db, [succeeded], systemClock)).toEqual({ recorded: 1, deliveries: 1 });
    const [delivery] = await deliveriesOf(succeeded.id);
    expect(delivery).toMatchObject({ endpoint_id: both._id, org_id: org, kind: "job.succeeded", status: "pending", attempts: [], series: 0, lease: null });
    expect(delivery.webhook_id).toBe(`msg_${delivery._id.replace(/-/g, "")}`);
    expect(delivery.next_attempt_at!.getTime()).toBeLessThanOrEqual(Date.now());

    const failed = jobEvent(org, "job.failed");
    expect(await recordEvents(db, [failed], systemClock)).toEqual({ recorded: 1, deliveries: 2 });
    expect((await deliveriesOf(failed.id)).map((d) => d.endpoint_id).sort()).toEqual([both._id, failedOnly._id].sort());

    const voiceJob = jobEvent(org, "job.succeeded", "voice");
    expect(await recordEvents(db, [voiceJob], systemClock)).toEqual({ recorded: 1, deliveries: 1 });
    expect((await deliveriesOf(voiceJob.id)).map((d) => d.endpoint_id)).toEqual([voice._id]);

    const body = (await events(db).findOne({ _id: succeeded.id }))!.body;
    expect(JSON.parse(body)).toEqual({ event: "job.succeeded", data: succeeded.payload });
  });

  it("records the valid job events of a hand-over and sets a malformed one aside without failing the batch", () => {
    const org_id = newId();
    const job = { id: newId(), type: "article", status: "succeeded", result: { title: "T" }, error: null, credits_charged: 10, created_at: "2025-03-01T12:00:00.000Z", finished_at: "2025-03-01T12:01:00.000Z" };
    const good = { id: newId(), org_id, kind: "job.succeeded", payload: job, created_at: "2025-03-01T12:01:00.000Z" };
    const wrongStatus = { ...good, id: newId(), kind: "job.failed" };
    const unknownKind = { ...good, id: newId(), kind: "job.canceled" };
    const rejected: [string, string][] = [];
    const valid = articleEventsToRecord([good, wrongStatus, unknownKind], (e, problem) => rejected.push([e.id, problem]));
    expect(valid).toEqual([{ ...good, surface: "articles", created_at: new Date(good.created_at) }]);
    expect(rejected).toEqual([
      [wrongStatus.id, expect.stringContaining("payload.status: ")],
      [unknownKind.id, "kind: 'job.canceled' is not an event kind of the articles surface (expected one of job.succeeded, job.failed)"],
    ]);
  });

  it("is idempotent on the event id: a repeat changes nothing", async () => {
    const org = newId();
    await endpoint(org);
    await endpoint(org);
    const event = jobEvent(org);
    await recordEvents(db, [event], systemClock);
    const before = { event: await events(db).findOne({ _id: event.id }), deliveries: await deliveriesOf(event.id) };
    expect(before.deliveries).toHaveLength(2);

    expect(await recordEvents(db, [event, { ...event, payload: { changed: true } }], systemClock)).toEqual({ recorded: 0, deliveries: 0 });
    expect(await events(db).findOne({ _id: event.id })).toEqual(before.event);
    expect(await deliveriesOf(event.id)).toEqual(before.deliveries);
  });

  it("finishes a fan-out that a crash interrupted, without duplicating deliveries", async () => {
    const org = newId();
    const [a, b] = [await endpoint(org), await endpoint(org)];
    const event = jobEvent(org);
    // The crash left the event recorded and one of its two deliveries stored.
    await recordEvents(db, [event], systemClock);
    await deliveries(db).deleteOne({ event_id: event.id, endpoint_id: b._id });
    await events(db).updateOne({ _id: event.id }, { $set: { fanned_out: false } });

    expect(await recordEvents(db, [event], systemClock)).toEqual({ recorded: 0, deliveries: 1 });
    expect((await deliveriesOf(event.id)).map((d) => d.endpoint_id).sort()).toEqual([a._id, b._id].sort());
    expect((await events(db).findOne({ _id: event.id }))!.fanned_out).toBe(true);
  });
});

describe("claiming and attempting deliveries", () => {
  async function oneDelivery(): Promise<DeliveryDoc> {
    const org = newId();
    await endpoint(org);
    const event = jobEvent(org);
    await recordEvents(db, [event], systemClock);
    return (await deliveriesOf(event.id))[0];
  }

  /** An attempt whose outcome the test decides. */
  function depsAnswering(clock: Clock, ...answers: (number | null)[]): AttemptDeps & { sent: { webhook_id: string }[] } {
    const sent: { webhook_id: string }[] = [];
    return {
      policy: { allowLoopback: true },
      timeoutMs: 1000,
      clock,
      retryDelaysMs: DELAYS,
      node: "test-node",
      bodies: new EventBodies(),
      sent,
      send: async (_target, message): Promise<AttemptOutcome> => {
        sent.push(message);
        const status = answers.length ? (answers.shift() as number | null) : 200;
        return { delivered: status !== null && status < 300, attempted_at: clock.now(), status_code: status, error: status === null ? "connection refused" : null, duration_ms: 5 };
      },
    };
  }

  it("lets exactly one of two concurrent claims win", async () => {
    const d = await oneDelivery();
    const claims = await Promise.all([claimDelivery(db, d._id, "p1", 60_000, systemClock), claimDelivery(db, d._id, "p2", 60_000, systemClock)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimDelivery(db, d._id, "p3", 60_000, systemClock)).toBeNull();
  });

  it("retries on schedule, keeps the webhook-id, and ends delivered", async () => {
    const clock = manualClock();
    const d = await oneDelivery();
    await deliveries(db).updateOne({ _id: d._id }, { $set: { next_attempt_at: clock.now() } });
    const deps = depsAnswering(clock, 500, null, 200);

    await performClaimedAttempt(db, (await claimDelivery(db, d._id, "p1", 60_000, clock))!, deps);
    let doc = (await deliveries(db).findOne({ _id: d._id }))!;
    expect(doc).toMatchObject({ status: "failed", lease: null, next_attempt_at: new Date(clock.now().getTime() + 30_000) });
    expect(await claimDelivery(db, d._id, "p1", 60_000, clock)).toBeNull(); // not due yet

    clock.advance(30_000);
    await performClaimedAttempt(db, (await claimDelivery(db, d._id, "p1", 60_000, clock))!, deps);
    doc = (await deliveries(db).findOne({ _id: d._id }))!;
    expect(doc).toMatchObject({ status: "failed", next_attempt_at: new Date(clock.now().getTime() + 300_000) });

    clock.advance(300_000);
    await performClaimedAttempt(db, (await claimDelivery(db, d._id, "p1", 60_000, clock))!, deps);
    doc = (await deliveries(db).findOne({ _id: d._id }))!;
    expect(doc).toMatchObject({ status: "delivered", next_attempt_at: null, dead_reason: null, lease: null });
    expect(doc.attempts.map((a) => [a.attempt, a.series, a.status_code, a.error])).toEqual([
      [1, 0, 500, null],
      [2, 0, null, "connection refused"],
      [3, 0, 200, null],
    ]);
    expect(new Set(deps.sent.map((m) => m.webhook_id))).toEqual(new Set([d.webhook_id]));
  });

  it("ends dead after three failures; a redelivery is a new series under the same webhook-id", async () => {
    const clock = manualClock();
    const d = await oneDelivery();
    await deliveries(db).updateOne({ _id: d._id }, { $set: { next_attempt_at: clock.now() } });
    const deps = depsAnswering(clock, 500, 500, 500, 200);
    for (let i = 0; i < 3; i++) {
      await performClaimedAttempt(db, (await claimDelivery(db, d._id, "p1", 60_000, clock))!, deps);
      clock.advance(300_000);
    }
    expect(await deliveries(db).findOne({ _id: d._id })).toMatchObject({ status: "dead", dead_reason: "attempts_exhausted", next_attempt_at: null });
    expect(await claimDelivery(db, d._id, "p1", 60_000, clock)).toBeNull();

    const again = await redeliver(db, d._id, clock);
    expect(again).toMatchObject({ status: "pending", series: 1, attempt_count: 0, dead_reason: null, webhook_id: d.webhook_id });
    await expect(redeliver(db, d._id, clock)).rejects.toThrow("status: only a dead delivery can be redelivered; this one is pending");
    await performClaimedAttempt(db, (await claimDelivery(db, d._id, "p1", 60_000, clock))!, deps);
    const doc = (await deliveries(db).findOne({ _id: d._id }))!;
    expect(doc.status).toBe("delivered");
    expect(doc.attempts.map((a) => [a.series, a.attempt, a.status_code])).toEqual([
      [0, 1, 500],
      [0, 2, 500],
      [0, 3, 500],
      [1, 1, 200],
    ]);
    expect(deps.sent.map((m) => m.webhook_id)).toEqual(Array(4).fill(d.webhook_id));
    await expect(redeliver(db, newId(), clock)).rejects.toThrow("No such webhook delivery.");
  });

  it("sends nothing to an endpoint deactivated after the delivery was created", async () => {
    const d = await oneDelivery();
    await setEndpointActive(db, d.endpoint_id, false, systemClock);
    const deps = depsAnswering(systemClock);
    await performClaimedAttempt(db, (await claimDelivery(db, d._id, "p1", 60_000, systemClock))!, deps);
    expect(deps.sent).toEqual([]);
    expect(await deliveries(db).findOne({ _id: d._id })).toMatchObject({ status: "dead", dead_reason: "endpoint_inactive", attempts: [] });
    await expect(redeliver(db, d._id, systemClock)).rejects.toThrow("endpoint: is inactive");
  });

  it("takes over a lapsed lease: the dead holder's attempt is recorded as interrupted and its late write is refused", async () => {
    const clock = manualClock();
    const d = await oneDelivery();
    await deliveries(db).updateOne({ _id: d._id }, { $set: { next_attempt_at: clock.now() } });
    const stalled = (await claimDelivery(db, d._id, "p1", 20_000, clock))!;
    clock.advance(20_000);
    const takeover = (await claimDelivery(db, d._id, "p2", 20_000, clock))!;
    expect(takeover).toMatchObject({ attempt: 2, fence: stalled.fence + 1 });

    await performClaimedAttempt(db, takeover, { ...depsAnswering(clock, 200), node: "p2" });
    expect(await performClaimedAttempt(db, stalled, depsAnswering(clock, 500))).toBe(false);
    const doc = (await deliveries(db).findOne({ _id: d._id }))!;
    expect(doc.status).toBe("delivered");
    expect(doc.attempts.map((a) => [a.attempt, a.node, a.status_code, a.error])).toEqual([
      [1, "p1", null, "interrupted: the process making this attempt stopped before recording its outcome"],
      [2, "p2", 200, null],
    ]);
  });

  it("ends dead when the interrupted attempt was the last one", async () => {
    const clock = manualClock();
    const d = await oneDelivery();
    await deliveries(db).updateOne({ _id: d._id }, { $set: { next_attempt_at: clock.now(), attempt_count: 2, status: "failed" } });
    await claimDelivery(db, d._id, "p1", 20_000, clock);
    clock.advance(20_000);
    const deps = depsAnswering(clock);
    await performClaimedAttempt(db, (await claimDelivery(db, d._id, "p2", 20_000, clock))!, deps);
    expect(deps.sent).toEqual([]);
    const doc = (await deliveries(db).findOne({ _id: d._id }))!;
    expect(doc).toMatchObject({ status: "dead", dead_reason: "attempts_exhausted" });
    expect(doc.attempts.map((a) => a.attempt)).toEqual([3]);
  });

  it("lists an endpoint's deliveries newest first, page by page", async () => {
    const org = newId();
    const ep = await endpoint(org);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const e = jobEvent(org);
      await recordEvents(db, [e], systemClock);
      ids.unshift((await deliveriesOf(e.id))[0]._id);
    }
    const first = await listDeliveries(db, ep._id, { limit: 2 });
    expect(first).toMatchObject({ object: "list", has_more: true });
    expect(first.data.map((d) => d.id)).toEqual(ids.slice(0, 2));
    const rest = await listDeliveries(db, ep._id, { limit: 10, starting_after: first.data[1].id });
    expect(rest.has_more).toBe(false);
    expect(rest.data.map((d) => d.id)).toEqual(ids.slice(2));
    expect(rest.data[0]).toMatchObject({ object: "webhook_delivery", endpoint_id: ep._id, event: "job.succeeded", status: "pending", attempts: [] });
    await expect(listDeliveries(db, newId(), { limit: 10 })).rejects.toThrow("No such webhook endpoint.");
    await expect(listDeliveries(db, ep._id, { limit: 10, starting_after: newId() })).rejects.toThrow("No such webhook delivery.");
  });
});
