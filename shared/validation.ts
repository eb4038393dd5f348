import { z } from "zod";
import { ValidationError } from "./errors";

/** `field: problem` for every issue, joined with `; ` (rule: a 400 names every field at fault). */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const parts: string[] = [];
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join(".") : "body";
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) parts.push(`${issue.path.length ? `${field}.` : ""}${key}: unknown field`);
    } else if (issue.code === "invalid_type" && issue.input === undefined) {
      parts.push(`${field}: is required`);
    } else {
      parts.push(`${field}: ${issue.message}`);
    }
  }
  return parts.join("; ");
}

/** Parses with the offending input kept on each issue, so "missing" and "wrong type" read differently. */
export function safeParseReporting<S extends z.ZodType>(schema: S, input: unknown) {
  return schema.safeParse(input, { reportInput: true });
}

/** Parses `input` with `schema`, or throws the platform's 400 naming every problem. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = safeParseReporting(schema, input);
  if (!result.success) throw new ValidationError(formatIssues(result.error.issues));
  return result.data;
}

/** Query-string integers arrive as strings: accept digits only, never "1e3" or "0x10". */
export function queryInt(opts: { min: number; max?: number; default: number; clampToMax?: boolean }) {
  return z
    .string()
    .regex(/^\d{1,9}$/, "must be a whole number")
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(opts.min, `must be at least ${opts.min}`)
        .transform((n) => (opts.max !== undefined && opts.clampToMax ? Math.min(n, opts.max) : n))
        .pipe(opts.max !== undefined && !opts.clampToMax ? z.number().max(opts.max, `must be at most ${opts.max}`) : z.number()),
    )
    .optional()
    .transform((n) => n ?? opts.default);
}

/**
 * An absolute http(s) URL of at most 2048 characters (what outbound requests may target, before the URL guard),
 * normalized once, here at the boundary, to its WHATWG serialization: the form stored and fetched.
 */
export const httpUrl = z
  .string()
  .trim()
  .max(2048, "must be at most 2048 characters")
  .refine((v) => {
    try {
      return ["http:", "https:"].includes(new URL(v).protocol);
    } catch {
      return false;
    }
  }, "must be an http(s) URL")
  .transform((v) => new URL(v).href);

export const uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "must be a UUID");
export const orgId = uuid;

/** A query or body that must carry nothing (and params of an action that takes none). */
export const NoFields = z.strictObject({});
