import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { client, request } from "../support/http";
import { waitForJob } from "../support/jobs";
import { OpenApiContract } from "../support/openapi-contract";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { freePort } from "../support/ports";
import { waitFor } from "../support/wait";
import { startWebhookReceiver, verifyWebhook, type ReceiverAnswer, type WebhookReceiver } from "../support/webhook-receiver";

/** Delays of a second at least, so that a retry's `webhook-timestamp` (Unix seconds) differs from the previous one. */
const FAST_WEBHOOKS = { WEBHOOK_RETRY_DELAYS_MS: "1000,1000", WEBHOOK_TIMEOUT_MS: "800", WEBHOOK_POLL_MS: "100", JOB_POLL_MS: "200" };

/** Webhook endpoints and deliveries over HTTP, on the platform as `npm start` runs it (NODE_ENV=test: loopback allowed). */
describe("webhooks over HTTP", () => {
  let platform: PlatformProcess;
  let admin: ReturnType<typeof client>;
  /** The served OpenAPI document: deliveries must match its `webhooks`, admin answers its responses. */
  let contract: OpenApiContract;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    platform = await spawnPlatform({ env: { ADMIN_TOKEN, DATA_DIR: tempDir("e2e-webhooks"), EMBEDDED_MONGO_IN_MEMORY: "true", ...FAST_WEBHOOKS } });
    admin = client(platform.url, ADMIN_TOKEN);
    contract = new OpenApiContract((await request(platform.url, "/v1/openapi.json")).body);
  });
  afterAll(async () => {
    await platform?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function newOrg() {
    const { key, orgId } = await createOrgWithKey(platform.url, ADMIN_TOKEN);
    return { orgId, api: client(platform.url, key), key };
  }

  async function receiverFor(api: ReturnType<typeof client>, answer?: ReceiverAnswer, events?: string[]) {
    const receiver = await startWebhookReceiver(answer);
    receivers.push(receiver);
    const created = contract.check("POST", "/v1/webhooks", await api("/v1/webhooks", { method: "POST", body: { url: receiver.url, ...(events ? { events } : {}) } }));
    expect(created.status).toBe(201);
    return { receiver, endpoint: created.body as { id: string; secret: string } };
  }

  /** An ingest job of a text source: it succeeds within a second or two, and its `job.succeeded` is what gets delivered. */
  async function succeededJob(org: { api: ReturnType<typeof client>; key: string }) {
    const profile = await org.api("/v1/brand-profiles", { method: "POST", body: { name: "Hooked" } });
    const source = await org.api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", content: "Hooked sells kayaks. Every kayak ships within two days." } });
    expect(source.status).toBe(202);
    const job = await waitForJob(platform.url, org.key, source.body.ingest_job_id);
    expect(job.status).toBe("succeeded");
    return job;
  }

  const deliveriesOf = async (endpointId: string, query = "") =>
    contract.check("GET", "/admin/webhooks/{id}/deliveries", await admin(`/admin/webhooks/${endpointId}/deliveries${query}`)).body;
  const deliveryIn = (endpointId: string, status: string) =>
    waitFor(async () => (await deliveriesOf(endpointId)).data.find((d: any) => d.status === status), `a ${status} delivery`, 20000, 100);

  describe("registration", () => {
    it("names the field of every problem", async () => {
      const { api } = await newOrg();
      const cases: [unknown, string][] = [
        [{}, "url: is required"],
        [{ url: "ftp://example.com/hook" }, "url: must be an http(s) URL"],
        [{ url: "https://example.com/hook", events: [] }, "events: must not be empty"],
        [{ url: "https://example.com/hook", events: ["job.succeeded", "job.started"] }, "events.1: 'job.started' is not an event kind (expected one of job.succeeded, job.failed)"],
        [{ url: "https://example.com/hook", events: ["call.completed"] }, "events.0: 'call.completed' is not an event kind (expected one of job.succeeded, job.failed)"],
        [{ url: "http://169.254.169.254/latest/meta-data/" }, "url: resolves to a forbidden address"],
        [{ url: "http://10.0.0.8/hook" }, "url: resolves to a forbidden address"],
      ];
      for (const [body, message] of cases) {
        const r = await api("/v1/webhooks", { method: "POST", body });
        expect(r.status).toBe(400);
        expect(r.body).toEqual({ error: { code: "invalid_request", message } });
      }
      expect((await api("/v1/webhooks")).body).toEqual({ object: "list", data: [] });
    });

    it("returns the secret once; listings never carry it", async () => {
      const { api, orgId } = await newOrg();
      const receiver = await startWebhookReceiver();
      receivers.push(receiver);
      const created = await api("/v1/webhooks", { method: "POST", body: { url: receiver.url } });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(String), object: "webhook_endpoint", url: receiver.url, events: ["job.succeeded", "job.failed"], secret: expect.stringMatching(/^whsec_/) });
      expect(Buffer.from(created.body.secret.slice(6), "base64")).toHaveLength(32);
      const failedOnly = await api("/v1/webhooks", { method: "POST", body: { url: receiver.url, events: ["job.failed"] } });

      const listed = contract.check("GET", "/v1/webhooks", await api("/v1/webhooks"));
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([
        { id: failedOnly.body.id, object: "webhook_endpoint", url: receiver.url, events: ["job.failed"], active: true, created_at: expect.any(String) },
        { id: created.body.id, object: "webhook_endpoint", url: receiver.url, events: ["job.succeeded", "job.failed"], active: true, created_at: expect.any(String) },
      ]);
      const adminListed = contract.check("GET", "/admin/orgs/{org_id}/webhooks", await admin(`/admin/orgs/${orgId}/webhooks`));
      expect(adminListed.body.data.map((e: any) => [e.id, e.org_id, e.surface])).toEqual([
        [failedOnly.body.id, orgId, "articles"],
        [created.body.id, orgId, "articles"],
      ]);
      for (const text of [listed.text, adminListed.text]) expect(text).not.toContain("whsec_");
      expect(platform.output()).not.toContain(created.body.secret);
    });
  });

  describe("one job event, receivers that behave differently", () => {
    let org: Awaited<ReturnType<typeof newOrg>>;
    let job: any;
    let ok: Awaited<ReturnType<typeof receiverFor>>;
    let flaky: Awaited<ReturnType<typeof receiverFor>>;
    let failing: Awaited<ReturnType<typeof receiverFor>>;
    let silent: Awaited<ReturnType<typeof receiverFor>>;
    let inactive: Awaited<ReturnType<typeof receiverFor>>;
    let otherOrgs: Awaited<ReturnType<typeof receiverFor>>;

    beforeAll(async () => {
      org = await newOrg();
      ok = await receiverFor(org.api);
      flaky = await receiverFor(org.api);
      flaky.receiver.script({ status: 500 }, { status: 503 });
      failing = await receiverFor(org.api, { status: 500 });
      silent = await receiverFor(org.api, "hang");
      inactive = await receiverFor(org.api);
      const patched = contract.check("PATCH", "/admin/webhooks/{id}", await admin(`/admin/webhooks/${inactive.endpoint.id}`, { method: "PATCH", body: { active: false } }));
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ id: inactive.endpoint.id, active: false, org_id: org.orgId });
      otherOrgs = await receiverFor((await newOrg()).api);
      job = await succeededJob(org);
    });

    it("delivers job.succeeded signed with the endpoint's secret, the job as data", async () => {
      const [req] = await ok.receiver.waitForRequests(1);
      expect(req.method).toBe("POST");
      expect(req.headers["content-type"]).toBe("application/json");
      expect(req.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{32}$/);
      const { stages: _stages, stage: _stage, object: _object, ...payload } = job;
      expect(verifyWebhook(ok.endpoint.secret, req)).toEqual({ event: "job.succeeded", data: payload });
      contract.checkWebhook("articles.job.succeeded", req.headers, req.rawBody);
      expect(() => verifyWebhook(flaky.endpoint.secret, req)).toThrow();
      const delivered = await deliveryIn(ok.endpoint.id, "delivered");
      expect(delivered).toMatchObject({ object: "webhook_delivery", event: "job.succeeded", event_id: expect.any(String), webhook_id: req.headers["webhook-id"], dead_reason: null, next_attempt_at: null });
      expect(delivered.attempts).toEqual([{ attempt: 1, series: 0, attempted_at: expect.any(String), status_code: 200, error: null, duration_ms: expect.any(Number) }]);
    });

    it("retries a receiver that fails twice: three attempts, one webhook-id, fresh timestamps and signatures", async () => {
      const got = await flaky.receiver.waitForRequests(3, 20000);
      expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
      expect(new Set(got.map((r) => r.headers["webhook-timestamp"])).size).toBe(3);
      expect(new Set(got.map((r) => r.headers["webhook-signature"])).size).toBe(3);
      expect(new Set(got.map((r) => r.rawBody)).size).toBe(1);
      for (const r of got) expect(verifyWebhook(flaky.endpoint.secret, r).event).toBe("job.succeeded");
      expect(got[1].receivedAt - got[0].receivedAt).toBeGreaterThanOrEqual(950);
      const delivery = await deliveryIn(flaky.endpoint.id, "delivered");
      expect(delivery.webhook_id).toBe(got[0].headers["webhook-id"]);
      expect(delivery.attempts.map((a: any) => [a.attempt, a.status_code, a.error])).toEqual([
        [1, 500, "HTTP 500: not a 2xx answer"],
        [2, 503, "HTTP 503: not a 2xx answer"],
        [3, 200, null],
      ]);
    });

    it("stops a receiver that always fails at three attempts, then dead; a redelivery sends it again under the same webhook-id", async () => {
      const got = await failing.receiver.waitForRequests(3, 20000);
      const dead = await deliveryIn(failing.endpoint.id, "dead");
      expect(dead).toMatchObject({ dead_reason: "attempts_exhausted", next_attempt_at: null, webhook_id: got[0].headers["webhook-id"] });
      expect(dead.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 500]);
      expect(failing.receiver.requests).toHaveLength(3);

      failing.receiver.setDefault({ status: 200 });
      const redelivered = contract.check("POST", "/admin/deliveries/{id}/redeliver", await admin(`/admin/deliveries/${dead.id}/redeliver`, { method: "POST" }));
      expect(redelivered.status).toBe(202);
      expect(redelivered.body).toMatchObject({ id: dead.id, status: "pending", webhook_id: dead.webhook_id });
      const [, , , again] = await failing.receiver.waitForRequests(4);
      expect(again.headers["webhook-id"]).toBe(dead.webhook_id);
      expect(verifyWebhook(failing.endpoint.secret, again).event).toBe("job.succeeded");
      const delivered = await deliveryIn(failing.endpoint.id, "delivered");
      expect(delivered.attempts.map((a: any) => [a.series, a.attempt, a.status_code])).toEqual([
        [0, 1, 500],
        [0, 2, 500],
        [0, 3, 500],
        [1, 1, 200],
      ]);
      const notDead = await admin(`/admin/deliveries/${dead.id}/redeliver`, { method: "POST" });
      expect(notDead.status).toBe(400);
      expect(notDead.body.error.message).toBe("status: only a dead delivery can be redelivered; this one is delivered");
    });

    it("cuts a receiver that never answers at the timeout: three attempts, then dead", async () => {
      const dead = await deliveryIn(silent.endpoint.id, "dead");
      expect(silent.receiver.requests).toHaveLength(3);
      expect(dead.attempts).toHaveLength(3);
      for (const a of dead.attempts) {
        expect(a).toMatchObject({ status_code: null, error: `${silent.receiver.url}: no complete response within 800 ms` });
        expect(a.duration_ms).toBeGreaterThanOrEqual(790);
      }
    });

    it("sends nothing to an inactive endpoint or to another organization's", async () => {
      await ok.receiver.waitForRequests(1);
      expect(inactive.receiver.requests).toEqual([]);
      expect(otherOrgs.receiver.requests).toEqual([]);
      expect((await deliveriesOf(inactive.endpoint.id)).data).toEqual([]);
      expect((await deliveriesOf(otherOrgs.endpoint.id)).data).toEqual([]);
    });
  });

  it("delivers job.failed with the reason in data.error", async () => {
    const org = await newOrg();
    const { receiver, endpoint } = await receiverFor(org.api, undefined, ["job.failed"]);
    const succeededOnly = await receiverFor(org.api, undefined, ["job.succeeded"]);
    const profile = await org.api("/v1/brand-profiles", { method: "POST", body: { name: "Broken" } });
    const source = await org.api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "url", url: `http://127.0.0.1:${await freePort()}/about` } });
    const job = await waitForJob(platform.url, org.key, source.body.ingest_job_id);
    expect(job.status).toBe("failed");
    const [req] = await receiver.waitForRequests(1);
    const body = verifyWebhook(endpoint.secret, req);
    contract.checkWebhook("articles.job.failed", req.headers, req.rawBody);
    expect(body).toMatchObject({ event: "job.failed", data: { id: job.id, status: "failed", error: job.error, result: {}, credits_charged: 0 } });
    expect(body.data.error).toEqual(expect.any(String));
    await succeededJob(org);
    await succeededOnly.receiver.waitForRequests(1);
    expect(receiver.requests).toHaveLength(1);
    expect(succeededOnly.receiver.requests).toHaveLength(1);
  });

  it("pages an endpoint's deliveries newest first, and answers 404 for unknown ids", async () => {
    const org = await newOrg();
    const { receiver, endpoint } = await receiverFor(org.api);
    for (let i = 0; i < 3; i++) await succeededJob(org);
    await receiver.waitForRequests(3);
    const first = await deliveriesOf(endpoint.id, "?limit=2");
    expect(first).toMatchObject({ object: "list", has_more: true });
    expect(first.data).toHaveLength(2);
    const rest = await deliveriesOf(endpoint.id, `?limit=2&starting_after=${first.data[1].id}`);
    expect(rest).toMatchObject({ has_more: false });
    expect(rest.data).toHaveLength(1);
    const all = [...first.data, ...rest.data];
    expect(all.map((d: any) => d.created_at)).toEqual([...all.map((d: any) => d.created_at)].sort().reverse());
    expect(new Set(all.map((d: any) => d.webhook_id)).size).toBe(3);

    const unknown = "5f2b6a4e-1111-4111-8111-111111111111";
    expect((await admin(`/admin/webhooks/${unknown}/deliveries`)).status).toBe(404);
    expect((await admin(`/admin/webhooks/${unknown}`, { method: "PATCH", body: { active: false } })).status).toBe(404);
    expect((await admin(`/admin/deliveries/${unknown}/redeliver`, { method: "POST" })).status).toBe(404);
    expect((await admin(`/admin/webhooks/${endpoint.id}/deliveries?limit=0`)).body.error.message).toBe("limit: must be at least 1");
    expect((await admin(`/admin/webhooks/${endpoint.id}`, { method: "PATCH", body: { active: "no" } })).status).toBe(400);
    expect((await org.api(`/admin/webhooks/${endpoint.id}/deliveries`)).status).toBe(401);
  });
});

/** Registration under production rules: https only, and the URL guard without the loopback allowance. */
describe("webhook registration in production", () => {
  let platform: PlatformProcess;
  beforeAll(async () => {
    platform = await spawnPlatform({ env: { NODE_ENV: "production", ADMIN_TOKEN, DATA_DIR: tempDir("e2e-webhooks-prod"), EMBEDDED_MONGO_IN_MEMORY: "true" } });
  });
  afterAll(() => platform?.stop());

  it("requires https and refuses loopback, private and metadata targets", async () => {
    const api = client(platform.url, (await createOrgWithKey(platform.url, ADMIN_TOKEN)).key);
    const cases: [string, string][] = [
      ["http://hooks.example.com/in", "url: must be an https URL"],
      ["https://127.0.0.1/hooks", "url: resolves to a forbidden address"],
      ["https://localhost/hooks", "url: resolves to a forbidden address"],
      ["https://[::1]/hooks", "url: resolves to a forbidden address"],
      ["https://10.0.0.5/hooks", "url: resolves to a forbidden address"],
      ["https://192.168.1.20/hooks", "url: resolves to a forbidden address"],
      ["https://169.254.169.254/latest/meta-data/", "url: resolves to a forbidden address"],
      ["https://metadata.google.internal/computeMetadata/v1/", "url: resolves to a forbidden address"],
    ];
    for (const [url, message] of cases) {
      const r = await api("/v1/webhooks", { method: "POST", body: { url } });
      expect({ url, status: r.status, body: r.body }).toEqual({ url, status: 400, body: { error: { code: "invalid_request", message } } });
    }
    expect((await api("/v1/webhooks")).body.data).toEqual([]);
  });
});
