import { request } from "undici";
import { baseLanguage } from "../../../../../shared/text/stopwords";
import { endpoint, searchFailed, toSearchResults, type SearchOptions, type SearchProvider, type SearchResult } from "./provider";

export interface SearxngOptions {
  /** The instance's base address, e.g. http://searxng:8080 (its JSON format must be enabled in settings.yml). */
  baseUrl: string;
  timeoutMs?: number;
}

/**
 * SearxNG's JSON API: `GET {base}/search?q=…&format=json&language=…` → `{results: [{url, title, content, engine, …}]}`.
 * The instance is the operator's own service (often on a private network), so it is called directly, like
 * the model endpoint; the result pages it returns are arbitrary web addresses and go through the URL guard.
 */
export class SearxngProvider implements SearchProvider {
  readonly name = "searxng";

  constructor(private readonly opts: SearxngOptions) {}

  async search(query: string, { language, limit }: SearchOptions): Promise<SearchResult[]> {
    const url = endpoint(this.opts.baseUrl, "search");
    url.search = new URLSearchParams({ q: query, format: "json", language: baseLanguage(language), safesearch: "1" }).toString();
    const timeout = this.opts.timeoutMs ?? 10_000;
    const res = await request(url, { method: "GET", headers: { accept: "application/json" }, headersTimeout: timeout, bodyTimeout: timeout });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw searchFailed("SearxNG", res.statusCode);
    }
    const body = (await res.body.json()) as { results?: { url?: unknown; title?: unknown; content?: unknown }[] };
    return toSearchResults((Array.isArray(body.results) ? body.results : []).map((r) => ({ url: r?.url, title: r?.title, snippet: r?.content })), limit);
  }
}
