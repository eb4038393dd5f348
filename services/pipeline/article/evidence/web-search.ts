import { request } from "undici";
import type { UrlPolicy } from "../../../../shared/net/url-guard";
import { safeFetch } from "../../../../shared/net/safe-fetch";
import type { ExtractedDocument } from "../../../../shared/text/document";
import { extractableKind, extractDocument } from "../../../../shared/text/extract";
import { baseLanguage } from "../../../../shared/text/stopwords";

export interface SearchResult {
  url: string;
  title: string;
  snippet: string;
}

/** A web search engine: queries in, result pages out (best first). */
export interface SearchProvider {
  readonly name: string;
  search(query: string, opts: { language: string; limit: number }): Promise<SearchResult[]>;
}

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

  async search(query: string, { language, limit }: { language: string; limit: number }): Promise<SearchResult[]> {
    const url = new URL("search", this.opts.baseUrl.endsWith("/") ? this.opts.baseUrl : `${this.opts.baseUrl}/`);
    url.search = new URLSearchParams({ q: query, format: "json", language: baseLanguage(language), safesearch: "1" }).toString();
    const timeout = this.opts.timeoutMs ?? 10_000;
    const res = await request(url, { method: "GET", headers: { accept: "application/json" }, headersTimeout: timeout, bodyTimeout: timeout });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new Error(`web search (SearxNG) answered ${res.statusCode}`);
    }
    const body = (await res.body.json()) as { results?: { url?: unknown; title?: unknown; content?: unknown }[] };
    const seen = new Set<string>();
    const out: SearchResult[] = [];
    for (const r of body.results ?? []) {
      if (typeof r.url !== "string" || !/^https?:\/\//i.test(r.url) || seen.has(r.url)) continue;
      seen.add(r.url);
      out.push({ url: r.url, title: typeof r.title === "string" ? r.title : r.url, snippet: typeof r.content === "string" ? r.content : "" });
      if (out.length >= limit) break;
    }
    return out;
  }
}

/**
 * Fetches a result page through the URL guard and extracts its readable text; throws when the page is not
 * usable. The content type is checked after the (bounded) read rather than with safeFetch's `accept`:
 * refusing a response whose body has already arrived completely makes undici emit an unhandled error
 * (reported in the pipeline docs), and a page or two of PDF is cheap to discard.
 */
export async function fetchReadableDocument(url: string, policy: UrlPolicy, timeoutMs = 8000): Promise<ExtractedDocument> {
  const res = await safeFetch(url, { policy, timeoutMs, maxBytes: 2 * 1024 * 1024, onOversize: "truncate" });
  if (res.status < 200 || res.status >= 300) throw new Error(`${url} answered ${res.status}`);
  if (!extractableKind(res.contentType)) throw new Error(`${url} is ${res.contentType || "untyped"}, not a readable page`);
  const doc = extractDocument({ url: res.url, contentType: res.contentType, body: res.body.toString("utf8") });
  if (!doc.wordCount) throw new Error(`${url} has no readable text`);
  return doc;
}
