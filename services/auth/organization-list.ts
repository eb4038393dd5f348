import type { Db, Filter } from "mongodb";
import { pageNewestFirst } from "../../shared/db/paging";
import type { OrganizationSummary } from "../../shared/schemas/admin";
import type { ListPage } from "../../shared/schemas/pagination";
import { ORGANIZATIONS, type OrganizationDoc } from "./store";

/** Characters with a meaning in a regular expression, escaped so that a search is a plain substring match. */
const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Organizations, newest first, optionally those whose name contains `q` (case-insensitive). */
export async function listOrganizations(db: Db, params: { q?: string; limit: number; starting_after?: string }): Promise<ListPage<OrganizationSummary>> {
  const scope: Filter<OrganizationDoc> = params.q ? { name: { $regex: escapeRegex(params.q), $options: "i" } } : {};
  const { docs, has_more } = await pageNewestFirst(db.collection<OrganizationDoc>(ORGANIZATIONS), scope, params, { what: "organization" });
  return {
    object: "list",
    data: docs.map((o) => ({ id: o._id, object: "organization", name: o.name, created_at: o.created_at.toISOString() })),
    has_more,
  };
}
