import { randomBytes } from "node:crypto";
import jwt from "jsonwebtoken";
import { loadConfig, publishDeadlineMs } from "../../shared/config";
import { CredentialsKeyError, maskSecret, openSecret, sealSecret, sealedWithOldKey } from "../../services/articles/publishing/credentials";
import { ghostToken } from "../../services/articles/publishing/ghost";

const key = (id: string) => ({ id, key: randomBytes(32) });

describe("integration credentials at rest (AES-256-GCM)", () => {
  it("seals with the first key and opens with the key named beside the ciphertext", () => {
    const keys = [key("k2"), key("k1")];
    const sealed = sealSecret(keys, "app pass word 1234", "integration-1");
    expect(sealed.kid).toBe("k2");
    expect(Buffer.from(sealed.iv, "base64")).toHaveLength(12);
    expect(Buffer.from(sealed.tag, "base64")).toHaveLength(16);
    expect(JSON.stringify(sealed)).not.toContain("app pass word");
    expect(openSecret(keys, sealed, "integration-1")).toBe("app pass word 1234");
    // A fresh nonce each time: the same secret never seals to the same bytes.
    expect(sealSecret(keys, "app pass word 1234", "integration-1").data).not.toBe(sealed.data);
  });

  it("rotates: an old key still opens what it sealed, and the record is seen as sealed with an old key", () => {
    const old = key("2025");
    const sealed = sealSecret([old], "secret-token-value", "i");
    const rotated = [key("2026"), old];
    expect(openSecret(rotated, sealed, "i")).toBe("secret-token-value");
    expect(sealedWithOldKey(rotated, sealed)).toBe(true);
    expect(sealedWithOldKey([old], sealed)).toBe(false);
    expect(() => openSecret([key("2026")], sealed, "i")).toThrow(new CredentialsKeyError("the key 2025 that sealed these credentials is not configured"));
  });

  it("refuses a tampered ciphertext, a wrong key of the same id, and a ciphertext moved to another record", () => {
    const keys = [key("k")];
    const sealed = sealSecret(keys, "secret-token-value", "integration-a");
    const flipped = Buffer.from(sealed.data, "base64");
    flipped[0] ^= 1;
    expect(() => openSecret(keys, { ...sealed, data: flipped.toString("base64") }, "integration-a")).toThrow(CredentialsKeyError);
    expect(() => openSecret([key("k")], sealed, "integration-a")).toThrow(CredentialsKeyError);
    expect(() => openSecret(keys, sealed, "integration-b")).toThrow(CredentialsKeyError);
    expect(() => sealSecret([], "x", "y")).toThrow(CredentialsKeyError);
  });

  it("masks a secret to its last four characters, and a short one entirely", () => {
    expect(maskSecret("abcd EFGH 1234 ijkl")).toBe("••••ijkl");
    expect(maskSecret("short-secret")).toBe("••••");
  });

  it("reads INTEGRATIONS_ENCRYPTION_KEYS as named 32-byte keys, first one sealing", () => {
    const a = randomBytes(32);
    const b = randomBytes(32);
    const cfg = loadConfig({ INTEGRATIONS_ENCRYPTION_KEYS: `new:${a.toString("base64")}, old:${b.toString("base64")}` });
    expect(cfg.INTEGRATIONS_ENCRYPTION_KEYS).toEqual([{ id: "new", key: a }, { id: "old", key: b }]);
    expect(() => loadConfig({ INTEGRATIONS_ENCRYPTION_KEYS: `k:${randomBytes(16).toString("base64")}` })).toThrow("INTEGRATIONS_ENCRYPTION_KEYS");
    expect(() => loadConfig({ INTEGRATIONS_ENCRYPTION_KEYS: `k:${a.toString("base64")},k:${b.toString("base64")}` })).toThrow("key ids must be distinct");
    expect(() => loadConfig({ PUBLISH_DEADLINE_MS: "30000", REQUEST_TIMEOUT_MS: "30000" })).toThrow("PUBLISH_DEADLINE_MS");
    expect(publishDeadlineMs(loadConfig({}))).toBe(25_000);
    expect(publishDeadlineMs(loadConfig({ REQUEST_TIMEOUT_MS: "12000" }))).toBe(7000);
    expect(publishDeadlineMs(loadConfig({ PUBLISH_DEADLINE_MS: "9000" }))).toBe(9000);
  });
});

describe("Ghost Admin API token", () => {
  it("is HS256 with the hex-decoded secret, kid = key id, audience /admin/, five minutes", () => {
    const id = "6489b1a1b2c3d4e5f6a7b8c9";
    const secret = randomBytes(32).toString("hex");
    const token = ghostToken(`${id}:${secret}`);
    const decoded = jwt.decode(token, { complete: true })!;
    expect(decoded.header).toEqual({ alg: "HS256", typ: "JWT", kid: id });
    const payload = jwt.verify(token, Buffer.from(secret, "hex"), { audience: "/admin/", algorithms: ["HS256"] }) as jwt.JwtPayload;
    expect(payload.exp! - payload.iat!).toBe(300);
    // Signed with the decoded bytes, not the hex string.
    expect(() => jwt.verify(token, secret, { algorithms: ["HS256"] })).toThrow("invalid signature");
  });
});
