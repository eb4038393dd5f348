import type { ActionSchema, CallingOptions, Context } from "moleculer";
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

/**
 * An action's contract: its name, its params (the zod schema both sides use) and, as a type, its reply.
 * Declared once, beside the schema in `shared/schemas`; the owning service serves it (`serve`) and
 * callers call it (`call`), so params and reply are typed the same on both sides.
 */
export interface Contract<S extends z.ZodType, R> {
  readonly action: string;
  readonly params: S;
  /** Never set: carries the reply type. */
  readonly reply?: R;
}

/** `contract<Reply>()("service.action", ParamsSchema)`. */
export const contract =
  <R>() =>
  <S extends z.ZodType>(action: string, params: S): Contract<S, R> => ({ action, params });

/** The action that serves `c`: params parsed by its schema, the handler's reply checked against its reply type. */
export function serve<S extends z.ZodType, R, Svc>(
  c: Contract<S, R>,
  handler: (params: z.output<S>, ctx: Context, svc: Svc) => Promise<R> | R,
  options: Omit<ActionSchema, "handler" | "params"> = {},
): ActionSchema {
  return zodAction(c.params, handler, options);
}

/** Anything that calls actions: the broker, a context, a test's fake. */
export interface Caller {
  call(action: string, params?: unknown, opts?: CallingOptions): Promise<unknown>;
}

/** Calls `c` with params and reply typed by the contract. */
export function call<S extends z.ZodType, R>(caller: Caller, c: Contract<S, R>, params: z.input<S>, opts?: CallingOptions): Promise<R> {
  return caller.call(c.action, params, opts) as Promise<R>;
}
