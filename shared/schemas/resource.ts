import { z } from "zod";

/**
 * Building blocks of the resources the API answers with. Each resource is a zod schema beside its
 * contract (its TypeScript type is `z.output` of it), so the services are typed by the very schema the
 * OpenAPI document describes (services/gateway/openapi.ts, docs/openapi.md).
 */

/** A resource id (rule: ids are opaque UUIDs, `shared/ids.ts`). */
export const resourceId = z.uuid();
/** A time as the API writes it: `Date.toISOString()`, UTC. */
export const timestamp = z.iso.datetime();

/** A list answer that is one page: `{object: "list", data, has_more}`. */
export const listPageOf = <T extends z.ZodType>(item: T) => z.strictObject({ object: z.literal("list"), data: z.array(item), has_more: z.boolean() });
/** A list answer that is whole: `{object: "list", data}`. */
export const listOf = <T extends z.ZodType>(item: T) => z.strictObject({ object: z.literal("list"), data: z.array(item) });
