import type { LookupAddress } from "node:dns";
import { sendAttempt, WEBHOOK_USER_AGENT } from "../../services/webhooks/attempt";
import { systemClock } from "../../shared/clock";
import { generateWebhookSecret } from "../../shared/events/signer";
import type { HostResolver } from "../../shared/net/url-guard";
import { freePort } from "../support/ports";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "../support/webhook-receiver";

const LOOPBACK_ALLOWED = { allowLoopback: true };
const PRODUCTION = { allowLoopback: false };
const secret = generateWebhookSecret();
const message = { webhook_id: "msg_0123", body: JSON.stringify({ event: "job.succeeded", data: { id: "j1", title: "Crème brûlée" } }) };

/** A DNS that answers `address` for every name. */
const resolvesTo =
  (address: string): HostResolver =>
  async (): Promise<LookupAddress[]> => [{ address, family: address.includes(":") ? 6 : 4 }];

describe("one delivery attempt", () => {
  let receiver: WebhookReceiver;
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(() => receiver.close());

  const send = (url: string, opts: { policy?: { allowLoopback: boolean }; timeoutMs?: number; resolver?: HostResolver } = {}) =>
    sendAttempt({ url, secret }, message, { policy: opts.policy ?? LOOPBACK_ALLOWED, timeoutMs: opts.timeoutMs ?? 2000, clock: systemClock, resolver: opts.resolver });

  it("POSTs the body as JSON, signed so the reference library verifies it; a 2xx is delivered", async () => {
    receiver.script({ status: 204 });
    const outcome = await send(receiver.url);
    expect(outcome).toMatchObject({ delivered: true, status_code: 204, error: null });
    const [req] = receiver.requests;
    expect(req).toMatchObject({ method: "POST", path: "/hooks", rawBody: message.body });
    expect(req.headers).toMatchObject({ "content-type": "application/json", "user-agent": WEBHOOK_USER_AGENT, "webhook-id": "msg_0123" });
    expect(Number(req.headers["webhook-timestamp"])).toBe(Math.floor(outcome.attempted_at.getTime() / 1000));
    expect(verifyWebhook(secret, req)).toEqual(JSON.parse(message.body));
  });

  it("records any other status as a failed attempt, and does not follow redirects", async () => {
    receiver.script({ status: 500 }, { status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } });
    expect(await send(receiver.url)).toMatchObject({ delivered: false, status_code: 500, error: "HTTP 500: not a 2xx answer" });
    expect(await send(receiver.url)).toMatchObject({ delivered: false, status_code: 302, error: "HTTP 302: redirects are not followed" });
    expect(receiver.requests).toHaveLength(2);
  });

  it("cuts an attempt at the timeout", async () => {
    receiver.script("hang");
    const outcome = await send(receiver.url, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ delivered: false, status_code: null, error: `${receiver.url}: no complete response within 300 ms` });
    expect(outcome.duration_ms).toBeGreaterThanOrEqual(290);
    expect(outcome.duration_ms).toBeLessThan(2000);
  });

  it("records an unreachable receiver", async () => {
    const port = await freePort();
    expect(await send(`http://127.0.0.1:${port}/hooks`)).toMatchObject({ delivered: false, status_code: null, error: `http://127.0.0.1:${port}/hooks: connection refused` });
  });

  it("refuses, at connect time, a name whose DNS answer turned private", async () => {
    const url = receiver.url.replace("127.0.0.1", "hooks.customer.test");
    // The positive control: the same name reaches the receiver while it resolves to an allowed address.
    expect(await send(url, { resolver: resolvesTo("127.0.0.1") })).toMatchObject({ delivered: true, status_code: 200 });

    for (const address of ["10.0.0.7", "169.254.169.254", "fd00:ec2::254", "100.100.100.200"]) {
      const outcome = await send(url, { resolver: resolvesTo(address) });
      expect(outcome).toMatchObject({ delivered: false, status_code: null });
      expect(outcome.error).toBe(`blocked by URL guard: ${url} resolves to a forbidden address`);
      expect(outcome.error).not.toContain(address);
    }
    // Outside development mode loopback is private too.
    expect((await send(url, { policy: PRODUCTION, resolver: resolvesTo("127.0.0.1") })).error).toMatch(/^blocked by URL guard: /);
    expect((await send(receiver.url, { policy: PRODUCTION })).error).toMatch(/^blocked by URL guard: /);
    expect((await send("http://metadata.google.internal/computeMetadata/v1/")).error).toMatch(/^blocked by URL guard: /);
    expect(receiver.requests).toHaveLength(1);
  });
});
