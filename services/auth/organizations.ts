import type { Db } from "mongodb";
import { NotFoundError } from "../../shared/errors";
import type { Clock } from "../../shared/clock";
import { idForKey, insertOrReplay, requestHash } from "../../shared/idempotency";
import { newId } from "../../shared/ids";
import { ORGANIZATIONS, type OrganizationDoc } from "./store";

/**
 * Stores a new organization. Under an Idempotency-Key (`request`: the key and the request), its id derives
 * from the key, so a retry gets the organization the first request stored (shared/idempotency.ts).
 */
export async function createOrganization(db: Db, name: string, clock: Clock, request?: { key: string; body: unknown }): Promise<OrganizationDoc> {
  const keyed = request ? { _id: idForKey("auth.organization", "admin", request.key), request_hash: requestHash(request.body) } : { _id: newId() };
  const doc: OrganizationDoc = { ...keyed, name, created_at: clock.now() };
  return (await insertOrReplay(db.collection<OrganizationDoc>(ORGANIZATIONS), doc)).doc;
}

export async function requireOrganization(db: Db, orgId: string): Promise<OrganizationDoc> {
  const doc = await db.collection<OrganizationDoc>(ORGANIZATIONS).findOne({ _id: orgId });
  if (!doc) throw new NotFoundError("organization");
  return doc;
}

export async function countOrganizations(db: Db): Promise<number> {
  return db.collection<OrganizationDoc>(ORGANIZATIONS).countDocuments({});
}
