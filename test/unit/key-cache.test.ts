import { KeyCache } from "../../services/gateway/admission/key-cache";
import type { LiveKey as KeyRecord } from "../../shared/schemas/admin";

const record = (id: string): KeyRecord => ({ _id: id, org_id: "o", key_hash: id.padEnd(64, "0"), mode: "test", rate_limit_rpm: 60 });

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("key cache with revocation notices", () => {
  it("reads a live key once, then serves it from memory", async () => {
    let reads = 0;
    const cache = new KeyCache(async (d) => (reads++, record(d)), { ttlMs: 5000, maxEntries: 10 });
    await Promise.all([cache.get("a"), cache.get("a"), cache.get("a")]);
    await cache.get("a");
    expect(reads).toBe(1);
  });

  it("never caches an unknown or revoked key", async () => {
    let reads = 0;
    const cache = new KeyCache(async () => (reads++, null), { ttlMs: 5000, maxEntries: 10 });
    expect(await cache.get("x")).toBeNull();
    expect(await cache.get("x")).toBeNull();
    expect(reads).toBe(2);
  });

  it("forget makes the next request read the database", async () => {
    const live = new Set(["a"]);
    const cache = new KeyCache(async (d) => (live.has(d) ? record(d) : null), { ttlMs: 5000, maxEntries: 10 });
    expect(await cache.get("a")).not.toBeNull();
    live.delete("a");
    expect(await cache.get("a")).not.toBeNull();
    cache.forget("a");
    expect(await cache.get("a")).toBeNull();
  });

  it("a read under way when the notice comes is not kept (it may predate the revocation)", async () => {
    const first = deferred<KeyRecord | null>();
    let reads = 0;
    const cache = new KeyCache(async () => (++reads === 1 ? first.promise : null), { ttlMs: 5000, maxEntries: 10 });
    const early = cache.get("a");
    cache.forget("a");
    first.resolve(record("a"));
    expect(await early).not.toBeNull(); // a request that began before the revocation returned
    expect(await cache.get("a")).toBeNull(); // the next one reads again
    expect(reads).toBe(2);
  });

  it("an entry expires after the TTL (the bound when a notice is lost)", async () => {
    let now = 0;
    let reads = 0;
    const cache = new KeyCache(async (d) => (reads++, record(d)), { ttlMs: 5000, maxEntries: 10, now: () => now });
    await cache.get("a");
    now = 4999;
    await cache.get("a");
    expect(reads).toBe(1);
    now = 5000;
    await cache.get("a");
    expect(reads).toBe(2);
  });

  it("keeps at most maxEntries, dropping the least recently used", async () => {
    let reads = 0;
    const cache = new KeyCache(async (d) => (reads++, record(d)), { ttlMs: 5000, maxEntries: 2 });
    await cache.get("a");
    await cache.get("b");
    await cache.get("a");
    await cache.get("c");
    expect(cache.size).toBe(2);
    reads = 0;
    await cache.get("a");
    expect(reads).toBe(0);
    await cache.get("b");
    expect(reads).toBe(1);
  });
});
