import { createHash, timingSafeEqual } from "node:crypto";

/** The bearer token of an `Authorization` header, or "" when there is none. */
export function bearerToken(header: string | undefined): string {
  if (!header) return "";
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match ? match[1] : "";
}

/** Compares two secrets in constant time, whatever their lengths (both are hashed first). */
export function secretsEqual(presented: string, expected: string): boolean {
  const a = createHash("sha256").update(presented).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b) && presented.length === expected.length;
}
