import type { ActionSchema, Context } from "moleculer";
import type { z } from "zod";
import { parseOrThrow } from "./validation";

/**
 * An action whose params are parsed by a zod schema before the handler sees them.
 * The same schema is the contract the gateway validates HTTP input against.
 * `svc` is the service instance (Moleculer's `this`), typed by the caller.
 */
export function zodAction<S extends z.ZodType, Svc, R>(
  schema: S,
  handler: (params: z.output<S>, ctx: Context, svc: Svc) => Promise<R> | R,
  options: Omit<ActionSchema, "handler" | "params"> = {},
): ActionSchema {
  return {
    ...options,
    handler(this: Svc, ctx: Context) {
      return handler(parseOrThrow(schema, ctx.params), ctx, this);
    },
  };
}
