import { randomBytes } from "node:crypto";

export type KeyMode = "live" | "test";

/** `svc_live_` or `svc_test_` + 43 base64url characters: 256 random bits (rule: API keys are unguessable bearer tokens). */
export const API_KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(mode: KeyMode): string {
  return `svc_${mode}_${randomBytes(32).toString("base64url")}`;
}

export function isWellFormedApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

/** What listings show: the first 12 and the last 4 characters. */
export function displayApiKey(key: string): string {
  return `${key.slice(0, 12)}...${key.slice(-4)}`;
}
