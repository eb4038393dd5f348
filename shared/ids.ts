import { randomUUID } from "node:crypto";

/** Resource identifiers are UUID strings (spec §2). */
export const newId = (): string => randomUUID();
