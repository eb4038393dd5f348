import { request } from "undici";
import { endpoint, searchFailed, toSearchResults, type SearchOptions, type SearchProvider, type SearchResult } from "./provider";

export interface TavilyOptions {
  /** TAVILY_API_KEY ("tvly-…"). */
  apiKey: string;
  /** TAVILY_BASE_URL: https://api.tavily.com, or a local fake in tests. */
  baseUrl: string;
  timeoutMs?: number;
}

/** Tavily's documented error codes (help.tavily.com "Errors Code"), read for the operator. */
const TAVILY_ERRORS: Record<number, string> = {
  400: "bad request (a parameter was refused)",
  401: "unauthorized (missing or invalid TAVILY_API_KEY)",
  429: "rate limited",
  432: "plan limit exceeded",
  433: "pay-as-you-go limit exceeded",
  500: "Tavily server error",
};

/** max_results: Tavily's documented range tops out at 20. */
const MAX_RESULTS = 20;

/**
 * Tavily's Search API (docs.tavily.com, API reference "POST /search"): `POST {base}/search` with
 * `Authorization: Bearer tvly-…` and a JSON body `{query, max_results, search_depth, topic, include_answer,
 * include_raw_content, include_images}` → `{query, answer, images, results: [{title, url, content, score,
 * raw_content}], response_time, request_id}`.
 *
 * Tavily has no language parameter: results follow the query's own language, and research's queries are
 * written in the article's language, so `language` is not sent. Only the result addresses are used: the
 * raw content Tavily can return is not asked for, and every page is fetched by research through the URL
 * guard like any other result. The key is held in a private field, so the provider logs without it.
 */
export class TavilyProvider implements SearchProvider {
  readonly name = "tavily";
  readonly #apiKey: string;
  private readonly baseUrl: string;
  private readonly timeoutMs: number;

  constructor(opts: TavilyOptions) {
    this.#apiKey = opts.apiKey;
    this.baseUrl = opts.baseUrl;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  async search(query: string, { limit }: SearchOptions): Promise<SearchResult[]> {
    if (limit <= 0) return [];
    const body = {
      query,
      max_results: Math.min(limit, MAX_RESULTS),
      search_depth: "basic",
      topic: "general",
      include_answer: false,
      include_raw_content: false,
      include_images: false,
    };
    const res = await request(endpoint(this.baseUrl, "search"), {
      method: "POST",
      headers: { authorization: `Bearer ${this.#apiKey}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw searchFailed("Tavily", res.statusCode, TAVILY_ERRORS[res.statusCode] ?? "unexpected status");
    }
    let answer: { results?: unknown };
    try {
      answer = (await res.body.json()) as { results?: unknown };
    } catch {
      throw searchFailed("Tavily", res.statusCode, "an answer that is not JSON");
    }
    const results = Array.isArray(answer?.results) ? (answer.results as { url?: unknown; title?: unknown; content?: unknown }[]) : [];
    return toSearchResults(results.map((r) => ({ url: r?.url, title: r?.title, snippet: r?.content })), limit);
  }
}
