import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (rule: every delivery is signed; https://www.standardwebhooks.com). The secret is
 * `whsec_` + base64 of the key bytes; the MAC covers `{webhook-id}.{webhook-timestamp}.{raw body}`.
 */
export const SECRET_PREFIX = "whsec_";
/** 256-bit keys: the scheme asks for at least 24 bytes. */
const SECRET_BYTES = 32;

export interface WebhookHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** The HMAC key: the decoded bytes after the prefix, not the string itself. */
function signingKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error(`a webhook secret starts with ${SECRET_PREFIX}`);
  return Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
}

/** `v1,` + base64(HMAC-SHA256(key, `{msgId}.{timestamp}.{body}`)); `body` is signed byte for byte. */
export function signWebhook(secret: string, msgId: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac("sha256", signingKey(secret));
  mac.update(`${msgId}.${timestampSeconds}.`);
  mac.update(body);
  return `v1,${mac.digest("base64")}`;
}

/** The three headers of one delivery attempt, signed at `now`. */
export function webhookHeaders(secret: string, msgId: string, body: string | Buffer, now: Date): WebhookHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, msgId, timestamp, body),
  };
}
