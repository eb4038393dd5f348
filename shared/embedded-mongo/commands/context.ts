import type { Cursors } from "../cursors";
import { CommandError, invalidNamespace } from "../errors";
import type { Store } from "../store";
import { Doc, isPlainObject } from "../values";

export interface CommandContext {
  store: Store;
  cursors: Cursors;
  connectionId: number;
  startedAt: number;
  /** Number of open client connections (serverStatus). */
  connections(): number;
}

/** Every command runs synchronously, so no two commands' read-modify-write ever interleave. */
export type Handler = (cmd: Doc, db: string, ctx: CommandContext) => Doc;

/** The collection name a command addresses in its first field. */
export function collectionName(cmd: Doc, field: string): string {
  const name = cmd[field];
  if (typeof name !== "string")
    throw new CommandError(73, "InvalidNamespace", `collection name has invalid type ${Array.isArray(name) ? "array" : typeof name}`);
  if (!name || name.includes("\0") || name.startsWith("."))
    throw invalidNamespace(`Invalid namespace specified '${name}'`);
  return name;
}

export function optionalDoc(cmd: Doc, field: string): Doc | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v))
    throw new CommandError(14, "TypeMismatch", `BSON field '${field}' is the wrong type '${Array.isArray(v) ? "array" : typeof v}', expected type 'object'`);
  return v;
}

export function optionalNumber(cmd: Doc, field: string): number | undefined {
  const v = cmd[field];
  if (v === undefined || v === null) return undefined;
  const n = Number(v);
  if (typeof v === "boolean" || Number.isNaN(n))
    throw new CommandError(14, "TypeMismatch", `BSON field '${field}' is the wrong type '${typeof v}', expected types '[long, int, decimal, double]'`);
  return n;
}

export function nonNegative(cmd: Doc, field: string): number | undefined {
  const n = optionalNumber(cmd, field);
  if (n !== undefined && n < 0) throw new CommandError(51024, "Location51024", `BSON field '${field}' value must be >= 0, actual value '${n}'`);
  return n;
}
