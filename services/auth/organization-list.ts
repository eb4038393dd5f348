import type { Db, Filter } from "mongodb";
import { pageNewestFirst } from "../../shared/db/paging";
import type { ListOrganizationsParams, OrganizationResource } from "../../shared/schemas/admin";
import type { ListPage } from "../../shared/schemas/pagination";
import type { z } from "zod";
import { ORGANIZATIONS, type OrganizationDoc } from "./store";
import { escapeRegExp } from "../../shared/text/regex";


/**
 * `GET /admin/orgs` and the operator's dashboard: organizations, newest first, optionally those whose name
 * contains `q` (case-insensitive), each with its balance. `balances` asks billing for the whole page at once.
 */
export async function listOrganizations(
  db: Db,
  params: z.output<typeof ListOrganizationsParams>,
  balances: (orgIds: string[]) => Promise<Map<string, number>>,
): Promise<ListPage<OrganizationResource>> {
  const scope: Filter<OrganizationDoc> = params.q ? { name: { $regex: escapeRegExp(params.q), $options: "i" } } : {};
  const { docs, has_more } = await pageNewestFirst(db.collection<OrganizationDoc>(ORGANIZATIONS), scope, params, { what: "organization" });
  const balance = docs.length ? await balances(docs.map((o) => o._id)) : new Map<string, number>();
  return {
    object: "list",
    data: docs.map((o) => ({ id: o._id, object: "organization", name: o.name, credit_balance: balance.get(o._id) ?? 0, created_at: o.created_at.toISOString() })),
    has_more,
  };
}
