/**
 * A `Retry-After` header's value (seconds, possibly fractional, or an HTTP date) as milliseconds from `now`;
 * undefined when absent or unreadable. One reading for every outbound client: CMS publishing and model calls.
 */
export function retryAfterHeaderMs(value: string | null | undefined, now: number): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
