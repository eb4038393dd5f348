import { createHash, hash, timingSafeEqual } from "node:crypto";
import { config } from "./config";

/** The bearer token of an `Authorization` header, or "" when there is none. */
export function bearerToken(header: string | undefined): string {
  if (!header) return "";
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1] : "";
}

/**
 * The one constant-time comparison of secrets (tokens, key digests), whatever their lengths: both are
 * hashed first. An empty secret matches nothing.
 */
export function secretsEqual(presented: string, expected: string): boolean {
  if (!presented || !expected) return false;
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}

/** The operator's ADMIN_TOKEN, compared in constant time; nothing matches when none is configured. */
export function isAdminToken(presented: string): boolean {
  return secretsEqual(presented, config().ADMIN_TOKEN ?? "");
}

/** An API key's SHA-256 digest (hex): the only form in which a key is stored, cached or sent between services. */
export function hashApiKey(key: string): string {
  // Node's one-shot hash: a third of createHash's cost, and this runs on every request.
  return hash("sha256", key, "hex");
}
