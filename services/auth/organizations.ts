import type { Db } from "mongodb";
import { pageNewestFirst, type PageRequest } from "../../shared/db/paging";
import { NotFoundError } from "../../shared/errors";
import type { Clock } from "../../shared/clock";
import { newId } from "../../shared/ids";
import { ORGANIZATIONS, type OrganizationDoc } from "./store";

export async function createOrganization(db: Db, name: string, clock: Clock): Promise<OrganizationDoc> {
  const doc: OrganizationDoc = { _id: newId(), name, created_at: clock.now() };
  await db.collection<OrganizationDoc>(ORGANIZATIONS).insertOne(doc);
  return doc;
}

export async function requireOrganization(db: Db, orgId: string): Promise<OrganizationDoc> {
  const doc = await db.collection<OrganizationDoc>(ORGANIZATIONS).findOne({ _id: orgId });
  if (!doc) throw new NotFoundError("organization");
  return doc;
}

export async function countOrganizations(db: Db): Promise<number> {
  return db.collection<OrganizationDoc>(ORGANIZATIONS).countDocuments({});
}

/** Every organization, newest first, paged by `starting_after` (an organization id). */
export async function listOrganizations(db: Db, page: PageRequest): Promise<{ docs: OrganizationDoc[]; has_more: boolean }> {
  return pageNewestFirst(db.collection<OrganizationDoc>(ORGANIZATIONS), {}, page, { what: "organization" });
}
