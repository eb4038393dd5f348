import type { RateLimitState } from "./errors";

export const WINDOW_MS = 60_000;

/**
 * The state of a fixed 60-second window after a request was counted in it.
 * The window was opened by its first request and ends at `windowEndsAt` (rule: a key's rate window is fixed, opened by its first request).
 */
export function windowState(count: number, limit: number, windowEndsAt: Date, now: Date): RateLimitState {
  const msLeft = Math.max(0, windowEndsAt.getTime() - now.getTime());
  return {
    limit,
    remaining: Math.max(0, limit - count),
    reset: Math.ceil(windowEndsAt.getTime() / 1000),
    retryAfter: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}

export function windowEnd(now: Date): Date {
  return new Date(now.getTime() + WINDOW_MS);
}
