/** One result page of a web search. */
export interface SearchResult {
  url: string;
  title: string;
  snippet: string;
}

export interface SearchOptions {
  /** The article's language tag ("en-GB"); each provider passes what its API supports. */
  language: string;
  /** At most this many results. */
  limit: number;
}

/**
 * A web search engine: queries in, result pages out (best first). Only the result addresses leave the
 * provider: the pages themselves are fetched by research through the URL guard (fetchReadableDocument),
 * whatever engine found them.
 */
export interface SearchProvider {
  readonly name: string;
  search(query: string, opts: SearchOptions): Promise<SearchResult[]>;
}

/** A vendor's result before mapping: whatever its JSON holds in the three fields we read. */
export interface RawResult {
  url: unknown;
  title: unknown;
  snippet: unknown;
}

/** An http(s) address without its fragment (the dedup key), or null for anything else. */
function webAddress(url: unknown): string | null {
  if (typeof url !== "string") return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  parsed.hash = "";
  return parsed.href;
}

/** The results as returned to research: http(s) addresses only, each once (fragments aside), at most `limit`, in the vendor's order. */
export function toSearchResults(raw: Iterable<RawResult>, limit: number): SearchResult[] {
  const seen = new Set<string>();
  const out: SearchResult[] = [];
  if (limit <= 0) return out;
  for (const r of raw) {
    const key = webAddress(r.url);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const url = r.url as string;
    out.push({ url, title: typeof r.title === "string" && r.title ? r.title : url, snippet: typeof r.snippet === "string" ? r.snippet : "" });
    if (out.length >= limit) break;
  }
  return out;
}

/** `path` under an operator-configured base address, keeping the base's own path (a proxy prefix). */
export function endpoint(baseUrl: string, path: string): URL {
  return new URL(path.replace(/^\/+/, ""), baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
}

/**
 * The error a provider throws for a refused search: names the engine and the status, with our own reading
 * of the vendor's documented code. Never the response body or request headers, so no key can leak into it.
 */
export function searchFailed(provider: string, status: number, reason?: string): Error {
  return new Error(`web search (${provider}) answered ${status}${reason ? `: ${reason}` : ""}`);
}
