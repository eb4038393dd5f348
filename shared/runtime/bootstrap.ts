import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ServiceBroker } from "moleculer";
import { call } from "../action";
import { AuthActions, DEFAULT_RATE_LIMIT_RPM } from "../schemas/admin";

const ADMIN_TOKEN_FILE = "admin-token";
const DEMO_MARKER_FILE = "demo-bootstrap.json";

/** On the embedded default without ADMIN_TOKEN: one generated token, kept (0600) under DATA_DIR. */
export async function ensureAdminToken(dataDir: string): Promise<{ token: string; file: string; generated: boolean }> {
  const file = path.join(dataDir, ADMIN_TOKEN_FILE);
  try {
    const token = (await fs.readFile(file, "utf8")).trim();
    if (token.length >= 24) return { token, file, generated: false };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const token = `adm_${randomBytes(32).toString("base64url")}`;
  await fs.writeFile(file, `${token}\n`, { mode: 0o600 });
  return { token, file, generated: true };
}

const INTEGRATIONS_KEY_FILE = "integrations-key";

/**
 * On the embedded default without INTEGRATIONS_ENCRYPTION_KEYS: one generated AES-256 key, kept
 * (0600) under DATA_DIR as `id:base64`, so integration credentials survive restarts.
 */
export async function ensureIntegrationsKey(dataDir: string): Promise<{ id: string; key: Buffer }> {
  const file = path.join(dataDir, INTEGRATIONS_KEY_FILE);
  try {
    const [id, b64] = (await fs.readFile(file, "utf8")).trim().split(":");
    const key = Buffer.from(b64 ?? "", "base64");
    if (id && key.length === 32) return { id, key };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const generated = { id: `local${randomBytes(3).toString("hex")}`, key: randomBytes(32) };
  await fs.writeFile(file, `${generated.id}:${generated.key.toString("base64")}\n`, { mode: 0o600 });
  return generated;
}

export interface DemoCredentials {
  org_id: string;
  credit_balance: number;
  api_key: string;
}

/**
 * First start of the embedded default: a demo organization with credits and one test key,
 * so a new user can call the API at once. The key is printed once and never stored in clear.
 */
export async function bootstrapDemo(broker: ServiceBroker, dataDir: string): Promise<DemoCredentials | undefined> {
  const marker = path.join(dataDir, DEMO_MARKER_FILE);
  if (await exists(marker)) return undefined;
  const orgs = await call(broker, AuthActions.countOrganizations, {});
  if (orgs > 0) return undefined;
  const org = await call(broker, AuthActions.createOrganization, { name: "Demo organization", credits: 1000 });
  const key = await call(broker, AuthActions.createKey, { org_id: org.id, mode: "test", rate_limit_rpm: DEFAULT_RATE_LIMIT_RPM });
  await fs.writeFile(marker, JSON.stringify({ org_id: org.id, key_id: key.id, created_at: new Date().toISOString() }, null, 2));
  return { org_id: org.id, credit_balance: org.credit_balance, api_key: key.key };
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
