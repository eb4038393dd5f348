import { parseHtmlDom } from "../../../shared/text/html-dom";

/**
 * An absolute http(s) URL without its fragment, or undefined for anything a crawler does not follow
 * (mailto:, tel:, javascript:, data:, unparseable). WHATWG URL parsing already lower-cases scheme and
 * host, drops default ports and resolves `.`/`..` segments, so `href` is the de-duplication key.
 */
export function normalizeUrl(raw: string, base?: string | URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  url.hash = "";
  return url;
}

const withoutWww = (hostname: string) => hostname.replace(/^www\./, "");

/**
 * Same site: same host, where `www.example.com` and `example.com` count as one, and the same port.
 * http and https count as one site, so the common http→https redirect does not end a crawl.
 */
export function isSameSite(url: URL, site: URL): boolean {
  return withoutWww(url.hostname) === withoutWww(site.hostname) && url.port === site.port;
}

export interface PageLinks {
  title?: string;
  /** Absolute, fragment-free http(s) URLs of `<a href>` and `<area href>`, in document order, de-duplicated. */
  links: URL[];
  /** `<link rel="canonical">`, resolved. */
  canonical?: URL;
}

/**
 * Links, title and canonical URL of an HTML page, parsed with the same light DOM as text extraction
 * (shared/text/html-dom.ts): no script runs and nothing is loaded.
 */
export function extractLinks(html: string, pageUrl: string): PageLinks {
  const { document: doc } = parseHtmlDom(html);
  // The document's base URL honours the first <base href>, as a browser resolving the same links would.
  const baseHref = doc.querySelector("base[href]")?.getAttribute("href");
  const base = (baseHref !== null && baseHref !== undefined && normalizeBase(baseHref, pageUrl)) || pageUrl;
  const seen = new Set<string>();
  const links: URL[] = [];
  for (const el of doc.querySelectorAll("a[href], area[href]")) {
    const url = normalizeUrl(el.getAttribute("href") ?? "", base);
    if (url && !seen.has(url.href)) {
      seen.add(url.href);
      links.push(url);
    }
  }
  const canonicalEl = [...doc.querySelectorAll("link[rel][href]")].find((el) =>
    (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/).includes("canonical"),
  );
  const canonical = canonicalEl ? normalizeUrl(canonicalEl.getAttribute("href") ?? "", base) : undefined;
  const title = doc.querySelector("title")?.textContent?.replace(/\s+/g, " ").trim();
  return { links, ...(title ? { title } : {}), ...(canonical ? { canonical } : {}) };
}

/** A <base href> resolved against the page's address (any scheme, as the document's base URL), or undefined when it does not parse. */
function normalizeBase(href: string, pageUrl: string): string | undefined {
  try {
    return new URL(href.trim(), pageUrl).href;
  } catch {
    return undefined;
  }
}
