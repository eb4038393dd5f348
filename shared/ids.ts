import { randomUUID } from "node:crypto";

/** Resource identifiers are UUID strings (rule: ids are opaque UUIDs). */
export const newId = (): string => randomUUID();
