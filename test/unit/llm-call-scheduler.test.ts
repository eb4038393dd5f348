import { CallScheduler, scheduledComplete } from "../../shared/llm/call-scheduler";
import type { CompleteFn, Completion } from "../../shared/llm/types";

/** A fake model whose calls stay in flight until the test answers them, one by one. */
function controllableModel() {
  const calls: { label: string; job: string | undefined; settled: boolean; answer: (text?: string) => void; fail: (err: Error) => void }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const complete: CompleteFn = (messages, options) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    return new Promise<Completion>((resolve, reject) => {
      const call = {
        label: messages[0].content,
        job: options?.job,
        settled: false,
        answer: (text = "ok") => {
          settle();
          resolve({ text, tokensIn: 1, tokensOut: 1 });
        },
        fail: (err: Error) => {
          settle();
          reject(err);
        },
      };
      const settle = () => {
        call.settled = true;
        inFlight--;
      };
      calls.push(call);
    });
  };
  return { complete, calls, started: () => calls.map((c) => c.label), maxInFlight: () => maxInFlight, inFlight: () => inFlight };
}

/** Lets settled promises run their callbacks (the scheduler starts the next call in a `finally`). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

const ask = (complete: CompleteFn, label: string, job?: string) => complete([{ role: "user", content: label }], job === undefined ? {} : { job });

describe("CallScheduler", () => {
  it("never has more calls in flight than its limit, and starts a waiting call as soon as a slot frees", async () => {
    const model = controllableModel();
    const scheduler = new CallScheduler({ limit: 3 });
    const complete = scheduledComplete(model.complete, scheduler);
    const answers = Array.from({ length: 10 }, (_, i) => ask(complete, `c${i}`, i % 2 ? "a" : "b"));
    await flush();
    expect(model.calls).toHaveLength(3);
    expect(scheduler.stats()).toMatchObject({ inFlight: 3, waiting: 7 });
    // Answer in a scrambled order; at every step the cap holds and freed slots are refilled.
    for (let answered = 0; answered < 10; answered++) {
      const pending = model.calls.filter((c) => !c.settled);
      const next = pending[answered % pending.length];
      next.answer(next.label);
      await flush();
      expect(model.inFlight()).toBeLessThanOrEqual(3);
      expect(model.inFlight()).toBe(Math.min(3, 10 - answered - 1));
    }
    expect(model.maxInFlight()).toBe(3);
    await expect(Promise.all(answers)).resolves.toEqual(Array.from({ length: 10 }, (_, i) => ({ text: `c${i}`, tokensIn: 1, tokensOut: 1 })));
    expect(scheduler.stats()).toMatchObject({ inFlight: 0, waiting: 0, jobsWaiting: 0 });
  });

  it("gives a job with 2 calls the next free slots even when another job has 20 waiting, and keeps each job's order", async () => {
    const model = controllableModel();
    const complete = scheduledComplete(model.complete, new CallScheduler({ limit: 2 }));
    const deep = Array.from({ length: 22 }, (_, i) => ask(complete, `deep${i}`, "deep-article"));
    await flush();
    expect(model.started()).toEqual(["deep0", "deep1"]);
    const small = [ask(complete, "small0", "small-article"), ask(complete, "small1", "small-article")];
    await flush();

    // Slots free one at a time, and go round-robin: the deep job (waiting first) and the small one take turns,
    // so the small job's calls start at the next free slots, not after the deep job's 20.
    model.calls[0].answer();
    await flush();
    model.calls[1].answer();
    await flush();
    expect(model.started().slice(2)).toEqual(["deep2", "small0"]);
    model.calls[2].answer();
    await flush();
    model.calls[3].answer();
    await flush();
    expect(model.started().slice(4)).toEqual(["deep3", "small1"]);

    // The rest, each job in the order it asked.
    for (let i = 4; i < 24; i++) {
      model.calls[i].answer();
      await flush();
    }
    await Promise.all([...deep, ...small]);
    const deepOrder = model.started().filter((l) => l.startsWith("deep"));
    expect(deepOrder).toEqual(Array.from({ length: 22 }, (_, i) => `deep${i}`));
    expect(model.maxInFlight()).toBe(2);
  });

  it("takes turns between three jobs and the calls without a job, first in first out within each", async () => {
    const model = controllableModel();
    const complete = scheduledComplete(model.complete, new CallScheduler({ limit: 1 }));
    const all = [
      ask(complete, "a0", "a"),
      ask(complete, "a1", "a"),
      ask(complete, "a2", "a"),
      ask(complete, "b0", "b"),
      ask(complete, "n0"),
      ask(complete, "b1", "b"),
      ask(complete, "n1"),
      ask(complete, "c0", "c"),
    ];
    for (let i = 0; i < all.length; i++) {
      await flush();
      model.calls[i].answer();
    }
    await Promise.all(all);
    // a0 starts at once; then one call per waiting job in the order the jobs first waited.
    expect(model.started()).toEqual(["a0", "a1", "b0", "n0", "c0", "a2", "b1", "n1"]);
    expect(model.calls.map((c) => c.job)).toEqual(["a", "a", "b", undefined, "c", "a", "b", undefined]);
  });

  it("frees the slot of a failed call and passes the failure to its caller", async () => {
    const model = controllableModel();
    const complete = scheduledComplete(model.complete, new CallScheduler({ limit: 1 }));
    const first = ask(complete, "first", "a");
    const second = ask(complete, "second", "b");
    await flush();
    model.calls[0].fail(new Error("boom"));
    await expect(first).rejects.toThrow("boom");
    await flush();
    expect(model.started()).toEqual(["first", "second"]);
    model.calls[1].answer("fine");
    await expect(second).resolves.toMatchObject({ text: "fine" });
  });

  it("frees the slot of a call that throws instead of returning a promise", async () => {
    const scheduler = new CallScheduler({ limit: 1 });
    await expect(scheduler.run("a", () => { throw new Error("sync"); })).rejects.toThrow("sync");
    await expect(scheduler.run("a", async () => 42)).resolves.toBe(42);
  });

  it("starts no new call while paused, lets calls in flight finish, and resumes at the end of the pause", async () => {
    let now = 1_000_000;
    const timers: { at: number; fn: () => void }[] = [];
    const scheduler = new CallScheduler({ limit: 2, now: () => now, setTimer: (fn, ms) => timers.push({ at: now + ms, fn }) });
    const model = controllableModel();
    const complete = scheduledComplete(model.complete, scheduler);
    const inFlight = ask(complete, "before", "a");
    await flush();
    scheduler.pauseUntil(now + 5_000);
    // A shorter pause does not shorten it.
    scheduler.pauseUntil(now + 1_000);
    const waiting = [ask(complete, "w0", "a"), ask(complete, "w1", "b")];
    await flush();
    expect(model.started()).toEqual(["before"]);
    model.calls[0].answer();
    await inFlight;
    await flush();
    expect(model.started()).toEqual(["before"]);
    expect(scheduler.stats()).toMatchObject({ waiting: 2, pausedForMs: 5_000 });
    expect(timers.map((t) => t.at)).toEqual([now + 5_000]);

    now += 5_000;
    timers[0].fn();
    await flush();
    expect(model.started()).toEqual(["before", "w0", "w1"]);
    model.calls[1].answer();
    model.calls[2].answer();
    await Promise.all(waiting);
  });

  it("re-arms its wake-up when a pause is extended while calls wait", async () => {
    let now = 0;
    const timers: { at: number; fn: () => void }[] = [];
    const scheduler = new CallScheduler({ limit: 1, now: () => now, setTimer: (fn, ms) => timers.push({ at: now + ms, fn }) });
    scheduler.pauseUntil(1_000);
    const result = scheduler.run("a", async () => "done");
    scheduler.pauseUntil(3_000);
    expect(timers.map((t) => t.at)).toEqual([1_000, 3_000]);
    now = 1_000;
    timers[0].fn();
    await flush();
    expect(scheduler.stats()).toMatchObject({ waiting: 1 });
    // The earlier timer armed nothing new.
    expect(timers).toHaveLength(2);
    now = 3_000;
    timers[1].fn();
    await expect(result).resolves.toBe("done");
  });
});
