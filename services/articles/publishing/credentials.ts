import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * Integration credentials at rest: AES-256-GCM (node:crypto), a fresh 96-bit nonce per secret, the
 * integration id as additional authenticated data (a ciphertext copied onto another record does
 * not open), and the id of the key beside the ciphertext so keys can rotate: the first key of
 * INTEGRATIONS_ENCRYPTION_KEYS seals, every listed key opens (docs/publishing.md#credentials).
 */

export interface EncryptionKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

export interface SealedSecret {
  kid: string;
  /** base64 of the nonce, ciphertext and tag. */
  iv: string;
  data: string;
  tag: string;
}

const ALGORITHM = "aes-256-gcm";
const NONCE_BYTES = 12;

export class CredentialsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CredentialsKeyError";
  }
}

export function sealSecret(keys: readonly EncryptionKey[], plaintext: string, context: string): SealedSecret {
  const current = keys[0];
  if (!current) throw new CredentialsKeyError("no encryption key is configured (INTEGRATIONS_ENCRYPTION_KEYS)");
  const iv = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, current.key, iv);
  cipher.setAAD(Buffer.from(context, "utf8"));
  const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return { kid: current.id, iv: iv.toString("base64"), data: data.toString("base64"), tag: cipher.getAuthTag().toString("base64") };
}

/** Throws CredentialsKeyError when the key is not configured or the ciphertext does not authenticate. */
export function openSecret(keys: readonly EncryptionKey[], sealed: SealedSecret, context: string): string {
  const key = keys.find((k) => k.id === sealed.kid);
  if (!key) throw new CredentialsKeyError(`the key ${sealed.kid} that sealed these credentials is not configured`);
  try {
    const decipher = createDecipheriv(ALGORITHM, key.key, Buffer.from(sealed.iv, "base64"));
    decipher.setAAD(Buffer.from(context, "utf8"));
    decipher.setAuthTag(Buffer.from(sealed.tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64")), decipher.final()]).toString("utf8");
  } catch {
    throw new CredentialsKeyError(`credentials sealed with key ${sealed.kid} do not authenticate`);
  }
}

/** Whether a record should be sealed again under the current key (rotation). */
export const sealedWithOldKey = (keys: readonly EncryptionKey[], sealed: SealedSecret) => keys.length > 0 && sealed.kid !== keys[0].id;

/** `••••abcd`: the last four characters of a secret long enough to keep the rest hidden. */
export function maskSecret(secret: string): string {
  return secret.length >= 16 ? `••••${secret.slice(-4)}` : "••••";
}
