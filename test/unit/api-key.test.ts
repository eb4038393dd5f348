import { createHash } from "node:crypto";
import { API_KEY_PATTERN, displayApiKey, generateApiKey, isWellFormedApiKey } from "../../services/auth/api-key";
import { hashApiKey } from "../../shared/bearer";
import { bearerToken, secretsEqual } from "../../shared/bearer";

describe("API key format", () => {
  it("is the mode prefix followed by 43 base64url characters (256 bits)", () => {
    for (const mode of ["live", "test"] as const) {
      const key = generateApiKey(mode);
      expect(key.startsWith(`svc_${mode}_`)).toBe(true);
      const random = key.slice(`svc_${mode}_`.length);
      expect(random).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(random, "base64url")).toHaveLength(32);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it("never repeats", () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey("test")));
    expect(keys.size).toBe(1000);
  });

  it("rejects malformed candidates", () => {
    const good = generateApiKey("live");
    for (const bad of ["", "svc_live_", good.slice(0, -1), `${good}x`, good.replace("svc_live_", "svc_prod_"), good.replace(/.$/, "+"), ` ${good}`]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
    expect(API_KEY_PATTERN.test(good)).toBe(true);
  });
});

describe("key hashing and comparison", () => {
  it("stores the SHA-256 hex digest", () => {
    const key = generateApiKey("test");
    expect(hashApiKey(key)).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).toHaveLength(64);
  });

  it("compares digests exactly", () => {
    const a = hashApiKey(generateApiKey("test"));
    const b = hashApiKey(generateApiKey("test"));
    expect(secretsEqual(a, a)).toBe(true);
    expect(secretsEqual(a, b)).toBe(false);
    expect(secretsEqual(a, a.slice(0, 62))).toBe(false);
    expect(secretsEqual("", "")).toBe(false);
  });

  it("compares secrets of any length without throwing", () => {
    expect(secretsEqual("s3cret-token-of-some-length", "s3cret-token-of-some-length")).toBe(true);
    expect(secretsEqual("short", "s3cret-token-of-some-length")).toBe(false);
    expect(secretsEqual("", "x")).toBe(false);
  });
});

describe("display form", () => {
  it("shows the first 12 and last 4 characters only", () => {
    const key = generateApiKey("live");
    const shown = displayApiKey(key);
    expect(shown).toBe(`${key.slice(0, 12)}...${key.slice(-4)}`);
    expect(shown).not.toContain(key.slice(12, -4));
  });
});

describe("bearer token", () => {
  it("takes the token of a Bearer header only", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic abc")).toBe("");
    expect(bearerToken("Bearer")).toBe("");
    expect(bearerToken("Bearer a b")).toBe("");
    expect(bearerToken(undefined)).toBe("");
  });
});
