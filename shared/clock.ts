/** The one source of "now", so that window and expiry arithmetic can be tested with fixed times. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** `YYYY-MM-DD` of a date in UTC: the day key of usage rows. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}


/** One UTC day in ms. */
export const DAY_MS = 86_400_000;
let lastDay = { start: 0, key: "" };

/** `utcDay` of a time (ms since the epoch), formatted once per day rather than on every call: for per-request paths. */
export function utcDayAt(ms: number): string {
  if (ms < lastDay.start || ms >= lastDay.start + DAY_MS) lastDay = { start: ms - (ms % DAY_MS), key: utcDay(new Date(ms)) };
  return lastDay.key;
}
