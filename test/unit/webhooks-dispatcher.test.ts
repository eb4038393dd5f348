import type { Db } from "mongodb";
import { useServiceDatabase } from "../support/test-database";
import pino from "pino";
import { DeliveryDispatcher, type DispatcherOptions } from "../../services/webhooks/dispatcher";
import { createEndpoint } from "../../services/webhooks/endpoints";
import { recordEvents } from "../../services/webhooks/events";
import { deliveries, WEBHOOK_COLLECTIONS } from "../../services/webhooks/store";
import { systemClock } from "../../shared/clock";
import { newId } from "../../shared/ids";
import { waitFor } from "../support/wait";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "../support/webhook-receiver";

let db: Db;
useServiceDatabase("webhooks", WEBHOOK_COLLECTIONS, (opened) => (db = opened));
const receivers: WebhookReceiver[] = [];
const dispatchers: DeliveryDispatcher[] = [];

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((d) => d.stop()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

const silent = pino({ level: "silent" });

function dispatcher(opts: Partial<DispatcherOptions> = {}): DeliveryDispatcher {
  const d = new DeliveryDispatcher(
    {
      owner: `node-${dispatchers.length + 1}`,
      concurrency: 16,
      perEndpointConcurrency: 2,
      pollMs: 50,
      timeoutMs: 2000,
      retryDelaysMs: [100, 100],
      policy: { allowLoopback: true },
      ...opts,
    },
    { db: () => db, clock: systemClock, log: silent },
  );
  dispatchers.push(d);
  d.start();
  return d;
}

async function receiverEndpoint(org_id: string, answer?: Parameters<typeof startWebhookReceiver>[0]) {
  const receiver = await startWebhookReceiver(answer);
  receivers.push(receiver);
  const endpoint = await createEndpoint(db, { org_id, surface: "articles", url: receiver.url }, { policy: { allowLoopback: true }, requireHttps: false }, systemClock);
  return { receiver, endpoint };
}

async function publishJobEvents(org_id: string, count: number): Promise<string[]> {
  const evts = Array.from({ length: count }, () => {
    const id = newId();
    return { id: newId(), org_id, surface: "articles" as const, kind: "job.succeeded", payload: { id, status: "succeeded" }, created_at: new Date() };
  });
  await recordEvents(db, evts, systemClock);
  return evts.map((e) => e.id);
}

describe("delivery dispatcher", () => {
  it("delivers every due delivery once, signed with its endpoint's secret", async () => {
    const org = newId();
    const a = await receiverEndpoint(org);
    const b = await receiverEndpoint(org);
    const eventIds = await publishJobEvents(org, 10);
    dispatcher();
    for (const { receiver, endpoint } of [a, b]) {
      const got = await receiver.waitForRequests(10);
      expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(10);
      for (const r of got) expect(eventIds).toContain((await deliveries(db).findOne({ webhook_id: r.headers["webhook-id"] }))!.event_id);
      for (const r of got) expect(verifyWebhook(endpoint.secret, r).event).toBe("job.succeeded");
    }
    await waitFor(async () => ((await deliveries(db).countDocuments({ org_id: org, status: "delivered" })) === 20 ? true : undefined), "all delivered");
  });

  it("keeps a slow endpoint to its share: the others are not delayed", async () => {
    const org = newId();
    const slow = await receiverEndpoint(org, "hang");
    const fast = await receiverEndpoint(org);
    await publishJobEvents(org, 6);
    const started = Date.now();
    dispatcher({ concurrency: 3, perEndpointConcurrency: 2, timeoutMs: 1500 });
    await fast.receiver.waitForRequests(6);
    // All six reached the fast endpoint while the slow one was still holding its two attempts.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(slow.receiver.requests).toHaveLength(2);
    expect(slow.receiver.maxConcurrent()).toBe(2);
    expect(fast.receiver.maxConcurrent()).toBeLessThanOrEqual(2);
  });

  it("never runs more than its overall concurrency", async () => {
    const org = newId();
    const all = await Promise.all(Array.from({ length: 4 }, () => receiverEndpoint(org, { status: 200, delayMs: 100 })));
    await publishJobEvents(org, 5);
    dispatcher({ concurrency: 3, perEndpointConcurrency: 2 });
    await Promise.all(all.map(({ receiver }) => receiver.waitForRequests(5)));
    const arrivals = all.flatMap(({ receiver }) => receiver.requests.map((r) => r.receivedAt)).sort((x, y) => x - y);
    // With 100 ms answers and 3 slots, any 4 consecutive arrivals span at least about one answer time.
    for (let i = 3; i < arrivals.length; i++) expect(arrivals[i] - arrivals[i - 3]).toBeGreaterThanOrEqual(80);
  });

  it("is woken at once by new deliveries instead of waiting for its poll", async () => {
    const org = newId();
    const { receiver } = await receiverEndpoint(org);
    const d = dispatcher({ pollMs: 60_000 });
    await new Promise((r) => setImmediate(r));
    await publishJobEvents(org, 1);
    const woken = Date.now();
    d.wake();
    await receiver.waitForRequests(1, 2000);
    expect(Date.now() - woken).toBeLessThan(1000);
  });

  it("shares the work between processes without sending anything twice", async () => {
    const org = newId();
    const a = await receiverEndpoint(org, { status: 200, delayMs: 5 });
    const b = await receiverEndpoint(org, { status: 200, delayMs: 5 });
    await publishJobEvents(org, 40);
    dispatcher({ owner: "node-a" });
    dispatcher({ owner: "node-b" });
    for (const { receiver } of [a, b]) {
      await receiver.waitForRequests(40);
      expect(new Set(receiver.requests.map((r) => r.headers["webhook-id"])).size).toBe(40);
    }
    await waitFor(async () => ((await deliveries(db).countDocuments({ org_id: org, status: "delivered" })) === 80 ? true : undefined), "all delivered");
    expect(a.receiver.requests.length + b.receiver.requests.length).toBe(80);
    const nodes = await deliveries(db).distinct("attempts.node", { org_id: org });
    expect(nodes.sort()).toEqual(["node-a", "node-b"]);
  });

  it("retries a failing receiver on the configured delays, then stops at dead", async () => {
    const org = newId();
    const { receiver, endpoint } = await receiverEndpoint(org, { status: 503 });
    await publishJobEvents(org, 1);
    dispatcher({ retryDelaysMs: [150, 300] });
    const got = await receiver.waitForRequests(3);
    expect(got[1].receivedAt - got[0].receivedAt).toBeGreaterThanOrEqual(140);
    expect(got[2].receivedAt - got[1].receivedAt).toBeGreaterThanOrEqual(290);
    const dead = await waitFor(async () => (await deliveries(db).findOne({ org_id: org, status: "dead" })) ?? undefined, "dead delivery");
    expect(dead.attempts.map((a) => a.status_code)).toEqual([503, 503, 503]);
    expect(new Set(got.map((r) => r.headers["webhook-id"]))).toEqual(new Set([dead.webhook_id]));
    for (const r of got) expect(verifyWebhook(endpoint.secret, r).event).toBe("job.succeeded");
  });
});
