import type { ServiceBroker } from "moleculer";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster, type Cluster } from "../support/cluster";
import { client, request } from "../support/http";
import type { PlatformProcess } from "../support/platform";
import { jobEventSource, rawStream } from "../support/sse";
import { waitFor } from "../support/wait";

const TERMINAL = ["succeeded", "failed", "canceled"];

/**
 * `GET /v1/jobs/{id}/events` over HTTP on a real cluster: two gateways, the services, and (from the
 * third test on) a separate pipeline worker, all over a real nats-server. Events reach a gateway only
 * by the pipeline's broadcast (docs/job-events.md).
 */
describe("live job events (SSE) across processes over NATS", () => {
  let cluster: Cluster;
  let gwA: PlatformProcess;
  let gwB: PlatformProcess;
  let key: string;
  let profileId: string;
  const MAX_STREAMS = 2;

  beforeAll(async () => {
    // No worker at first: jobs stay queued until the test starts one.
    // A resync after 5 s of silence recovers a broadcast lost while a loaded machine let a node's heartbeats lapse.
    cluster = await startCluster({
      PIPELINE_CONCURRENCY: "0",
      JOB_EVENTS_HEARTBEAT_MS: "200",
      JOB_EVENTS_MAX_STREAMS_PER_KEY: String(MAX_STREAMS),
      JOB_EVENTS_RESYNC_MS: "5000",
    });
    await cluster.spawn(backendsExcept());
    [gwA, gwB] = [await cluster.spawn("gateway"), await cluster.spawn("gateway")];
    // A gateway answers as soon as it sees the services; the other may not know it yet, and would then count
    // this test's key itself (docs/request-path.md: two gateways count one key while routing is in flux).
    await gatewaysKnowEachOther(await cluster.broker(), 2);
    ({ key } = await createOrgWithKey(gwA.url, ADMIN_TOKEN, { credits: 100, rate_limit_rpm: 1000 }));
    const profile = await client(gwA.url, key)("/v1/brand-profiles", { method: "POST", body: { name: "Events", description: "Stream tests", ingest_website: false } });
    expect(profile.status).toBe(201);
    profileId = profile.body.id;
  });
  afterAll(() => cluster?.stop());

  /** Queues an ingest job (a text source) and returns its id. */
  async function newJob(via = gwA): Promise<string> {
    const content = "Dispatchers plan routes each morning. Arrival windows are two hours wide. Technicians confirm by phone.";
    const ack = await client(via.url, key)(`/v1/brand-profiles/${profileId}/sources`, { method: "POST", body: { type: "text", title: "Routes", content } });
    expect(ack.status).toBe(202);
    return ack.body.ingest_job_id;
  }
  const eventsUrl = (gw: PlatformProcess, jobId: string) => `${gw.url}/v1/jobs/${jobId}/events`;

  it("sends the snapshot, then resumes after Last-Event-ID with heartbeats only, counted as one request", async () => {
    const jobId = await newJob();
    const fresh = await rawStream(eventsUrl(gwA, jobId), key);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(fresh.headers.get("cache-control")).toContain("no-cache");
    const [snapshot] = await waitFor(() => (fresh.events().length ? fresh.events() : undefined), "the snapshot");
    expect(snapshot).toMatchObject({ id: "1", event: "job.snapshot" });
    expect(JSON.parse(snapshot.data!)).toMatchObject({ id: jobId, object: "job", status: "queued", stage: null });
    expect(fresh.parts[0]).toEqual({ kind: "retry", ms: expect.any(Number) });
    await fresh.close();

    // A reconnect that already has event 1: nothing is sent again, the stream stays open on heartbeats.
    const resumed = await rawStream(eventsUrl(gwA, jobId), key, { "last-event-id": "1" });
    expect(resumed.status).toBe(200);
    const remaining = Number(resumed.headers.get("x-ratelimit-remaining"));
    expect(Number.isInteger(remaining)).toBe(true);
    await waitFor(() => (resumed.parts.filter((p) => p.kind === "comment").length >= 3 ? true : undefined), "three heartbeats");
    expect(resumed.parts.filter((p) => p.kind === "comment").every((p) => p.kind === "comment" && p.text === "heartbeat")).toBe(true);
    expect(resumed.events()).toEqual([]);
    expect(resumed.ended()).toBe(false);
    await resumed.close();
    // The open stream and its heartbeats were one request of the window: the next request is the one after it.
    const next = await request(gwA.url, "/v1/usage?days=1", { token: key });
    expect(Number(next.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);
  });

  it("ends with job.canceled when the job is canceled, on the other gateway", async () => {
    const jobId = await newJob(gwA);
    const stream = await rawStream(eventsUrl(gwB, jobId), key);
    await waitFor(() => (stream.events().length ? true : undefined), "the snapshot");
    const cancel = await request(gwA.url, `/v1/jobs/${jobId}/cancel`, { method: "POST", token: key });
    expect(cancel.status).toBe(200);
    await waitFor(() => (stream.ended() ? true : undefined), "the stream to close after the final event");
    const events = stream.events();
    expect(events.map((e) => e.event)).toEqual(["job.snapshot", "job.canceled"]);
    const final = JSON.parse(events[1].data!);
    expect(final).toMatchObject({ id: jobId, status: "canceled", finished_at: expect.any(String) });
    expect(Number(events[1].id)).toBe(2 * final.stages.length + 3);
  });

  it("refuses a foreign job (404), a bad Last-Event-ID (400), no key (401), and streams beyond the per-key bound (429)", async () => {
    const jobId = await newJob();
    const other = await createOrgWithKey(gwA.url, ADMIN_TOKEN);
    const foreign = await request(gwA.url, `/v1/jobs/${jobId}/events`, { token: other.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    const bad = await request(gwA.url, `/v1/jobs/${jobId}/events`, { token: key, headers: { "last-event-id": "abc" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: "invalid_request", message: expect.stringContaining("Last-Event-ID") });
    expect((await request(gwA.url, `/v1/jobs/${jobId}/events`)).status).toBe(401);

    const open = [];
    for (let i = 0; i < MAX_STREAMS; i++) open.push(await rawStream(eventsUrl(gwA, jobId), key));
    expect(open.map((s) => s.status)).toEqual(Array(MAX_STREAMS).fill(200));
    const over = await rawStream(eventsUrl(gwA, jobId), key);
    expect(over.status).toBe(429);
    expect(over.headers.get("content-type")).toContain("application/json");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await over.body();
    expect(body.error.code).toBe("rate_limit_exceeded");
    expect(body.error.message).toMatch(/event streams/);
    // The bound is per gateway process: the other gateway still serves this key.
    const elsewhere = await rawStream(eventsUrl(gwB, jobId), key);
    expect(elsewhere.status).toBe(200);
    await elsewhere.close();
    // A closed stream frees its place.
    await open.pop()!.close();
    const again = await waitFor(async () => {
      const s = await rawStream(eventsUrl(gwA, jobId), key);
      if (s.status === 200) return s;
      await s.body();
      return undefined;
    }, "a stream place to free up");
    await again.close();
    for (const s of open) await s.close();
  });

  it("streams every stage change of a job run by another process, to a gateway that did not create it, then closes", async () => {
    const jobId = await newJob(gwA);
    const es = jobEventSource(eventsUrl(gwB, jobId), key);
    const [first] = await es.waitForEvents(1, "the snapshot");
    expect(first).toMatchObject({ id: "1", event: "job.snapshot", data: { id: jobId, status: "queued" } });

    await cluster.spawn("pipeline", { PIPELINE_CONCURRENCY: "1" });
    // The server closes after the final event; the client reconnects with its Last-Event-ID and is told 204: no more.
    await waitFor(() => (es.closed() ? true : undefined), "the stream to end", 60000);
    es.close();
    const events = es.events;
    const last = events[events.length - 1];
    expect(last.event).toBe("job.succeeded");
    expect(es.opens()).toBe(1);
    expect(es.errors.map((e) => e.code)).toContain(204);

    const n = last.data.stages.length;
    expect(n).toBeGreaterThan(0);
    // Every stage's start and end, in order: ids 1 (queued), 3 … 2n+2 (stage changes), 2n+3 (the end).
    expect(events.map((e) => Number(e.id))).toEqual([1, ...Array.from({ length: 2 * n }, (_, i) => i + 3), 2 * n + 3]);
    expect(events.slice(1, -1).every((e) => e.event === "job.progress")).toBe(true);
    for (let i = 1; i < events.length - 1; i++) {
      const before = events[i - 1].data.stages.map((s: { status: string }) => s.status);
      const after = events[i].data.stages.map((s: { status: string }) => s.status);
      const changed = after.map((s: string, j: number) => (s !== before[j] ? j : -1)).filter((j: number) => j >= 0);
      expect(changed).toHaveLength(1);
      expect(events[i].data.status).toBe("processing");
      expect(events[i].data.stage).toBe(events[i].data.stages[changed[0]].key);
    }
    const read = await request(gwA.url, `/v1/jobs/${jobId}`, { token: key });
    expect(last.data).toEqual(read.body);
  });

  it("a finished job: only its final event, none after Last-Event-ID of the end (204)", async () => {
    const jobId = await newJob(gwB);
    const done = await waitFor(async () => {
      const r = await request(gwA.url, `/v1/jobs/${jobId}`, { token: key });
      return TERMINAL.includes(r.body.status) ? r.body : undefined;
    }, "the job to end", 60000);
    const finalId = String(2 * done.stages.length + 3);
    for (const lastEventId of [undefined, "3"]) {
      const s = await rawStream(eventsUrl(gwA, jobId), key, lastEventId ? { "last-event-id": lastEventId } : {});
      expect(s.status).toBe(200);
      await waitFor(() => (s.ended() ? true : undefined), "the stream to close");
      expect(s.events().map((e) => [e.id, e.event])).toEqual([[finalId, `job.${done.status}`]]);
      expect(JSON.parse(s.events()[0].data!)).toEqual(done);
    }
    const over = await rawStream(eventsUrl(gwA, jobId), key, { "last-event-id": finalId });
    expect(over.status).toBe(204);
    await over.close();
  });
});

/** Waits until every node lists `count` available `gateway.admit` endpoints, so that the gateways agree on key owners. */
async function gatewaysKnowEachOther(broker: ServiceBroker, count: number): Promise<void> {
  type Action = { name: string; endpoints?: { nodeID: string; available: boolean }[] };
  await waitFor(
    async () => {
      const nodes = ((await broker.call("$node.list", { onlyAvailable: true })) as { id: string }[]).map((n) => n.id).filter((id) => id !== broker.nodeID);
      for (const nodeID of nodes) {
        const actions = (await broker.call("$node.actions", { onlyAvailable: true, withEndpoints: true }, { nodeID })) as Action[];
        const admit = actions.find((a) => a.name === "gateway.admit");
        if ((admit?.endpoints ?? []).filter((e) => e.available).length < count) return undefined;
      }
      return true;
    },
    "the gateways to know each other",
    10_000,
    50,
  );
}
