import { MongoClient } from "mongodb";
import { COMPLETED_CALL } from "../support/sibling-events";
import type { ServiceBroker } from "moleculer";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster, type Cluster } from "../support/cluster";
import { client } from "../support/http";
import { waitForJob } from "../support/jobs";
import type { PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "../support/webhook-receiver";

const RETRY_AFTER_MS = 2500;
const FAST_WEBHOOKS = { WEBHOOK_RETRY_DELAYS_MS: `${RETRY_AFTER_MS},1000`, WEBHOOK_TIMEOUT_MS: "2000", WEBHOOK_POLL_MS: "100", JOB_POLL_MS: "200" };

/** An article job event as the pipeline hands it over. */
function articleJobPayload() {
  const now = new Date().toISOString();
  return { id: crypto.randomUUID(), type: "article", status: "succeeded", result: { title: "Kayaks" }, error: null, credits_charged: 10, created_at: now, finished_at: now };
}

/** Webhooks in their own processes over a real nats-server, sharing the database with the rest. */
describe("webhook delivery across processes", () => {
  let cluster: Cluster;
  let gateway: PlatformProcess;
  let webhooks: PlatformProcess;
  let broker: ServiceBroker;
  let mongo: MongoClient;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    cluster = await startCluster(FAST_WEBHOOKS);
    // The gateway is ready once every service its routes reach is registered, webhooks included.
    webhooks = await cluster.spawn("webhooks");
    gateway = await cluster.spawn(`${backendsExcept("webhooks")},gateway`);
    broker = await cluster.broker();
    mongo = await cluster.mongoClient();
  });

  afterAll(async () => {
    await cluster?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  const admin = () => client(gateway.url, ADMIN_TOKEN);
  const deliveriesDb = () => mongo.db(`${cluster.mongo.prefix}webhooks`).collection("deliveries");

  async function orgWithReceiver(events?: string[]) {
    const { key, orgId } = await createOrgWithKey(gateway.url, ADMIN_TOKEN);
    const api = client(gateway.url, key);
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const endpoint = await api("/v1/webhooks", { method: "POST", body: { url: receiver.url, ...(events ? { events } : {}) } });
    expect(endpoint.status).toBe(201);
    return { key, orgId, api, receiver, endpoint: endpoint.body as { id: string; secret: string } };
  }

  async function finishTextIngest(org: { key: string; api: ReturnType<typeof client> }) {
    const profile = await org.api("/v1/brand-profiles", { method: "POST", body: { name: "Relay" } });
    const source = await org.api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", content: "Relay repairs bicycles in Lyon." } });
    return waitForJob(gateway.url, org.key, source.body.ingest_job_id);
  }

  it("shares deliveries between two webhooks processes without sending any twice", async () => {
    const second = await cluster.spawn("webhooks");
    const org = await orgWithReceiver();
    // Receivers that take 30 ms: with two deliveries in flight per endpoint and process, one process
    // cannot drain the queue alone before the other claims, so sharing is certain, not a race.
    org.receiver.setDefault({ status: 200, delayMs: 30 });
    const other = await startWebhookReceiver({ status: 200, delayMs: 30 });
    receivers.push(other);
    const otherEndpoint = await broker.call<{ secret: string }, object>("webhooks.createEndpoint", { org_id: org.orgId, url: other.url });
    const count = 60;
    for (let i = 0; i < count; i++) {
      await broker.call("webhooks.publish", { org_id: org.orgId, surface: "articles", kind: "job.succeeded", payload: articleJobPayload() });
    }
    for (const [receiver, secret] of [[org.receiver, org.endpoint.secret], [other, otherEndpoint.secret]] as const) {
      const got = await receiver.waitForRequests(count, 20000);
      expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(count);
      for (const r of got) verifyWebhook(secret, r);
    }
    await waitFor(async () => ((await deliveriesDb().countDocuments({ org_id: org.orgId, status: "delivered" })) === 2 * count ? true : undefined), "all delivered");
    expect(org.receiver.requests.length + other.requests.length).toBe(2 * count);
    const nodes = await deliveriesDb().distinct("attempts.node", { org_id: org.orgId });
    expect(nodes).toHaveLength(2);
    await second.stop();
  });

  it("validates, signs and delivers a sibling surface's event published through the internal action", async () => {
    const { orgId } = await createOrgWithKey(gateway.url, ADMIN_TOKEN);
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    const voice = await broker.call<{ id: string; events: string[]; secret: string }, object>("webhooks.createEndpoint", { org_id: orgId, surface: "voice", url: receiver.url });
    expect(voice.events).toEqual(["call.started", "call.completed", "call.failed", "campaign.completed", "job.succeeded", "job.failed"]);

    await expect(broker.call("webhooks.publish", { org_id: orgId, kind: "call.completed", payload: { ...COMPLETED_CALL, to: "020 7183 8750" } })).rejects.toMatchObject({
      code: 400,
      type: "invalid_request",
      message: "payload.to: must be an E.164 phone number",
    });
    await expect(broker.call("webhooks.publish", { org_id: orgId, kind: "job.succeeded", payload: {} })).rejects.toMatchObject({
      type: "invalid_request",
      message: expect.stringMatching(/^surface: is required for 'job.succeeded'/),
    });
    const eventId = crypto.randomUUID();
    const published = await broker.call("webhooks.publish", { org_id: orgId, kind: "call.completed", payload: COMPLETED_CALL, id: eventId });
    expect(published).toEqual({ id: eventId, recorded: 1, deliveries: 1 });
    expect(await broker.call("webhooks.publish", { org_id: orgId, kind: "call.completed", payload: COMPLETED_CALL, id: eventId })).toEqual({ id: eventId, recorded: 0, deliveries: 0 });
    // An article job event of the same organization is not the voice surface's job.succeeded.
    expect(await broker.call("webhooks.publish", { org_id: orgId, surface: "articles", kind: "job.succeeded", payload: articleJobPayload() })).toMatchObject({ deliveries: 0 });

    const [req] = await receiver.waitForRequests(1);
    expect(verifyWebhook(voice.secret, req)).toEqual({ event: "call.completed", data: COMPLETED_CALL });
    const listed = await admin()(`/admin/webhooks/${voice.id}/deliveries`);
    expect(listed.body.data).toEqual([expect.objectContaining({ event: "call.completed", event_id: eventId, webhook_id: req.headers["webhook-id"] })]);
    expect(receiver.requests).toHaveLength(1);
  });

  it("retries once after the webhooks process is killed between attempts and restarted", async () => {
    const org = await orgWithReceiver();
    org.receiver.script({ status: 500 });
    const job = await finishTextIngest(org);
    expect(job.status).toBe("succeeded");

    const [first] = await org.receiver.waitForRequests(1);
    const failed = await waitFor(
      async () => (await admin()(`/admin/webhooks/${org.endpoint.id}/deliveries`)).body.data?.find((d: any) => d.status === "failed"),
      "the first attempt recorded as failed",
    );
    expect(failed.attempts).toHaveLength(1);
    await webhooks.kill();
    // Until heartbeats time out, the other nodes still route calls to the killed one: from here on the
    // test reads the database and calls the restarted process by its node id.
    webhooks = await cluster.spawn("webhooks", { NODE_ID: "webhooks-restarted" });

    const [, retry] = await org.receiver.waitForRequests(2, 15000);
    expect(retry.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(retry.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(RETRY_AFTER_MS - 100);
    expect(verifyWebhook(org.endpoint.secret, retry)).toMatchObject({ event: "job.succeeded", data: { id: job.id } });
    const delivered = await waitFor(async () => (await deliveriesDb().findOne({ _id: failed.id, status: "delivered" })) ?? undefined, "delivered");
    expect(delivered.attempts.map((a: any) => a.status_code)).toEqual([500, 200]);

    // Another event through the restarted process is the barrier: by then a duplicate retry would have shown.
    await waitFor(() => (broker.registry.nodes.get("webhooks-restarted")?.available ? true : undefined), "the restarted node to be discovered");
    await broker.call("webhooks.publish", { org_id: org.orgId, surface: "articles", kind: "job.succeeded", payload: articleJobPayload() }, { nodeID: "webhooks-restarted" });
    await org.receiver.waitForRequests(3);
    expect(org.receiver.requests.filter((r) => r.headers["webhook-id"] === first.headers["webhook-id"])).toHaveLength(2);
  });
});
