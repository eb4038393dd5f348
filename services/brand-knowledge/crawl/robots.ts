import robotsParser from "robots-parser";
import { FetchAbortedError, ForbiddenUrlError, OutboundRequestError } from "../../../shared/net/errors";
import type { SafeResponse } from "../../../shared/net/safe-fetch";

export interface RobotsRules {
  isAllowed(url: URL): boolean;
  /** `Sitemap:` lines, as written. */
  sitemaps: string[];
  /** Set when robots.txt could not be read and the whole origin is treated as disallowed. */
  denyAllReason?: string;
}

/** RFC 9309 asks crawlers to parse at least 500 KiB of robots.txt; the rest is ignored. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

const allowAll: RobotsRules = { isAllowed: () => true, sitemaps: [] };

const denyAll = (reason: string): RobotsRules => ({ isAllowed: () => false, sitemaps: [], denyAllReason: reason });

/**
 * The robots.txt rules of one origin for `userAgent` (matched by its product token).
 * A 4xx answer means "no rules": everything is allowed (RFC 9309 §2.3.1.3). A 5xx or 429 answer,
 * or no answer at all (network error, timeout, refused by the URL guard), means the site's wishes
 * are unknown, and the conservative reading is to request nothing from it (RFC 9309 §2.3.1.4).
 * A refusal by the URL guard and the caller's abort are rethrown: they are about the whole origin or
 * crawl, not about robots.txt.
 */
export async function loadRobots(
  origin: string,
  userAgent: string,
  fetchRobots: (url: string) => Promise<SafeResponse>,
): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let res: SafeResponse;
  try {
    res = await fetchRobots(robotsUrl);
  } catch (err) {
    if (err instanceof ForbiddenUrlError || err instanceof FetchAbortedError) throw err;
    return denyAll(`robots.txt unreachable (${err instanceof OutboundRequestError ? err.code : "error"})`);
  }
  if (res.status >= 200 && res.status < 300) {
    const robots = robotsParser(robotsUrl, res.body.toString("utf8"));
    return { isAllowed: (url) => robots.isAllowed(url.href, userAgent) !== false, sitemaps: robots.getSitemaps() };
  }
  if (res.status >= 400 && res.status < 500 && res.status !== 429) return allowAll;
  return denyAll(`robots.txt answered HTTP ${res.status}`);
}
