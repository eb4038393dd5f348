import type { UrlPolicy } from "../../../../shared/net/url-guard";
import { safeFetch } from "../../../../shared/net/safe-fetch";
import type { ExtractedDocument } from "../../../../shared/text/document";
import { extractableKind, extractDocument } from "../../../../shared/text/extract";

// The search engines live in ./search/ (SearxNG, Tavily, Brave); their interface is re-exported for the stage code.
export type { SearchProvider, SearchResult, SearchOptions } from "./search/provider";

/**
 * Fetches a result page through the URL guard and extracts its readable text; throws when the page is not
 * usable. Every provider's results come here: no engine fetches or supplies a page's text itself. The
 * content type is checked after the (bounded) read rather than with safeFetch's `accept`:
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
