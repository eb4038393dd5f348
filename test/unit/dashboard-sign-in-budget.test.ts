import http from "node:http";
import { JobEventHub } from "../../services/gateway/job-events/hub";
import { JobEventStreams } from "../../services/gateway/job-events/sse";
import type { AddressInfo } from "node:net";
import { DASHBOARD_ROUTES } from "../../services/gateway/dashboard/pages";
import { createRouter } from "../../services/gateway/dashboard/router";
import { FailureBudget, SIGN_IN_BUDGET } from "../../services/gateway/dashboard/sign-in-budget";
import type { Caller } from "../../shared/action";
import { loadConfig, useConfig } from "../../shared/config";

/** The operator sign-in form's failure budget per client address (docs/dashboard.md): the counter, then the form over HTTP. */

function fakeClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("FailureBudget", () => {
  const opts = { maxFailures: 3, windowMs: 60_000, maxClients: 100 };

  it("refuses an address once it has used its failures, until the window of its first failure ends", () => {
    const clock = fakeClock();
    const budget = new FailureBudget(opts, clock.now);
    for (let i = 0; i < 3; i++) {
      expect(budget.retryAfterSeconds("10.0.0.1")).toBe(0);
      budget.recordFailure("10.0.0.1");
      clock.advance(10_000);
    }
    // The window opened 30 s ago: 30 s left.
    expect(budget.retryAfterSeconds("10.0.0.1")).toBe(30);
    expect(budget.retryAfterSeconds("10.0.0.2")).toBe(0);
    clock.advance(29_500);
    expect(budget.retryAfterSeconds("10.0.0.1")).toBe(1);
    clock.advance(500);
    expect(budget.retryAfterSeconds("10.0.0.1")).toBe(0);
    // A new window: three more failures allowed.
    budget.recordFailure("10.0.0.1");
    budget.recordFailure("10.0.0.1");
    expect(budget.retryAfterSeconds("10.0.0.1")).toBe(0);
    budget.recordFailure("10.0.0.1");
    expect(budget.retryAfterSeconds("10.0.0.1")).toBe(60);
  });

  it("forgets an address's failures when it signs in", () => {
    const budget = new FailureBudget(opts, fakeClock().now);
    budget.recordFailure("10.0.0.1");
    budget.recordFailure("10.0.0.1");
    budget.recordSuccess("10.0.0.1");
    budget.recordFailure("10.0.0.1");
    budget.recordFailure("10.0.0.1");
    expect(budget.retryAfterSeconds("10.0.0.1")).toBe(0);
  });

  it("tracks at most maxClients addresses, dropping the oldest window first", () => {
    const clock = fakeClock();
    const budget = new FailureBudget({ maxFailures: 1, windowMs: 60_000, maxClients: 3 }, clock.now);
    for (const address of ["a", "b", "c", "d"]) {
      budget.recordFailure(address);
      clock.advance(1000);
    }
    expect(budget.size).toBe(3);
    expect(budget.retryAfterSeconds("a")).toBe(0);
    for (const address of ["b", "c", "d"]) expect(budget.retryAfterSeconds(address)).toBeGreaterThan(0);
  });

  it("allows 10 wrong tokens per address per 15 minutes on the sign-in form", () => {
    expect(SIGN_IN_BUDGET).toEqual({ maxFailures: 10, windowMs: 900_000, maxClients: 10_000 });
  });
});

describe("POST /dashboard/sign-in", () => {
  const ADMIN_TOKEN = "adm_the_right_token_0123456789";
  const opened: string[] = [];
  const caller: Caller = {
    async call(action) {
      opened.push(action);
      if (action !== "auth.openOperatorSession") throw new Error(`unexpected call ${action}`);
      return { session: "s".repeat(43), role: "operator", org_id: null, csrf_token: "c".repeat(43), expires_at: new Date(Date.now() + 3600_000).toISOString() };
    },
  };
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    useConfig(loadConfig({ ADMIN_TOKEN }));
    const router = createRouter(DASHBOARD_ROUTES, {
      caller, secure: () => false, signInBudget: new FailureBudget({ maxFailures: 3, windowMs: 60_000, maxClients: 100 }),
      jobStreams: new JobEventStreams(new JobEventHub(() => Promise.reject(new Error("no jobs in this test"))), { heartbeatMs: 15_000, maxStreamsPerKey: 1 }),
    });
    server = http.createServer((req, res) => void router(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const signIn = (token: string) =>
    fetch(`${base}/dashboard/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
      body: new URLSearchParams({ admin_token: token }).toString(),
    });

  it("answers 429 with a clear page once an address has used its budget, even for the right token; 401 before", async () => {
    // Two failures, then a sign-in: the failures are forgotten.
    for (let i = 0; i < 2; i++) expect((await signIn(`adm_wrong_${i}_000000000000000000`)).status).toBe(401);
    const ok = await signIn(ADMIN_TOKEN);
    expect(ok.status).toBe(303);
    expect(ok.headers.get("set-cookie")).toMatch(/^dashboard_session=s{43};/);

    for (let i = 0; i < 3; i++) {
      const refused = await signIn(`adm_wrong_${i}_000000000000000000`);
      expect(refused.status).toBe(401);
      expect(await refused.text()).toContain("That is not the admin token.");
    }
    const calls = opened.length;
    for (const token of ["adm_wrong_again_00000000000000000", ADMIN_TOKEN]) {
      const paused = await signIn(token);
      expect(paused.status).toBe(429);
      expect(Number(paused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(paused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect(paused.headers.get("set-cookie")).toBeNull();
      expect(paused.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(await paused.text()).toContain("Too many wrong admin tokens from your address: signing in is paused for 1 minute(s).");
    }
    // No session was opened while paused.
    expect(opened.length).toBe(calls);
  });
});
