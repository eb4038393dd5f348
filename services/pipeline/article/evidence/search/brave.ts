import { request } from "undici";
import { braveSearchLang } from "./brave-language";
import { endpoint, searchFailed, toSearchResults, type SearchOptions, type SearchProvider, type SearchResult } from "./provider";

export interface BraveSearchOptions {
  /** BRAVE_SEARCH_API_KEY: the subscription token of a Search plan. */
  apiKey: string;
  /** BRAVE_SEARCH_BASE_URL: https://api.search.brave.com, or a local fake in tests. */
  baseUrl: string;
  timeoutMs?: number;
}

/** `count`: Brave's documented maximum. */
const MAX_COUNT = 20;
/** Brave refuses a query over 400 characters or 50 words (422). */
const MAX_QUERY_CHARS = 400;
const MAX_QUERY_WORDS = 50;

/** Brave's documented failures, read for the operator. */
const BRAVE_ERRORS: Record<number, string> = {
  401: "unauthorized (missing or invalid BRAVE_SEARCH_API_KEY)",
  403: "forbidden (the subscription does not cover web search)",
  422: "request refused (invalid subscription token or parameters)",
  429: "rate limited",
};

/** A header's value when it reads as Brave's rate-limit lists ("1, 15000"); anything else is left out of the message. */
function rateHeader(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v && /^[0-9 ,;=a-z]{1,80}$/i.test(v) ? v : undefined;
}

/** Brave's error body `{type: "ErrorResponse", error: {code: "SUBSCRIPTION_TOKEN_INVALID", …}}` (some endpoints: `errors: [{code, …}]`): its code, when it is one. */
function errorCode(body: unknown): string | undefined {
  const b = body as { error?: { code?: unknown }; errors?: { code?: unknown }[] } | null;
  const code = b?.error?.code ?? (Array.isArray(b?.errors) ? b.errors[0]?.code : undefined);
  return typeof code === "string" && /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : undefined;
}

function limitQuery(query: string): string {
  return query.split(/\s+/).filter(Boolean).slice(0, MAX_QUERY_WORDS).join(" ").slice(0, MAX_QUERY_CHARS);
}

/**
 * Brave's Web Search API (api-dashboard.search.brave.com, API reference "web/search"): `GET
 * {base}/res/v1/web/search?q=…&count=…&search_lang=…` with `X-Subscription-Token` and `Accept:
 * application/json` → `{type: "search", query: {…}, web: {type: "search", results: [{title, url,
 * description, page_age, profile, meta_url, extra_snippets, …}]}, …}`. The language goes as `search_lang`
 * (left out for one Brave does not list); the country stays Brave's default. A 429 carries the
 * X-RateLimit-* headers (limit, remaining, reset, in seconds), which the error quotes. Only the result
 * addresses are used: the pages are fetched by research through the URL guard. The key is held in a
 * private field, so the provider logs without it.
 */
export class BraveSearchProvider implements SearchProvider {
  readonly name = "brave";
  readonly #apiKey: string;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(opts: BraveSearchOptions) {
    this.#apiKey = opts.apiKey;
    this.baseUrl = opts.baseUrl;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  async search(query: string, { language, limit }: SearchOptions): Promise<SearchResult[]> {
    if (limit <= 0) return [];
    const url = endpoint(this.baseUrl, "res/v1/web/search");
    const params = new URLSearchParams({ q: limitQuery(query), count: String(Math.min(limit, MAX_COUNT)), safesearch: "moderate", result_filter: "web" });
    const lang = braveSearchLang(language);
    if (lang) params.set("search_lang", lang);
    url.search = params.toString();
    const res = await request(url, {
      method: "GET",
      headers: { accept: "application/json", "x-subscription-token": this.#apiKey },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    if (res.statusCode !== 200) {
      const code = errorCode(await res.body.json().catch(() => null));
      let reason = BRAVE_ERRORS[res.statusCode] ?? "unexpected status";
      if (code) reason += ` [${code}]`;
      if (res.statusCode === 429) {
        const reset = rateHeader(res.headers["x-ratelimit-reset"]);
        const remaining = rateHeader(res.headers["x-ratelimit-remaining"]);
        if (remaining) reason += `; X-RateLimit-Remaining: ${remaining}`;
        if (reset) reason += `; X-RateLimit-Reset: ${reset} s`;
      }
      throw searchFailed("Brave", res.statusCode, reason);
    }
    let answer: { web?: { results?: unknown } };
    try {
      answer = (await res.body.json()) as { web?: { results?: unknown } };
    } catch {
      throw searchFailed("Brave", res.statusCode, "an answer that is not JSON");
    }
    const results = Array.isArray(answer?.web?.results) ? (answer.web.results as { url?: unknown; title?: unknown; description?: unknown }[]) : [];
    return toSearchResults(results.map((r) => ({ url: r?.url, title: plainText(r?.title), snippet: plainText(r?.description) })), limit);
  }
}

/** Brave marks the query's words in titles and descriptions with <strong>; snippets are kept as plain text. */
function plainText(value: unknown): unknown {
  if (typeof value !== "string") return value;
  return value
    .replace(/<[^>]*>/g, "")
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? "")
    .trim();
}
