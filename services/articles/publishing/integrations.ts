import type { Db } from "mongodb";
import type { Clock } from "../../../shared/clock";
import { ApiError, NotFoundError } from "../../../shared/errors";
import { isDuplicateKeyError } from "../../../shared/db/duplicate-key";
import { assertSameRequest, idForKey, keyReused, requestHash } from "../../../shared/idempotency";
import { newId } from "../../../shared/ids";
import { assertUrlAllowed } from "../../../shared/net/url-guard";
import {
  CreateIntegrationBody,
  INTEGRATION_SECRETS,
  type IntegrationInput,
  type IntegrationResource,
  type IntegrationTestResult,
} from "../../../shared/schemas/publishing";
import { articleCollections, type IntegrationDoc } from "../store";
import { clientFor, type PublishingConfig } from "./clients";
import { CredentialsKeyError, maskSecret, openSecret, sealSecret, sealedWithOldKey, type EncryptionKey } from "./credentials";
import { UpstreamError } from "./http";

/** Integrations: organization-owned connections to content systems, configured through `/admin`. */

export interface IntegrationDeps {
  db: Db;
  clock: Clock;
  keys: readonly EncryptionKey[] | undefined;
  publishing: PublishingConfig;
  /** Whether the organization exists (auth owns organizations). */
  organizationExists(orgId: string): Promise<boolean>;
}

function requireKeys(keys: readonly EncryptionKey[] | undefined): readonly EncryptionKey[] {
  if (!keys?.length) throw new ApiError("service_unavailable", "Integrations are not available: INTEGRATIONS_ENCRYPTION_KEYS is not configured.");
  return keys;
}

export function toIntegrationResource(doc: IntegrationDoc): IntegrationResource {
  return {
    id: doc._id,
    object: "integration",
    org_id: doc.org_id,
    kind: doc.kind,
    name: doc.name,
    settings: doc.settings,
    credentials_hint: doc.credentials_hint,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/** Splits a validated body into what is kept in clear and the secret. */
function splitSecret(input: IntegrationInput): { settings: Record<string, unknown>; secret: string } {
  const secretField = INTEGRATION_SECRETS[input.kind];
  const { kind: _kind, name: _name, [secretField]: secret, ...settings } = input as Record<string, unknown>;
  return { settings, secret: String(secret) };
}

/**
 * Stores an integration with its secret sealed. Under an Idempotency-Key its id derives from the key, so a
 * retry answers the integration the first request stored; the request it is compared with is the
 * settings' hash plus the secret itself, opened (no hash of a secret is stored).
 */
export async function createIntegration(deps: IntegrationDeps, orgId: string, input: IntegrationInput, idempotencyKey?: string): Promise<IntegrationResource> {
  const keys = requireKeys(deps.keys);
  const { settings, secret } = splitSecret(input);
  const id = idempotencyKey ? idForKey("articles.integration", orgId, idempotencyKey) : newId();
  const keyed = idempotencyKey ? { request_hash: requestHash({ kind: input.kind, name: input.name, settings }) } : {};
  const replay = (earlier: IntegrationDoc) => {
    assertSameRequest(earlier.request_hash, keyed.request_hash!);
    if (openSecret(keys, earlier.credentials, id) !== secret) throw keyReused();
    return toIntegrationResource(earlier);
  };
  const c = articleCollections(deps.db);
  const earlier = idempotencyKey ? await c.integrations.findOne({ _id: id, org_id: orgId }) : null;
  if (earlier) return replay(earlier);
  if (!(await deps.organizationExists(orgId))) throw new NotFoundError("organization");
  // A user-supplied address is checked up front like a webhook URL; every request is checked again at connect time.
  if ("site_url" in input) await assertUrlAllowed(input.site_url, deps.publishing.policy, { field: "site_url" });
  const now = deps.clock.now();
  const doc: IntegrationDoc = {
    ...keyed,
    _id: id,
    org_id: orgId,
    kind: input.kind,
    name: input.name,
    settings,
    credentials: sealSecret(keys, secret, id),
    credentials_hint: maskSecret(secret),
    created_at: now,
    updated_at: now,
  };
  try {
    await c.integrations.insertOne(doc);
  } catch (err) {
    const twin = idempotencyKey && isDuplicateKeyError(err) ? await c.integrations.findOne({ _id: id, org_id: orgId }) : null;
    if (!twin) throw err;
    return replay(twin);
  }
  return toIntegrationResource(doc);
}

export async function listIntegrations(db: Db, orgId: string) {
  const docs = await articleCollections(db).integrations.find({ org_id: orgId }).sort({ created_at: -1, _id: -1 }).limit(1000).toArray();
  return { object: "list" as const, data: docs.map(toIntegrationResource), has_more: false };
}

/** Removes the integration; its publication records go with it (the upstream entries stay). */
export async function deleteIntegration(db: Db, id: string) {
  const c = articleCollections(db);
  const doc = await c.integrations.findOneAndDelete({ _id: id });
  if (!doc) throw new NotFoundError("integration");
  await c.publications.deleteMany({ integration_id: id });
  return { id, object: "integration" as const, deleted: true };
}

/** An integration of the organization (another's is not found), with its secret opened for use. */
export async function loadIntegration(deps: Pick<IntegrationDeps, "db" | "keys">, id: string, orgId?: string): Promise<{ doc: IntegrationDoc; input: IntegrationInput }> {
  const doc = await articleCollections(deps.db).integrations.findOne(orgId === undefined ? { _id: id } : { _id: id, org_id: orgId });
  if (!doc) throw new NotFoundError("integration");
  let secret: string;
  try {
    secret = openSecret(requireKeys(deps.keys), doc.credentials, doc._id);
  } catch (err) {
    if (err instanceof CredentialsKeyError) throw new ApiError("service_unavailable", `The credentials of integration ${doc._id} cannot be opened: ${err.message}. Configure the key in INTEGRATIONS_ENCRYPTION_KEYS.`);
    throw err;
  }
  const input = CreateIntegrationBody.parse({ kind: doc.kind, name: doc.name, ...doc.settings, [INTEGRATION_SECRETS[doc.kind]]: secret });
  if (sealedWithOldKey(deps.keys!, doc.credentials)) {
    // Rotation: a record sealed with an older key is sealed again with the current one on use.
    await articleCollections(deps.db).integrations.updateOne({ _id: doc._id, "credentials.kid": doc.credentials.kid }, { $set: { credentials: sealSecret(deps.keys!, secret, doc._id) } });
  }
  return { doc, input };
}

/** An authenticated read against the content system: success, or the upstream status and reason. */
export async function testIntegration(deps: IntegrationDeps, id: string): Promise<IntegrationTestResult> {
  const { input } = await loadIntegration(deps, id);
  try {
    const message = await clientFor(input, deps.publishing).check();
    return { object: "integration_test", ok: true, status: 200, message };
  } catch (err) {
    if (err instanceof UpstreamError) return { object: "integration_test", ok: false, status: err.status, message: err.reason };
    throw err;
  }
}
