import type { Collection, Document, OptionalUnlessRequiredId } from "mongodb";

/** MongoDB's code for a write refused by a unique index (E11000). */
const DUPLICATE_KEY = 11000;

/** True when a write failed only because its unique key already exists. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === DUPLICATE_KEY;
}

/** Inserts what is new; documents whose unique key already exists are left as they are. Returns how many were inserted. */
export async function insertNew<T extends Document>(col: Collection<T>, docs: OptionalUnlessRequiredId<T>[]): Promise<number> {
  if (!docs.length) return 0;
  try {
    return (await col.insertMany(docs, { ordered: false })).insertedCount;
  } catch (err) {
    const e = err as { writeErrors?: unknown[]; insertedCount?: number };
    if (e.writeErrors?.length && e.writeErrors.every(isDuplicateKeyError)) return e.insertedCount ?? 0;
    throw err;
  }
}
