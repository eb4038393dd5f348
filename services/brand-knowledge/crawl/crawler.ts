import {
  FetchAbortedError,
  FetchTimeoutError,
  ForbiddenUrlError,
  TooLargeError,
  UnsupportedContentTypeError,
} from "../../../shared/net/errors";
import { PLATFORM_USER_AGENT, parseContentType, safeFetch, type SafeFetchOptions, type SafeResponse } from "../../../shared/net/safe-fetch";
import { checkUrlSyntax, type UrlPolicy } from "../../../shared/net/url-guard";
import { extractLinks, isSameSite, normalizeUrl } from "./links";
import { loadRobots, ROBOTS_MAX_BYTES, type RobotsRules } from "./robots";
import { collectSitemapPages } from "./sitemap";

export interface CrawlProgress {
  fetched: number;
  queued: number;
  skipped: number;
}

export interface CrawlOptions {
  policy: UrlPolicy;
  /** Pages kept at most. Default 50. */
  maxPages?: number;
  /** Link distance from the start URL; sitemap entries count as 1. Default 3. */
  maxDepth?: number;
  /** Default 2 MiB; larger pages are skipped as `too_large`. */
  maxBytesPerPage?: number;
  /** The whole crawl. Default 60 s; pages still in flight then are skipped as `stopped`. */
  totalTimeMs?: number;
  /** One page, body included. Default 10 s. */
  pageTimeoutMs?: number;
  /** Requests in flight at once. A crawl stays on one site, so this is also the crawl's concurrency. Default 2. */
  perHostConcurrency?: number;
  userAgent?: string;
  signal?: AbortSignal;
  onProgress?: (progress: CrawlProgress) => void;
}

export type SkipReason =
  | "robots" // disallowed by robots.txt, or robots.txt could not be read
  | "content_type" // not HTML or plain text; the body was not downloaded
  | "too_large"
  | "timeout"
  | "http_status" // a non-2xx answer
  | "forbidden" // refused by the URL guard
  | "network"
  | "redirect" // off site, to an invalid URL, or too many hops
  | "duplicate" // redirects to, or declares as canonical, a URL already crawled
  | "stopped"; // in flight when the time limit or the caller's signal ended the crawl

export interface SkippedUrl {
  url: string;
  reason: SkipReason;
  detail?: string;
}

interface CrawledPageBase {
  /** The URL as queued (from a link, the sitemap or the caller). */
  url: string;
  /** After redirects. */
  finalUrl: string;
  title?: string;
  contentType: string;
  /** ISO 8601. */
  fetchedAt: string;
  depth: number;
}

export type CrawledPage = CrawledPageBase & ({ html: string; text?: never } | { text: string; html?: never });

export interface CrawlResult {
  pages: CrawledPage[];
  skipped: SkippedUrl[];
  stats: {
    /** HTTP requests sent for pages, robots.txt and sitemaps, redirect hops included. */
    requested: number;
    fetched: number;
    skipped: number;
    /** Body bytes received. */
    bytes: number;
    ms: number;
    /** Why the crawl ended before its queue was empty, if it did. */
    stopped?: "max_pages" | "time_limit" | "aborted";
  };
}

const KEPT_CONTENT_TYPES = ["text/html", "application/xhtml+xml", "text/plain"];
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECT_HOPS = 5;
const MAX_SITEMAPS = 20;
/** Sitemap entries queued per page the crawl may keep: enough to fill it even when many are skipped. */
const SITEMAP_SEEDS_PER_PAGE = 10;

const DEFAULTS = {
  maxPages: 50,
  maxDepth: 3,
  maxBytesPerPage: 2 * 1024 * 1024,
  totalTimeMs: 60_000,
  pageTimeoutMs: 10_000,
  perHostConcurrency: 2,
};

interface QueueItem {
  url: URL;
  depth: number;
}

type Fetched = { res: SafeResponse; url: URL } | { skip: SkippedUrl };

function decodeBody(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the web's default.
    return new TextDecoder("utf-8").decode(body);
  }
}

function skipReasonOf(err: unknown): SkipReason {
  if (err instanceof ForbiddenUrlError) return "forbidden";
  if (err instanceof UnsupportedContentTypeError) return "content_type";
  if (err instanceof TooLargeError) return "too_large";
  if (err instanceof FetchTimeoutError) return "timeout";
  if (err instanceof FetchAbortedError) return "stopped";
  return "network";
}

class Crawl {
  private readonly limits: typeof DEFAULTS;
  private readonly userAgent: string;
  private readonly site: URL;
  private readonly queue: QueueItem[] = [];
  /** Every URL queued or requested, so none is requested twice. */
  private readonly seen = new Set<string>();
  /** Final and canonical URLs of kept pages. */
  private readonly kept = new Set<string>();
  private readonly robots = new Map<string, Promise<RobotsRules>>();
  private readonly pages: CrawledPage[] = [];
  private readonly skipped: SkippedUrl[] = [];
  private readonly stop = new AbortController();
  private stoppedBy: CrawlResult["stats"]["stopped"];
  private requested = 0;
  private bytes = 0;

  constructor(
    start: URL,
    private readonly opts: CrawlOptions,
    private readonly useSitemaps: boolean,
  ) {
    this.limits = { ...DEFAULTS };
    for (const key of Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[]) {
      if (opts[key] !== undefined) this.limits[key] = opts[key];
    }
    this.userAgent = opts.userAgent ?? PLATFORM_USER_AGENT;
    this.site = start;
    this.enqueue(start, 0);
  }

  async run(): Promise<CrawlResult> {
    const startedAt = Date.now();
    const timer = setTimeout(() => this.halt("time_limit"), this.limits.totalTimeMs);
    const onAbort = () => this.halt("aborted");
    if (this.opts.signal?.aborted) onAbort();
    this.opts.signal?.addEventListener("abort", onAbort);
    try {
      if (this.useSitemaps && this.limits.maxDepth >= 1) await this.seedFromSitemaps();
      await this.drain();
    } finally {
      clearTimeout(timer);
      this.opts.signal?.removeEventListener("abort", onAbort);
    }
    return {
      pages: this.pages,
      skipped: this.skipped,
      stats: {
        requested: this.requested,
        fetched: this.pages.length,
        skipped: this.skipped.length,
        bytes: this.bytes,
        ms: Date.now() - startedAt,
        ...(this.stoppedBy ? { stopped: this.stoppedBy } : {}),
      },
    };
  }

  private halt(reason: "time_limit" | "aborted"): void {
    this.stoppedBy ??= reason;
    this.stop.abort();
  }

  private enqueue(url: URL, depth: number): void {
    if (this.seen.has(url.href)) return;
    this.seen.add(url.href);
    this.queue.push({ url, depth });
  }

  /** Runs visits breadth-first, never more than the concurrency, and never more than can still be kept. */
  private async drain(): Promise<void> {
    const active = new Set<Promise<void>>();
    for (;;) {
      while (!this.stoppedBy && this.queue.length > 0 && active.size < this.limits.perHostConcurrency) {
        // Each visit keeps at most one page, so this bound keeps `pages` within maxPages.
        if (this.pages.length + active.size >= this.limits.maxPages) break;
        const item = this.queue.shift()!;
        const task: Promise<void> = this.visit(item).finally(() => active.delete(task));
        active.add(task);
      }
      if (active.size === 0) {
        if (!this.stoppedBy && this.queue.length > 0) this.stoppedBy = "max_pages";
        return;
      }
      await Promise.race(active);
    }
  }

  private fetch(url: string, extra: Partial<SafeFetchOptions>): Promise<SafeResponse> {
    const stoppedBefore = this.stop.signal.aborted;
    return safeFetch(url, {
      policy: this.opts.policy,
      userAgent: this.userAgent,
      timeoutMs: this.limits.pageTimeoutMs,
      maxBytes: this.limits.maxBytesPerPage,
      signal: this.stop.signal,
      ...extra,
    }).then(
      (res) => {
        this.requested += 1 + res.redirects.length;
        this.bytes += res.body.length;
        return res;
      },
      (err: unknown) => {
        // Nothing is sent when the guard refuses or the crawl had already stopped.
        if (!(err instanceof ForbiddenUrlError) && !stoppedBefore) this.requested++;
        throw err;
      },
    );
  }

  /** robots.txt of the URL's origin, loaded once per origin (the site may span http/https and www.). */
  private robotsFor(url: URL): Promise<RobotsRules> {
    let rules = this.robots.get(url.origin);
    if (!rules) {
      rules = loadRobots(url.origin, this.userAgent, (robotsUrl) =>
        this.fetch(robotsUrl, { maxBytes: ROBOTS_MAX_BYTES, onOversize: "truncate" }),
      );
      this.robots.set(url.origin, rules);
    }
    return rules;
  }

  /**
   * GETs `url`, following redirects one hop at a time so that every hop is checked against the site,
   * robots.txt and `acceptHop` before it is requested (safeFetch's own following would skip robots).
   */
  private async fetchWithinSite(
    from: URL,
    extra: Partial<SafeFetchOptions>,
    acceptHop: (next: URL) => SkippedUrl | undefined,
  ): Promise<Fetched> {
    const skip = (reason: SkipReason, detail?: string): Fetched => ({ skip: { url: from.href, reason, ...(detail ? { detail } : {}) } });
    let url = from;
    for (let hop = 0; ; hop++) {
      let res: SafeResponse;
      try {
        const robots = await this.robotsFor(url);
        if (!robots.isAllowed(url)) return skip("robots", robots.denyAllReason ?? `${url.href} is disallowed by robots.txt`);
        res = await this.fetch(url.href, { ...extra, maxRedirects: 0 });
      } catch (err) {
        return skip(skipReasonOf(err), err instanceof Error ? err.message : undefined);
      }
      const location = res.headers.location;
      if (!REDIRECT_STATUSES.has(res.status) || location === undefined) return { res, url };
      const next = normalizeUrl(location, url);
      if (!next) return skip("redirect", "redirects to an invalid URL");
      if (hop >= MAX_REDIRECT_HOPS) return skip("redirect", `more than ${MAX_REDIRECT_HOPS} redirects`);
      if (!isSameSite(next, this.site)) return skip("redirect", `redirects off site to ${next.href}`);
      const refused = acceptHop(next);
      if (refused) return { skip: refused };
      url = next;
    }
  }

  private async seedFromSitemaps(): Promise<void> {
    let rules: RobotsRules;
    try {
      rules = await this.robotsFor(this.site);
    } catch {
      return; // The start page's visit reports why the site is unreachable.
    }
    const listed = rules.sitemaps.map((s) => normalizeUrl(s, this.site)).filter((u): u is URL => !!u && isSameSite(u, this.site));
    const roots = listed.length > 0 ? listed : [new URL("/sitemap.xml", this.site)];
    const entries = await collectSitemapPages(
      roots.map((u) => u.href),
      async (sitemapUrl) => {
        const url = normalizeUrl(sitemapUrl);
        if (!url || !isSameSite(url, this.site)) return undefined;
        const got = await this.fetchWithinSite(url, {}, () => undefined);
        // A missing or broken sitemap only costs seeds; it is not a page, so it is not reported as skipped.
        return "res" in got && got.res.status >= 200 && got.res.status < 300 ? got.res.body : undefined;
      },
      { maxBytes: this.limits.maxBytesPerPage, maxSitemaps: MAX_SITEMAPS, maxPages: this.limits.maxPages * SITEMAP_SEEDS_PER_PAGE },
    );
    for (const entry of entries) {
      const url = normalizeUrl(entry, this.site);
      if (url && isSameSite(url, this.site)) this.enqueue(url, 1);
    }
  }

  private async visit(item: QueueItem): Promise<void> {
    const got = await this.fetchWithinSite(
      item.url,
      { accept: KEPT_CONTENT_TYPES },
      (next) => {
        if (this.seen.has(next.href)) return { url: item.url.href, reason: "duplicate", detail: `redirects to ${next.href}` };
        this.seen.add(next.href);
        return undefined;
      },
    );
    if ("skip" in got) this.skipped.push(got.skip);
    else if (got.res.status < 200 || got.res.status >= 300) this.skip(item, "http_status", `HTTP ${got.res.status}`);
    else this.keep(item, got.url, got.res);
    this.reportProgress();
  }

  private skip(item: QueueItem, reason: SkipReason, detail: string): void {
    this.skipped.push({ url: item.url.href, reason, detail });
  }

  private keep(item: QueueItem, finalUrl: URL, res: SafeResponse): void {
    if (this.kept.has(finalUrl.href)) return this.skip(item, "duplicate", `${finalUrl.href} was already crawled`);
    const content = decodeBody(res.body, parseContentType(res.headers["content-type"]).charset);
    const base = { url: item.url.href, finalUrl: finalUrl.href, contentType: res.contentType, fetchedAt: new Date().toISOString(), depth: item.depth };
    if (res.contentType === "text/plain") {
      this.kept.add(finalUrl.href);
      this.pages.push({ ...base, text: content });
      return;
    }
    const { title, links, canonical } = extractLinks(content, finalUrl.href);
    if (canonical && canonical.href !== finalUrl.href && isSameSite(canonical, this.site)) {
      if (this.kept.has(canonical.href)) return this.skip(item, "duplicate", `canonical URL ${canonical.href} was already crawled`);
      this.kept.add(canonical.href);
      this.seen.add(canonical.href);
    }
    this.kept.add(finalUrl.href);
    this.pages.push({ ...base, ...(title ? { title } : {}), html: content });
    if (item.depth < this.limits.maxDepth) {
      for (const link of links) if (isSameSite(link, this.site)) this.enqueue(link, item.depth + 1);
    }
  }

  private reportProgress(): void {
    try {
      this.opts.onProgress?.({ fetched: this.pages.length, queued: this.queue.length, skipped: this.skipped.length });
    } catch {
      // A failing progress reporter must not fail the crawl it reports on.
    }
  }
}

/**
 * Crawls a `website` source breadth-first within the start URL's site (docs/url-guard.md for the
 * guard; the crawl rules are on CrawlOptions and SkipReason). Throws ValidationError for a start URL
 * the guard refuses on sight; everything after that is reported in `skipped`, never thrown.
 */
export async function crawlSite(startUrl: string, opts: CrawlOptions): Promise<CrawlResult> {
  return new Crawl(startOf(startUrl, opts.policy), opts, true).run();
}

/** One page for a `url` source, under the same rules as a crawl (guard, robots.txt, content types, bounds). */
export async function fetchSinglePage(
  url: string,
  opts: Omit<CrawlOptions, "maxPages" | "maxDepth" | "perHostConcurrency">,
): Promise<CrawlResult> {
  return new Crawl(startOf(url, opts.policy), { ...opts, maxPages: 1, maxDepth: 0, perHostConcurrency: 1 }, false).run();
}

function startOf(raw: string, policy: UrlPolicy): URL {
  const url = checkUrlSyntax(raw, policy);
  url.hash = "";
  return url;
}
