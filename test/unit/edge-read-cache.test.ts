import type { Context } from "moleculer";
import { announcingUsage } from "../../services/billing/announce-usage";
import type { ServiceBroker } from "moleculer";
import { FinalJobCache } from "../../services/gateway/read-cache/final-jobs";
import { deepFreeze, jsonOf } from "../../services/gateway/read-cache/answers";
import { NoticeReach } from "../../services/gateway/read-cache/notice-reach";
import { UsageCache } from "../../services/gateway/read-cache/usage";
import { USAGE_CHANGED_EVENT, UsageChangedPayload } from "../../shared/events/usage-changed";
import { NotFoundError } from "../../shared/errors";
import type { UsageReport } from "../../shared/schemas/billing";
import type { JobResource, JobStatus } from "../../shared/schemas/jobs";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const job = (id: string, status: JobStatus, meta: Record<string, unknown> = {}): JobResource => ({
  id,
  object: "job",
  type: "article",
  status,
  stage: "draft",
  stages: [{ key: "draft", label: "Draft", status: status === "processing" ? "running" : "done", meta }],
  result: {},
  error: null,
  credits_charged: 3,
  created_at: "2026-11-24T00:00:00.000Z",
  finished_at: status === "processing" || status === "queued" ? null : "2026-11-24T00:01:00.000Z",
});

const report = (balance: number, days = 1): UsageReport => ({
  object: "usage",
  days,
  credit_balance: balance,
  daily: [{ day: "2026-11-24", credits: 0, requests: 0, tokens_in: 0, tokens_out: 0 }],
});

describe("final-job cache", () => {
  it("serves a final job from memory after one read, and counts the hit", async () => {
    const cache = new FinalJobCache({ max: 10 });
    let reads = 0;
    const outcomes: string[] = [];
    const fetch = async () => (reads++, job("j1", "succeeded"));
    const first = await cache.read("org-a", "j1", fetch, (o) => outcomes.push(o));
    const second = await cache.read("org-a", "j1", fetch, (o) => outcomes.push(o));
    expect(second).toEqual(first);
    expect(reads).toBe(1);
    expect(outcomes).toEqual(["miss", "hit"]);
  });

  it("never stores a job that is not final: each read of a running job reaches the pipeline and sees its progress", async () => {
    const cache = new FinalJobCache({ max: 10 });
    let step = 0;
    const fetch = async () => job("j1", "processing", { step: ++step });
    expect((await cache.read("org-a", "j1", fetch)).stages[0].meta).toEqual({ step: 1 });
    expect((await cache.read("org-a", "j1", fetch)).stages[0].meta).toEqual({ step: 2 });
    const queued = async () => job("j2", "queued");
    await cache.read("org-a", "j2", queued);
    expect(cache.size).toBe(0);
  });

  it("stores the job once it has ended, and every final status is stored", async () => {
    const cache = new FinalJobCache({ max: 10 });
    for (const status of ["succeeded", "failed", "canceled"] as const) await cache.read("org-a", `j-${status}`, async () => job(`j-${status}`, status));
    expect(cache.size).toBe(3);
  });

  it("keys by organization: another organization's read of a cached job id reaches the pipeline and gets its 404", async () => {
    const cache = new FinalJobCache({ max: 10 });
    await cache.read("org-a", "j1", async () => job("j1", "succeeded"));
    await expect(
      cache.read("org-b", "j1", async () => {
        throw new NotFoundError("job");
      }),
    ).rejects.toThrow(NotFoundError);
    expect(await cache.read("org-a", "j1", async () => Promise.reject(new Error("not read")))).toMatchObject({ id: "j1" });
  });

  it("does not keep errors", async () => {
    const cache = new FinalJobCache({ max: 10 });
    await expect(cache.read("org-a", "j1", async () => Promise.reject(new Error("unavailable")))).rejects.toThrow("unavailable");
    expect(await cache.read("org-a", "j1", async () => job("j1", "failed"))).toMatchObject({ status: "failed" });
  });

  it("is bounded: the least recently used job is dropped first", async () => {
    const cache = new FinalJobCache({ max: 2 });
    const reads: string[] = [];
    const read = (id: string) => cache.read("org-a", id, async () => (reads.push(id), job(id, "succeeded")));
    await read("a");
    await read("b");
    await read("a"); // a is now the most recently used
    await read("c"); // drops b
    expect(cache.size).toBe(2);
    await read("a");
    await read("b");
    expect(reads).toEqual(["a", "b", "c", "b"]);
  });

  it("hands out a frozen answer, so no reader can change it for later ones", async () => {
    const cache = new FinalJobCache({ max: 10 });
    const cached = await cache.read("org-a", "j1", async () => job("j1", "succeeded"));
    expect(() => {
      (cached.stages[0] as { status: string }).status = "running";
    }).toThrow(TypeError);
  });
});

describe("usage cache", () => {
  const clock = () => {
    const c = { t: 1000, day: "2026-11-24" };
    return { c, now: () => c.t, today: () => c.day };
  };

  it("answers from memory within the TTL, then reads again", async () => {
    const { c, now, today } = clock();
    const cache = new UsageCache({ ttlMs: 1000, maxOrgs: 10, now, today });
    let reads = 0;
    const fetch = async () => report(++reads);
    expect((await cache.read("o", 1, fetch)).credit_balance).toBe(1);
    c.t += 999;
    expect((await cache.read("o", 1, fetch)).credit_balance).toBe(1);
    c.t += 1;
    expect((await cache.read("o", 1, fetch)).credit_balance).toBe(2);
  });

  it("counts the TTL from when the read was sent, not from when its answer arrived", async () => {
    const { c, now, today } = clock();
    const cache = new UsageCache({ ttlMs: 1000, maxOrgs: 10, now, today });
    const slow = deferred<UsageReport>();
    const first = cache.read("o", 1, () => slow.promise);
    c.t += 800;
    slow.resolve(report(1));
    await first;
    c.t += 200; // 1000 ms after the read was sent
    let reads = 0;
    await cache.read("o", 1, async () => (reads++, report(2)));
    expect(reads).toBe(1);
  });

  it("keys by organization, days and UTC day", async () => {
    const { c, now, today } = clock();
    const cache = new UsageCache({ ttlMs: 1000, maxOrgs: 10, now, today });
    let reads = 0;
    const fetch = (days: number) => async () => (reads++, report(0, days));
    await cache.read("o", 1, fetch(1));
    await cache.read("o", 7, fetch(7));
    await cache.read("p", 1, fetch(1));
    expect(reads).toBe(3);
    expect((await cache.read("o", 7, fetch(7))).days).toBe(7);
    expect(reads).toBe(3);
    c.day = "2026-11-25"; // the window moved: yesterday's report is not today's
    await cache.read("o", 7, fetch(7));
    expect(reads).toBe(4);
  });

  it("a change notice drops the organization's answers, and only its", async () => {
    const { now, today } = clock();
    const cache = new UsageCache({ ttlMs: 2000, maxOrgs: 10, now, today });
    await cache.read("o", 1, async () => report(1));
    await cache.read("o", 30, async () => report(1, 30));
    await cache.read("p", 1, async () => report(5));
    cache.invalidate(["o"]);
    expect((await cache.read("o", 1, async () => report(2))).credit_balance).toBe(2);
    expect((await cache.read("o", 30, async () => report(2, 30))).credit_balance).toBe(2);
    expect((await cache.read("p", 1, async () => report(6))).credit_balance).toBe(5);
  });

  it("a read sent before a change notice is answered but never stored (generation race)", async () => {
    const { now, today } = clock();
    const cache = new UsageCache({ ttlMs: 2000, maxOrgs: 10, now, today });
    const before = deferred<UsageReport>();
    const inFlight = cache.read("o", 1, () => before.promise);
    cache.invalidate(["o"]); // the write committed after that read had been sent
    before.resolve(report(1)); // its answer may predate the write
    expect((await inFlight).credit_balance).toBe(1);
    expect((await cache.read("o", 1, async () => report(2))).credit_balance).toBe(2);
    expect((await cache.read("o", 1, async () => report(3))).credit_balance).toBe(2); // the fresh answer is stored
  });

  it("with reads overlapping a notice, only a read sent after it stores its answer", async () => {
    const { now, today } = clock();
    const cache = new UsageCache({ ttlMs: 2000, maxOrgs: 10, now, today });
    const old = deferred<UsageReport>();
    const fresh = deferred<UsageReport>();
    const a = cache.read("o", 1, () => old.promise);
    cache.invalidate(["o"]);
    const b = cache.read("o", 1, () => fresh.promise);
    fresh.resolve(report(2));
    await b;
    old.resolve(report(1)); // arrives last: must not replace the fresh answer
    await a;
    expect((await cache.read("o", 1, async () => report(9))).credit_balance).toBe(2);
  });

  it("concurrent misses share one read; a miss after a change notice never joins a read sent before it", async () => {
    const { now, today } = clock();
    const cache = new UsageCache({ ttlMs: 2000, maxOrgs: 10, now, today });
    const first = deferred<UsageReport>();
    let reads = 0;
    const fetch = (d: { promise: Promise<UsageReport> }) => () => (reads++, d.promise);
    const waiting = [cache.read("o", 1, fetch(first)), cache.read("o", 1, fetch(first)), cache.read("o", 1, fetch(first))];
    expect(reads).toBe(1);
    cache.invalidate(["o"]); // a write committed: the read under way may predate it
    const second = deferred<UsageReport>();
    const afterNotice = cache.read("o", 1, fetch(second));
    const joined = cache.read("o", 1, fetch(second)); // same generation as the read sent after the notice: joins it
    expect(reads).toBe(2);
    first.resolve(report(1));
    second.resolve(report(2));
    expect((await Promise.all(waiting)).map((r) => r.credit_balance)).toEqual([1, 1, 1]);
    expect([(await afterNotice).credit_balance, (await joined).credit_balance]).toEqual([2, 2]);
    expect((await cache.read("o", 1, async () => report(9))).credit_balance).toBe(2);
  });

  it("a failed read stores nothing and leaves no state behind", async () => {
    const { now, today } = clock();
    const cache = new UsageCache({ ttlMs: 2000, maxOrgs: 10, now, today });
    await expect(cache.read("o", 1, async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(cache.size).toBe(0);
    expect((await cache.read("o", 1, async () => report(1))).credit_balance).toBe(1);
    expect(cache.size).toBe(1);
  });

  it("TTL 0 turns it off", async () => {
    const { now, today } = clock();
    const cache = new UsageCache({ ttlMs: 0, maxOrgs: 10, now, today });
    let reads = 0;
    await cache.read("o", 1, async () => (reads++, report(1)));
    await cache.read("o", 1, async () => (reads++, report(1)));
    expect(reads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it("stores nothing while a billing process may not send this gateway its notices", async () => {
    const { now, today } = clock();
    let reached = false;
    const cache = new UsageCache({ ttlMs: 2000, maxOrgs: 10, noticesReach: () => reached, now, today });
    let reads = 0;
    await cache.read("o", 1, async () => (reads++, report(1)));
    await cache.read("o", 1, async () => (reads++, report(1)));
    expect(reads).toBe(2);
    reached = true;
    await cache.read("o", 1, async () => (reads++, report(1)));
    await cache.read("o", 1, async () => (reads++, report(1)));
    expect(reads).toBe(3);
  });

  it("is bounded by organizations (LRU) and by days values per organization", async () => {
    const { now, today } = clock();
    const cache = new UsageCache({ ttlMs: 2000, maxOrgs: 2, now, today });
    for (const org of ["a", "b", "c"]) await cache.read(org, 1, async () => report(1));
    expect(cache.size).toBe(2);
    for (let days = 1; days <= 10; days++) await cache.read("c", days, async () => report(1, days));
    expect(cache.size).toBe(1 + 4);
  });
});

describe("billing's usage notices", () => {
  const fakeCtx = (log: string[], fail = false) =>
    ({
      broadcast: async (event: string, payload: unknown) => {
        if (fail) throw new Error("transport down");
        log.push(`${event} ${JSON.stringify(UsageChangedPayload.parse(payload))}`);
      },
    }) as unknown as Context;

  it("are sent after the write and before the action replies, once per organization", async () => {
    const log: string[] = [];
    const reply = await announcingUsage(fakeCtx(log), ["o", "p", "o"], async () => (log.push("write"), { ok: true }));
    log.push("reply");
    expect(reply).toEqual({ ok: true });
    expect(log).toEqual(["write", `${USAGE_CHANGED_EVENT} {"org_ids":["o","p"]}`, "reply"]);
  });

  it("are sent after a write that failed (part of it may have committed), and the failure still reaches the caller", async () => {
    const log: string[] = [];
    await expect(announcingUsage(fakeCtx(log), ["o"], async () => Promise.reject(new Error("insufficient")))).rejects.toThrow("insufficient");
    expect(log).toEqual([`${USAGE_CHANGED_EVENT} {"org_ids":["o"]}`]);
  });

  it("never fail the write when the notice cannot be sent", async () => {
    await expect(announcingUsage(fakeCtx([], true), ["o"], async () => "done")).resolves.toBe("done");
  });

  it("send nothing for a write that names no organization", async () => {
    const log: string[] = [];
    await announcingUsage(fakeCtx(log), [], async () => undefined);
    expect(log).toEqual([]);
  });
});

describe("notice reach (every billing process knows this gateway)", () => {
  /** A broker seeing billing on `nodes` (id → instance), each of which lists the nodes in `knows[id]`. */
  function fakeBroker(nodes: Record<string, string>, knows: Record<string, string[]>) {
    const asked: string[] = [];
    const broker = {
      nodeID: "gw-1",
      registry: {
        getActionEndpoints: () => ({ endpoints: Object.keys(nodes).map((id) => ({ id, isAvailable: true })) }),
        nodes: { get: (id: string) => (nodes[id] ? { instanceID: nodes[id] } : undefined) },
      },
      call: async (_action: string, _params: unknown, opts: { nodeID: string }) => {
        asked.push(opts.nodeID);
        return (knows[opts.nodeID] ?? []).map((id) => ({ id }));
      },
    };
    return { broker: broker as unknown as ServiceBroker, asked };
  }
  const settle = () => new Promise((r) => setTimeout(r, 5));

  it("is reached once every billing process lists this gateway, and not before", async () => {
    const knows: Record<string, string[]> = { "billing-a": ["billing-a", "gw-1"], "billing-b": ["billing-b"] };
    const nodes: Record<string, string> = { "billing-a": "i1", "billing-b": "i2" };
    const { broker, asked } = fakeBroker(nodes, knows);
    const reach = new NoticeReach(broker, "billing.usage", { retryMs: 1, timeoutMs: 100 });
    expect(reach.reached()).toBe(false);
    await settle();
    expect(reach.reached()).toBe(false); // billing-b does not know the gateway yet
    knows["billing-b"].push("gw-1");
    await settle();
    reach.reached();
    await settle();
    expect(reach.reached()).toBe(true);
    const calls = asked.length;
    expect(reach.reached()).toBe(true);
    expect(asked).toHaveLength(calls); // confirmed processes are not asked again
  });

  it("asks a billing process again when it restarted (a new instance under the same id)", async () => {
    const knows: Record<string, string[]> = { "billing-a": ["gw-1"] };
    const nodes: Record<string, string> = { "billing-a": "i1" };
    const { broker } = fakeBroker(nodes, knows);
    const reach = new NoticeReach(broker, "billing.usage", { retryMs: 1, timeoutMs: 100 });
    reach.reached();
    await settle();
    expect(reach.reached()).toBe(true);
    nodes["billing-a"] = "i2";
    knows["billing-a"] = [];
    expect(reach.reached()).toBe(false);
    await settle();
    expect(reach.reached()).toBe(false);
  });

  it("is not reached with no billing process at all", () => {
    const { broker } = fakeBroker({}, {});
    expect(new NoticeReach(broker, "billing.usage").reached()).toBe(false);
  });
});

describe("encoding a cached answer", () => {
  it("encodes a frozen (cached) answer once, and anything else each time", () => {
    const cached = deepFreeze({ id: "j1", stages: [{ key: "draft" }] });
    expect(jsonOf(cached)).toBe(JSON.stringify(cached));
    expect(jsonOf(cached)).toBe(jsonOf(cached));
    const live = { n: 1 };
    expect(jsonOf(live)).toBe('{"n":1}');
    live.n = 2; // not frozen: its text follows it
    expect(jsonOf(live)).toBe('{"n":2}');
    expect([jsonOf("text"), jsonOf(3), jsonOf(null)]).toEqual(['"text"', "3", "null"]);
  });
});
