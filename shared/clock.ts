/** The one source of "now", so that window and expiry arithmetic can be tested with fixed times. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** `YYYY-MM-DD` of a date in UTC: the day key of usage rows. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

