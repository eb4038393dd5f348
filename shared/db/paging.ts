import type { Collection, Document, Filter } from "mongodb";
import { NotFoundError } from "../errors";

export interface PageRequest {
  limit: number;
  /** The id of the last item of the previous page. */
  starting_after?: string;
}

/**
 * One page of `scope`, newest first (Stripe-like cursor paging). The order is (created_at, _id)
 * descending, so items created meanwhile land before the first page and never shift later pages.
 * The cursor must lie within `scope`: another owner's id is as unknown as a missing one (404 `what`).
 */
export async function pageNewestFirst<T extends { _id: string; created_at: Date }>(
  col: Collection<T>,
  scope: Filter<T>,
  page: PageRequest,
  opts: { what: string; projection?: Document },
): Promise<{ docs: T[]; has_more: boolean }> {
  let filter: Filter<T> = scope;
  if (page.starting_after) {
    const cursor = await col.findOne({ ...scope, _id: page.starting_after } as Filter<T>, { projection: { created_at: 1 } });
    if (!cursor) throw new NotFoundError(opts.what);
    filter = { ...scope, $or: [{ created_at: { $lt: cursor.created_at } }, { created_at: cursor.created_at, _id: { $lt: cursor._id } }] } as Filter<T>;
  }
  const found = (await col
    .find(filter, opts.projection ? { projection: opts.projection } : {})
    .sort({ created_at: -1, _id: -1 })
    .limit(page.limit + 1)
    .toArray()) as T[];
  return { docs: found.slice(0, page.limit), has_more: found.length > page.limit };
}
