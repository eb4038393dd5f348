import zlib from "node:zlib";
import { XMLParser } from "fast-xml-parser";

export interface SitemapEntries {
  /** `<urlset><url><loc>`: pages. */
  pages: string[];
  /** `<sitemapindex><sitemap><loc>`: further sitemaps. */
  sitemaps: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === "url" || name === "sitemap",
});

const GZIP_MAGIC = [0x1f, 0x8b];

function locs(entries: unknown): string[] {
  if (!Array.isArray(entries)) return [];
  return entries
    .map((e) => (e && typeof e === "object" ? (e as { loc?: unknown }).loc : undefined))
    .filter((loc): loc is string => typeof loc === "string" && loc.trim() !== "")
    .map((loc) => loc.trim());
}

/**
 * The URLs of a sitemap or sitemap index (sitemaps.org protocol), gzipped or not. Malformed or
 * oversized input yields no entries rather than an error: a broken sitemap only loses its seeds.
 */
export function parseSitemap(body: Buffer, maxBytes: number): SitemapEntries {
  try {
    const xml = body[0] === GZIP_MAGIC[0] && body[1] === GZIP_MAGIC[1] ? zlib.gunzipSync(body, { maxOutputLength: maxBytes }) : body;
    const doc = parser.parse(xml.toString("utf8")) as { urlset?: { url?: unknown }; sitemapindex?: { sitemap?: unknown } };
    return { pages: locs(doc.urlset?.url), sitemaps: locs(doc.sitemapindex?.sitemap) };
  } catch {
    return { pages: [], sitemaps: [] };
  }
}

/**
 * Page URLs from the given sitemaps, following sitemap index files one level deep (an index that
 * lists indexes is not followed further). `fetchSitemap` returns undefined for a sitemap it will not
 * or could not fetch.
 */
export async function collectSitemapPages(
  roots: string[],
  fetchSitemap: (url: string) => Promise<Buffer | undefined>,
  limits: { maxBytes: number; maxSitemaps: number; maxPages: number },
): Promise<string[]> {
  const pages: string[] = [];
  let fetched = 0;
  const read = async (url: string): Promise<SitemapEntries> => {
    fetched++;
    const body = await fetchSitemap(url);
    return body ? parseSitemap(body, limits.maxBytes) : { pages: [], sitemaps: [] };
  };
  for (const root of roots) {
    if (fetched >= limits.maxSitemaps || pages.length >= limits.maxPages) break;
    const top = await read(root);
    pages.push(...top.pages);
    for (const child of top.sitemaps) {
      if (fetched >= limits.maxSitemaps || pages.length >= limits.maxPages) break;
      pages.push(...(await read(child)).pages);
    }
  }
  return pages.slice(0, limits.maxPages);
}
