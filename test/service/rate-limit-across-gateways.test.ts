import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, backendsExcept, startCluster, type Cluster } from "../support/cluster";
import { request } from "../support/http";
import type { PlatformProcess } from "../support/platform";

describe("rate limit and revocation across processes over NATS", () => {
  let cluster: Cluster;
  let gateways: PlatformProcess[];

  beforeAll(async () => {
    cluster = await startCluster();
    // Two auth instances as well: the window count must live in the shared database, not in a process.
    await cluster.spawn(backendsExcept());
    await cluster.spawn("auth");
    gateways = [await cluster.spawn("gateway"), await cluster.spawn("gateway")];
  });

  afterAll(() => cluster?.stop());

  it("two gateway processes share one key's budget exactly: of 2×L parallel requests exactly L pass", async () => {
    const L = 25;
    const { key } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN, { rate_limit_rpm: L });
    const results = await Promise.all(
      Array.from({ length: 2 * L }, (_, i) => request(gateways[i % 2].url, "/v1/usage?days=1", { token: key })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(L);
    expect(statuses.filter((s) => s === 429)).toHaveLength(L);
    const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers.get("x-ratelimit-remaining")));
    expect(new Set(remaining).size).toBe(L);
    expect(Math.min(...remaining)).toBe(0);
    for (const r of results.filter((x) => x.status === 429)) {
      expect(r.body.error.code).toBe("rate_limit_exceeded");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  it("a revoked key fails on the next request, on any gateway", async () => {
    const { key, keyId } = await createOrgWithKey(gateways[0].url, ADMIN_TOKEN);
    expect((await request(gateways[0].url, "/v1/usage", { token: key })).status).toBe(200);
    const revoked = await request(gateways[1].url, `/admin/keys/${keyId}`, { method: "DELETE", token: ADMIN_TOKEN });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect((await request(gateways[0].url, "/v1/usage", { token: key })).status).toBe(401);
    expect((await request(gateways[1].url, "/v1/usage", { token: key })).status).toBe(401);
  });
});
