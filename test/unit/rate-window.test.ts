import { WINDOW_MS, windowEnd, windowState } from "../../shared/rate-window";
import { rateLimitHeaders } from "../../shared/errors";

describe("fixed rate window arithmetic", () => {
  const opened = new Date("2026-11-21T10:00:00.250Z");
  const ends = windowEnd(opened);

  it("lasts 60 seconds from the first request", () => {
    expect(ends.getTime() - opened.getTime()).toBe(WINDOW_MS);
  });

  it("counts down the remaining budget and never below zero", () => {
    expect(windowState(1, 60, ends, opened).remaining).toBe(59);
    expect(windowState(60, 60, ends, opened).remaining).toBe(0);
    expect(windowState(75, 60, ends, opened).remaining).toBe(0);
  });

  it("reports the reset in Unix seconds, rounded up", () => {
    expect(windowState(1, 60, ends, opened).reset).toBe(Math.ceil(ends.getTime() / 1000));
  });

  it("computes retry-after from the real reset, at least 1 second", () => {
    expect(windowState(61, 60, ends, opened).retryAfter).toBe(60);
    expect(windowState(61, 60, ends, new Date(ends.getTime() - 1500)).retryAfter).toBe(2);
    expect(windowState(61, 60, ends, new Date(ends.getTime() - 10)).retryAfter).toBe(1);
    expect(windowState(61, 60, ends, new Date(ends.getTime() + 10)).retryAfter).toBe(1);
  });

  it("maps to the spec's headers", () => {
    expect(rateLimitHeaders({ limit: 60, remaining: 3, reset: 1234, retryAfter: 5 })).toEqual({
      "x-ratelimit-limit": "60",
      "x-ratelimit-remaining": "3",
      "x-ratelimit-reset": "1234",
    });
  });
});
