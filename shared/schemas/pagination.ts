import { z } from "zod";
import { queryInt, uuid } from "../validation";

/** Cursor paging (Stripe-like): `limit` and `starting_after` = the last id of the previous page. */
export function pageQuery(opts: { defaultLimit: number; maxLimit: number }) {
  return {
    limit: queryInt({ min: 1, max: opts.maxLimit, default: opts.defaultLimit, clampToMax: true }),
    starting_after: uuid.optional(),
  };
}

export interface ListPage<T> {
  object: "list";
  data: T[];
  has_more: boolean;
}

/** The page as an action receives it, after the gateway parsed the query. */
export const PageParams = z.strictObject({ limit: z.number().int().min(1), starting_after: uuid.optional() });
