import type { Clock } from "../../shared/clock";
import { FULL_RECHECK_MS, WindowOwner } from "../../services/gateway/admission/window-owner";
import { blockSize, releaseUnits, reserveUnits, type StoredWindow, type WindowStore } from "../../services/auth/window-reservations";
import { WINDOW_MS } from "../../shared/rate-window";

/** Auth's side of the windows over an in-memory database: what every owning gateway reserves against. */
function memoryStore(limit = 0): WindowStore & { windows: Map<string, StoredWindow>; writes: number } {
  const windows = new Map<string, StoredWindow>();
  if (limit) windows.set("k", { window_ends_at: null, window_count: 0, rate_limit_rpm: limit });
  const store = {
    windows,
    writes: 0,
    async read(keyId: string) {
      const w = windows.get(keyId);
      return w ? { ...w } : null;
    },
    async compareAndSet(keyId: string, expected: Pick<StoredWindow, "window_ends_at" | "window_count">, next: { window_ends_at: Date; window_count: number }) {
      const w = windows.get(keyId);
      if (!w || w.window_count !== expected.window_count || w.window_ends_at?.getTime() !== expected.window_ends_at?.getTime()) return false;
      store.writes++;
      windows.set(keyId, { ...w, ...next });
      return true;
    },
  };
  return store;
}

/** A gateway's window owner reserving from that store (auth's actions, without the transport). */
function ownerOf(store: WindowStore, clock: Clock): WindowOwner {
  return new WindowOwner({ reserve: (keyId) => reserveUnits(store, keyId, clock), release: (keyId, endsAt, units) => releaseUnits(store, keyId, endsAt, units) }, clock);
}

function fixedClock(start = Date.parse("2026-11-24T10:00:00.000Z")): Clock & { advance(ms: number): void } {
  let t = start;
  return { now: () => new Date(t), advance: (ms) => (t += ms) };
}

const admitted = async (owner: WindowOwner, n: number, limit: number) => {
  const results = await Promise.all(Array.from({ length: n }, () => owner.admit("k", limit)));
  return results;
};

describe("rate windows owned in a gateway's memory against units reserved in the database through auth", () => {
  it("admits exactly the limit, with every remaining value from limit-1 down to 0 once", async () => {
    const store = memoryStore(25);
    const owner = ownerOf(store, fixedClock());
    const results = await admitted(owner, 60, 25);
    const passed = results.filter((r) => r.admitted);
    expect(passed).toHaveLength(25);
    expect(passed.map((r) => r.state.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    for (const r of results.filter((x) => !x.admitted)) expect(r.state).toMatchObject({ limit: 25, remaining: 0, retryAfter: 60 });
    expect(store.windows.get("k")!.window_count).toBe(25);
  });

  it("writes the database once per block, not once per request", async () => {
    const store = memoryStore(10_000);
    const owner = ownerOf(store, fixedClock());
    await admitted(owner, 1000, 10_000);
    expect(blockSize(10_000)).toBe(1000);
    expect(store.writes).toBe(1);
  });

  it("never admits more than the limit across several owners sharing a key (routing in flux)", async () => {
    const store = memoryStore(50);
    const clock = fixedClock();
    const owners = [ownerOf(store, clock), ownerOf(store, clock), ownerOf(store, clock)];
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => owners[i % 3].admit("k", 50)));
    expect(results.filter((r) => r.admitted).length).toBeLessThanOrEqual(50);
    expect(results.filter((r) => r.admitted).length).toBeGreaterThanOrEqual(50 - 2 * blockSize(50));
    expect(store.windows.get("k")!.window_count).toBeLessThanOrEqual(50);
  });

  it("a crashed owner's unused units are lost for the window (under-admission of at most one block), never reused twice", async () => {
    const store = memoryStore(20);
    const clock = fixedClock();
    const crashed = ownerOf(store, clock);
    await admitted(crashed, 3, 20); // reserves a block of 2, then another: 4 reserved, 3 used
    const next = ownerOf(store, clock);
    const results = await admitted(next, 40, 20);
    const total = 3 + results.filter((r) => r.admitted).length;
    expect(total).toBe(20 - 1);
    expect(20 - total).toBeLessThanOrEqual(blockSize(20));
  });

  it("a stopping owner gives its unused units back for the next one", async () => {
    const store = memoryStore(20);
    const clock = fixedClock();
    const first = ownerOf(store, clock);
    await admitted(first, 3, 20);
    await first.releaseAll();
    expect(store.windows.get("k")!.window_count).toBe(3);
    const results = await admitted(ownerOf(store, clock), 40, 20);
    expect(3 + results.filter((r) => r.admitted).length).toBe(20);
  });

  it("opens a new window when the last one ended, with the reset 60 s after its first request", async () => {
    const store = memoryStore(2);
    const clock = fixedClock();
    const owner = ownerOf(store, clock);
    const first = await admitted(owner, 3, 2);
    expect(first.map((r) => r.admitted)).toEqual([true, true, false]);
    clock.advance(WINDOW_MS);
    const opened = clock.now().getTime();
    const [again] = await admitted(owner, 1, 2);
    expect(again.admitted).toBe(true);
    expect(again.state).toMatchObject({ remaining: 1, reset: Math.ceil((opened + WINDOW_MS) / 1000) });
  });

  it("a full window is read again after a moment, to use units another owner gave back", async () => {
    const store = memoryStore(4);
    const clock = fixedClock();
    const a = ownerOf(store, clock);
    const b = ownerOf(store, clock);
    await admitted(a, 2, 4); // a reserves 1+1
    await admitted(b, 3, 4); // b takes the other 2, then finds the window full
    await a.releaseAll(); // nothing left to give back
    const w = store.windows.get("k")!;
    store.windows.set("k", { ...w, window_count: w.window_count - 1 }); // as if a third owner gave one back
    expect((await b.admit("k", 4)).admitted).toBe(false);
    clock.advance(FULL_RECHECK_MS);
    expect((await b.admit("k", 4)).admitted).toBe(true);
  });

  it("a gateway whose clock is off from auth's holds a window for the time auth gives it, and neither loops nor over-admits", async () => {
    const store = memoryStore(2);
    const authClock = fixedClock();
    const gatewayClock = fixedClock(authClock.now().getTime() + 2 * WINDOW_MS); // two windows ahead
    const owner = new WindowOwner({ reserve: (keyId) => reserveUnits(store, keyId, authClock), release: () => Promise.resolve() }, gatewayClock);
    const results = await admitted(owner, 3, 2);
    expect(results.map((r) => r.admitted)).toEqual([true, true, false]);
    // The reset shown is the window's end as stored, the same on every gateway.
    expect(results[0].state.reset).toBe(Math.ceil(store.windows.get("k")!.window_ends_at!.getTime() / 1000));
  });

  it("an unknown key is refused as an invalid key", async () => {
    const owner = ownerOf(memoryStore(), fixedClock());
    await expect(owner.admit("missing", 10)).rejects.toMatchObject({ type: "invalid_api_key" });
  });
});
