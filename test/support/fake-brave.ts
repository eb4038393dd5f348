import { randomUUID } from "node:crypto";
import http from "node:http";
import { ROUTE_PLANNING_PAGES, type CorpusPage } from "./fake-searxng";
import { closeServers, listen, searchSite, startSearchSite } from "./search-site";

/**
 * A local Brave Web Search API and the site its results point at (test/support/search-site.ts).
 *
 * Shapes from Brave's Search API documentation (api-dashboard.search.brave.com, API reference "web/search"
 * and "Query parameters", "Request headers", "Response headers"): `GET /res/v1/web/search?q=…` with the
 * `X-Subscription-Token` header and `Accept: application/json`; `q` required (at most 400 characters and 50
 * words), `count` 1–20 (default 20), `search_lang` one of Brave's language codes, `safesearch` off | moderate |
 * strict. The answer is `{type: "search", query: {original, …}, mixed: {…}, web: {type: "search", results:
 * [{type: "search_result", title, url, description, page_age, language, family_friendly, profile, meta_url,
 * extra_snippets, …}], family_friendly}}`, titles and descriptions marking the query's words with <strong>.
 * Every answer carries the rate-limit headers X-RateLimit-Limit, -Policy, -Remaining and -Reset ("1, 15000":
 * per second, per month). Errors are `{type: "ErrorResponse", error: {id, status, code, detail, meta}, time}`:
 * a bad or missing token is answered 422 SUBSCRIPTION_TOKEN_INVALID (as the live API does), an invalid
 * parameter 422 VALIDATION, and 401, 403 and 429 RATE_LIMITED can be scripted.
 */

export const BRAVE_TEST_KEY = "BSA-test-subscription-token-0123456789";

/** Brave's `search_lang` codes (its documentation's "Language codes"). */
const SEARCH_LANGS = new Set(
  "ar eu bn bg ca zh-hans zh-hant hr cs da nl en en-gb et fi fr gl de gu he hi hu is it jp kn ko lv lt ms ml mr nb pl pt-br pt-pt pa ro ru sr sk sl es sv ta te th tr uk vi".split(" "),
);

const ERRORS: Record<number, { code: string; detail: string }> = {
  401: { code: "UNAUTHORIZED", detail: "The request is not authorized." },
  403: { code: "OPTION_NOT_IN_PLAN", detail: "The option is not subscribed in the plan." },
  422: { code: "SUBSCRIPTION_TOKEN_INVALID", detail: "The provided subscription token is invalid." },
  429: { code: "RATE_LIMITED", detail: "Request rate limit exceeded for plan." },
};

export interface BraveRequest {
  path: string;
  /** The query string's parameters. */
  params: Record<string, string>;
  token: string | undefined;
  accept: string | undefined;
}

export interface FakeBrave {
  /** Base address of the API (BRAVE_SEARCH_BASE_URL). */
  url: string;
  /** Base address of the site the results point at. */
  siteUrl: string;
  apiKey: string;
  requests: BraveRequest[];
  pageRequests: string[];
  /** Answer the next searches with one of Brave's error codes (401, 403, 422, 429) instead of results. */
  failNext(count: number, status?: number): void;
  /** Answer the next search with these raw `web.results` instead of the site's. */
  nextResults(results: Record<string, unknown>[]): void;
  close(): Promise<void>;
}

/** Wraps the query's words (over three letters) in <strong>, as Brave does. */
function highlight(text: string, query: string): string {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 3);
  return words.length ? text.replace(new RegExp(`\\b(${words.join("|")})\\b`, "giu"), "<strong>$1</strong>") : text;
}

export async function startFakeBrave(opts: { pages?: CorpusPage[]; apiKey?: string } = {}): Promise<FakeBrave> {
  const pages = opts.pages ?? ROUTE_PLANNING_PAGES;
  const apiKey = opts.apiKey ?? BRAVE_TEST_KEY;
  const site = await startSearchSite(pages);
  const requests: BraveRequest[] = [];
  let failures = 0;
  let failureStatus = 429;
  let scripted: Record<string, unknown>[] | undefined;
  let used = 0;

  const rateHeaders = (exhausted: boolean) => ({
    "x-ratelimit-limit": "1, 15000",
    "x-ratelimit-policy": "1;w=1, 15000;w=2592000",
    "x-ratelimit-remaining": exhausted ? `0, ${15000 - used}` : `1, ${15000 - used}`,
    "x-ratelimit-reset": "1, 1419704",
  });
  const fail = (res: http.ServerResponse, status: number, error = ERRORS[status] ?? { code: "ERROR", detail: "Error" }) =>
    void res
      .writeHead(status, { "content-type": "application/json", ...rateHeaders(status === 429) })
      .end(JSON.stringify({ type: "ErrorResponse", error: { id: randomUUID(), status, ...error, meta: {} }, time: Math.floor(Date.now() / 1000) }));

  const api = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const params = Object.fromEntries(url.searchParams);
    const token = req.headers["x-subscription-token"] as string | undefined;
    requests.push({ path: url.pathname, params, token, accept: req.headers.accept });
    if (url.pathname !== "/res/v1/web/search") return fail(res, 404, { code: "NOT_FOUND", detail: "Resource not found." });
    if (req.method !== "GET" && req.method !== "POST") return fail(res, 405, { code: "METHOD_NOT_ALLOWED", detail: "Method not allowed." });
    if (token !== apiKey) return fail(res, 422);
    if (failures > 0) {
      failures--;
      return fail(res, failureStatus);
    }
    const q = params.q ?? "";
    const count = params.count === undefined ? 20 : Number(params.count);
    const valid =
      q.trim() !== "" &&
      q.length <= 400 &&
      q.split(/\s+/).filter(Boolean).length <= 50 &&
      Number.isInteger(count) &&
      count >= 1 &&
      count <= 20 &&
      (params.search_lang === undefined || SEARCH_LANGS.has(params.search_lang)) &&
      (params.safesearch === undefined || ["off", "moderate", "strict"].includes(params.safesearch));
    if (!valid) return fail(res, 422, { code: "VALIDATION", detail: "Unable to validate request parameter(s)" });
    used++;
    const results =
      scripted ??
      searchSite(pages, site.url, q).map((h) => {
        const u = new URL(h.url);
        return {
          type: "search_result",
          subtype: "generic",
          title: highlight(h.title, q),
          url: h.url,
          description: highlight(h.content, q),
          is_source_local: false,
          is_source_both: false,
          page_age: "2025-01-15T00:00:00",
          language: "en",
          family_friendly: true,
          profile: { name: "Field Ops Guides", url: h.url, long_name: u.host, img: "" },
          meta_url: { scheme: u.protocol.replace(":", ""), netloc: u.host, hostname: u.hostname, favicon: "", path: u.pathname },
        };
      });
    scripted = undefined;
    res.writeHead(200, { "content-type": "application/json", ...rateHeaders(false) }).end(
      JSON.stringify({
        type: "search",
        query: { original: q, show_strict_warning: false, is_navigational: false, local_decision: "drop", is_news_breaking: false, spellcheck_off: true, country: "us", bad_results: false, should_fallback: false, postal_code: "", city: "", header_country: "", more_results_available: false, state: "" },
        mixed: { type: "mixed", main: results.slice(0, count).map((_, index) => ({ type: "web", index, all: false })), top: [], side: [] },
        web: { type: "search", results: results.slice(0, count), family_friendly: true },
      }),
    );
  });
  const url = await listen(api);

  return {
    url,
    siteUrl: site.url,
    apiKey,
    requests,
    pageRequests: site.pageRequests,
    failNext(count, status = 429) {
      failures = count;
      failureStatus = status;
    },
    nextResults(results) {
      scripted = results;
    },
    close: () => closeServers(site.server, api),
  };
}
