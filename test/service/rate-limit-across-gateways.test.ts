import type { ServiceBroker } from "moleculer";
import { blockSize } from "../../services/auth/window-reservations";
import { hashApiKey } from "../../shared/bearer";
import { ownerAmong } from "../../shared/runtime/key-owner";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster, type Cluster } from "../support/cluster";
import { request, type HttpResult } from "../support/http";
import type { PlatformProcess } from "../support/platform";
import { waitFor } from "../support/wait";

/**
 * Two gateways and two auth processes over a real nats-server (docs/request-path.md): each key's
 * window is counted by the gateway that owns it, against units reserved in the database through
 * either auth process.
 */
describe("rate limit and revocation across processes over NATS", () => {
  let cluster: Cluster;
  let gateways: PlatformProcess[];
  const GATEWAY_NODES = ["gw-a", "gw-b"];
  let broker: ServiceBroker;

  beforeAll(async () => {
    cluster = await startCluster();
    await cluster.spawn(backendsExcept("auth"));
    for (const nodeID of ["auth-a", "auth-b"]) await cluster.spawn("auth", { NODE_ID: nodeID });
    gateways = await Promise.all(GATEWAY_NODES.map((NODE_ID) => cluster.spawn("gateway", { NODE_ID })));
    broker = await cluster.broker();
    await broker.waitForServices(["auth", "gateway"], 10_000);
  });

  /** The index of the gateway that owns a key, and of the other one. */
  const ownerOf = (key: string) => {
    const owner = GATEWAY_NODES.indexOf(ownerAmong(GATEWAY_NODES, hashApiKey(key))!);
    return { owner, other: 1 - owner };
  };

  afterAll(async () => {
    await cluster?.stop();
  });

  const usage = (i: number, key: string) => request(gateways[i % 2].url, "/v1/usage?days=1", { token: key });

  it("two gateways share one key's budget exactly: of 2×L parallel requests exactly L pass, with exact headers", async () => {
    const L = 25;
    const { key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { rate_limit_rpm: L });
    const results = await Promise.all(Array.from({ length: 2 * L }, (_, i) => usage(i, key)));
    const passed = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 429);
    expect(passed).toHaveLength(L);
    expect(refused).toHaveLength(L);
    // Each remaining value from L-1 down to 0 exactly once: one count, whichever gateway answered.
    const remaining = passed.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: L }, (_, i) => i));
    const resets = new Set(results.map((r) => r.headers.get("x-ratelimit-reset")));
    expect(resets.size).toBe(1);
    const reset = Number([...resets][0]);
    expect(reset * 1000).toBeGreaterThan(Date.now());
    expect(reset * 1000).toBeLessThanOrEqual(Date.now() + 61_000);
    for (const r of results) expect(r.headers.get("x-ratelimit-limit")).toBe(String(L));
    for (const r of refused) {
      expect(r.body.error.code).toBe("rate_limit_exceeded");
      expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    }
  });

  it("keeps the per-day request count and last_used_at exact, whichever gateway each request reached", async () => {
    const { key, keyId, orgId } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN);
    const N = 30;
    const results = await Promise.all(Array.from({ length: N }, (_, i) => usage(i, key)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Read from billing and the admin listing directly, so the checks themselves count nothing.
    const counted = await waitFor(async () => {
      const report = (await broker.call("billing.usage", { org_id: orgId, days: 1 })) as { daily: { requests: number }[] };
      return report.daily[0].requests >= N ? report.daily[0].requests : undefined;
    }, "the gateways' request counts to reach billing", 15_000, 200);
    expect(counted).toBe(N);
    const used = await waitFor(async () => {
      const keys = await request(gateways[1].url, `/admin/orgs/${orgId}/keys`, { token: ADMIN_TOKEN });
      return keys.body.data.find((k: { id: string }) => k.id === keyId)?.last_used_at ?? undefined;
    }, "last_used_at to be recorded", 15_000, 200);
    expect(Date.parse(used)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a revoked key fails on the next request, on any gateway", async () => {
    const { key, keyId } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN);
    // Through both gateways first, so the owning auth process holds the key in its cache.
    expect((await usage(0, key)).status).toBe(200);
    expect((await usage(1, key)).status).toBe(200);
    const revoked = await request(gateways[1].url, `/admin/keys/${keyId}`, { method: "DELETE", token: ADMIN_TOKEN });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect((await usage(0, key)).status).toBe(401);
    expect((await usage(1, key)).status).toBe(401);
  });

  it("a revocation the key's owning gateway cannot acknowledge (process stopped) returns only once that gateway can no longer admit the key", async () => {
    const { key, keyId } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN);
    const { owner, other } = ownerOf(key);
    expect((await usage(other, key)).status).toBe(200); // the owner holds the key's record now
    gateways[owner].child.kill("SIGSTOP");
    const started = Date.now();
    try {
      const revoked = await request(gateways[other].url, `/admin/keys/${keyId}`, { method: "DELETE", token: ADMIN_TOKEN });
      expect(revoked.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4_000); // waited out the record the stopped owner holds
    } finally {
      gateways[owner].child.kill("SIGCONT");
    }
    // Whether the owner is still registered or was dropped meanwhile, neither gateway admits the key any more.
    for (const i of [owner, other]) {
      const r = await waitFor(async () => {
        const res = await usage(i, key);
        return res.status === 503 ? undefined : res; // the owner's node being dropped or coming back
      }, "an answer other than 503", 20_000, 200);
      expect(r.status).toBe(401);
    }
  });

  it("a crash of a key's owning gateway never lets more than the budget through; what it held is lost (at most one block)", async () => {
    // The previous test may have had the stopped gateway dropped and re-discovered: wait until both serve again.
    await waitFor(async () => {
      const ids = new Set(((await broker.call("$node.list", { onlyAvailable: true })) as { id: string }[]).map((n) => n.id));
      return GATEWAY_NODES.every((n) => ids.has(n)) ? true : undefined;
    }, "both gateways available", 20_000, 200);
    const L = 20;
    const { key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { rate_limit_rpm: L });
    const { owner, other } = ownerOf(key);
    let passed = 0;
    for (let i = 0; i < 5; i++) {
      const r = await usage(i, key);
      expect(r.status).toBe(200);
      passed++;
    }
    await gateways[owner].kill();
    // Keep asking the surviving gateway until the budget is spent: calls still routed to the dead
    // owner fail with 503 until it is dropped, then the survivor owns the key.
    let last: HttpResult | undefined;
    await waitFor(async () => {
      last = await usage(other, key);
      if (last.status === 200) passed++;
      else if (last.status !== 503 && last.status !== 429) throw new Error(`unexpected ${last.status} ${last.text}`);
      return last.status === 429 ? true : undefined;
    }, "the budget to be spent", 30_000, 0);
    expect(passed).toBeLessThanOrEqual(L);
    expect(L - passed).toBeLessThanOrEqual(blockSize(L));
    // And it stays spent for the rest of the window.
    expect((await usage(other, key)).status).toBe(429);
  });
});
