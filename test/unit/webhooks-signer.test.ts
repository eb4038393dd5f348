import { Webhook } from "standardwebhooks";
import { generateWebhookSecret, signWebhook, webhookHeaders } from "../../shared/events/signer";

describe("Standard Webhooks signer", () => {
  it("reproduces the Standard Webhooks published test vector", () => {
    // The example of the Standard Webhooks specification and of its reference libraries' tests.
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const signature = signWebhook(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(signature).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    expect(new Webhook(secret).sign("msg_p5jXN8AQM9LWM0D4loKWxJek", new Date(1614265330 * 1000), '{"test": 2432232314}')).toBe(signature);
  });

  it("generates whsec_ secrets of 32 random bytes", () => {
    const secrets = new Set(Array.from({ length: 50 }, generateWebhookSecret));
    expect(secrets.size).toBe(50);
    for (const s of secrets) {
      expect(s).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      expect(Buffer.from(s.slice("whsec_".length), "base64")).toHaveLength(32);
    }
  });

  it("signs headers the reference library verifies, and only for the exact bytes", () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ event: "job.succeeded", data: { id: "x", title: "Café – naïve" } });
    const now = new Date();
    const headers = webhookHeaders(secret, "msg_abc", body, now);
    expect(headers["webhook-id"]).toBe("msg_abc");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    // A Buffer of the same UTF-8 bytes signs the same; one changed byte does not verify.
    expect(webhookHeaders(secret, "msg_abc", Buffer.from(body, "utf8"), now)).toEqual(headers);
    expect(() => new Webhook(secret).verify(body.replace("Café", "Cafe"), { ...headers })).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it("signs each attempt afresh: another timestamp gives another signature", () => {
    const secret = generateWebhookSecret();
    const first = webhookHeaders(secret, "msg_abc", "{}", new Date(1_700_000_000_000));
    const retry = webhookHeaders(secret, "msg_abc", "{}", new Date(1_700_000_030_000));
    expect(retry["webhook-id"]).toBe(first["webhook-id"]);
    expect(retry["webhook-timestamp"]).not.toBe(first["webhook-timestamp"]);
    expect(retry["webhook-signature"]).not.toBe(first["webhook-signature"]);
  });

  it("refuses a secret without the whsec_ prefix", () => {
    expect(() => signWebhook("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_1", 1, "{}")).toThrow("whsec_");
  });
});
