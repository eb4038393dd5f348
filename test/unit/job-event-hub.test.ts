import { NotFoundError } from "../../shared/errors";
import type { JobResource, JobStage, JobStatus } from "../../shared/schemas/jobs";
import { JobEventHub } from "../../services/gateway/job-events/hub";
import { jobEventId } from "../../services/gateway/job-events/sequence";
import { sseFrame } from "../../services/gateway/job-events/sse";

const ORG = "00000000-0000-4000-8000-000000000001";
const JOB = "00000000-0000-4000-8000-0000000000aa";

function job(status: JobStatus, stages: JobStage["status"][]): JobResource {
  return {
    id: JOB,
    object: "job",
    type: "ingest_source",
    status,
    stage: null,
    stages: stages.map((s, i) => ({ key: `s${i}`, label: `S${i}`, status: s })),
    result: {},
    error: null,
    credits_charged: 0,
    created_at: "2026-01-01T00:00:00.000Z",
    finished_at: null,
  };
}

/** A read whose answer the test releases, so changes can arrive before the snapshot does. */
function deferredRead(value: JobResource | Error) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const read = jest.fn(async () => {
    await gate;
    if (value instanceof Error) throw value;
    return value;
  });
  return { read, release };
}

async function take<T>(it: AsyncIterator<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    const r = await it.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

describe("job event ids", () => {
  it("grow with every stage change and end above every earlier state", () => {
    const path = [
      job("queued", ["pending", "pending"]),
      job("processing", ["pending", "pending"]),
      job("processing", ["running", "pending"]),
      job("processing", ["done", "pending"]),
      job("processing", ["done", "running"]),
      job("processing", ["done", "done"]),
      job("succeeded", ["done", "done"]),
    ];
    const ids = path.map(jobEventId);
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(jobEventId(job("failed", ["error", "pending"]))).toBe(7);
    expect(jobEventId(job("canceled", ["pending", "pending"]))).toBe(7);
  });
});

describe("JobEventHub", () => {
  it("sends the snapshot first, keeps changes that arrive while it is read, drops older and repeated ones, and ends after the final event", async () => {
    const { read, release } = deferredRead(job("processing", ["running", "pending"]));
    const hub = new JobEventHub(read);
    const sub = hub.subscribe(JOB, ORG);
    // Before the snapshot is read: one change older than it, one newer.
    hub.publish(ORG, job("queued", ["pending", "pending"]));
    hub.publish(ORG, job("processing", ["done", "pending"]));
    release();
    hub.publish(ORG, job("processing", ["done", "pending"])); // a repeat
    hub.publish(ORG, job("processing", ["done", "running"]));
    hub.publish("00000000-0000-4000-8000-000000000002", job("processing", ["done", "done"])); // another org's (same id): ignored
    hub.publish(ORG, job("succeeded", ["done", "done"]));
    const events = await take(sub, 10);
    expect(events.map((e) => [e.id, e.event, e.final])).toEqual([
      [3, "job.snapshot", false],
      [4, "job.progress", false],
      [5, "job.progress", false],
      [7, "job.succeeded", true],
    ]);
    expect(hub.size).toBe(0);
  });

  it("resumes after fromId: no snapshot the client has, the final event alone for a finished job, nothing after the end", async () => {
    const live = new JobEventHub(async () => job("processing", ["running"]));
    const resumed = live.subscribe(JOB, ORG, 3);
    await resumed.ready;
    live.publish(ORG, job("processing", ["done"]));
    expect((await take(resumed, 1)).map((e) => [e.id, e.event])).toEqual([[4, "job.progress"]]);
    resumed.close();
    expect(await resumed.next()).toEqual({ value: undefined, done: true });

    const finished = new JobEventHub(async () => job("failed", ["error"]));
    expect((await take(finished.subscribe(JOB, ORG, 2), 5)).map((e) => [e.id, e.event])).toEqual([[5, "job.failed"]]);
    const after = finished.subscribe(JOB, ORG, 5);
    expect((await after.ready).id).toBe(5);
    expect(await after.next()).toEqual({ value: undefined, done: true });
    // An id beyond anything the job reached was not ours: the client gets the snapshot again.
    expect((await take(finished.subscribe(JOB, ORG, 99), 5)).map((e) => e.id)).toEqual([5]);
  });

  it("fails a subscription to a job the organization cannot read, and forgets it", async () => {
    const hub = new JobEventHub(async () => {
      throw new NotFoundError("job");
    });
    const sub = hub.subscribe(JOB, ORG);
    await expect(sub.ready).rejects.toMatchObject({ type: "not_found" });
    await expect(sub.next()).rejects.toMatchObject({ type: "not_found" });
    expect(hub.size).toBe(0);
  });

  it("reads a watched job again when no broadcast came for resyncMs (a lost broadcast cannot stall a stream)", async () => {
    let stored = job("processing", ["running"]);
    const read = jest.fn(async () => stored);
    const hub = new JobEventHub(read, { resyncMs: 100 });
    const sub = hub.subscribe(JOB, ORG, 3);
    await sub.ready;
    stored = job("succeeded", ["done"]); // changed, and the broadcast was lost
    expect((await take(sub, 2)).map((e) => [e.id, e.event])).toEqual([[5, "job.succeeded"]]);
    expect(read.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(hub.size).toBe(0);
    // Nobody watches: no more reads.
    const calls = read.mock.calls.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(read.mock.calls.length).toBe(calls);
  });

  it("closeAll ends waiting consumers", async () => {
    const hub = new JobEventHub(async () => job("queued", ["pending"]));
    const sub = hub.subscribe(JOB, ORG, 1);
    await sub.ready;
    const waiting = sub.next();
    hub.closeAll();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(hub.size).toBe(0);
  });
});

describe("SSE framing", () => {
  it("is one id, one event name and one JSON data line, ended by a blank line", () => {
    const j = { ...job("queued", ["pending"]), error: "line one\nline two" };
    const frame = sseFrame({ id: 1, event: "job.snapshot", job: j });
    expect(frame).toBe(`id: 1\nevent: job.snapshot\ndata: ${JSON.stringify(j)}\n\n`);
    expect(frame.split("\n").filter((l) => l.startsWith("data:"))).toHaveLength(1);
  });
});
