/** Told the outcome of each cache lookup (the gateway counts them, shared/metrics.ts `edgeCacheLookups`). */
export type Lookup = (outcome: "hit" | "miss") => void;

/** A cached answer is shared by every later request: frozen, so that no reader can change it for the others. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
