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

const encoded = new WeakMap<object, string>();

/**
 * An answer as JSON text. A frozen answer (a cached one: deepFreeze above) cannot change, so its
 * text is made once and kept as long as the answer is; anything else is encoded each time.
 */
export function jsonOf(value: unknown): string {
  if (value === null || typeof value !== "object" || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = encoded.get(value);
  if (text === undefined) encoded.set(value, (text = JSON.stringify(value)));
  return text;
}
