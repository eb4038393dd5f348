import http from "node:http";
import type { AddressInfo } from "node:net";
import type { CorpusPage } from "./fake-searxng";

/**
 * The local site that the fake search engines (fake-searxng, fake-tavily, fake-brave) find pages on, and
 * the ranking they share: every query returns the site's pages that share words with it (best first), with
 * a failing page, a PDF and a private address right after the first hit, as real result lists mix them in.
 */

/** Result pages the site cannot serve usefully: the pipeline must skip them. */
export const BROKEN_PATHS = { serverError: "/guides/outage", pdf: "/files/route-planning.pdf" };
/** An address the URL guard refuses (a private range), which the fakes also return as a result. */
export const PRIVATE_RESULT_URL = "http://10.0.0.1/internal/routes";

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function renderPage(page: CorpusPage): string {
  const sections = page.sections
    .map((s) => `<section><h2>${escapeHtml(s.heading)}</h2>${s.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}</section>`)
    .join("\n");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title></head>
<body><header><nav><a href="/">Home</a> | <a href="/guides/">Guides</a></nav></header>
<main><article><h1>${escapeHtml(page.title)}</h1>
${sections}</article></main><footer><p>Field Ops Guides</p></footer></body></html>`;
}

const WORD = /[\p{L}\p{N}]+/gu;

function relevance(page: CorpusPage, query: string): number {
  const text = `${page.title} ${page.sections.map((s) => `${s.heading} ${s.paragraphs.join(" ")}`).join(" ")}`.toLowerCase();
  const terms = (query.toLowerCase().match(WORD) ?? []).filter((t) => t.length > 3);
  return terms.reduce((n, t) => n + (text.includes(t) ? 1 : 0), 0);
}

export function listen(server: http.Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export async function closeServers(...servers: http.Server[]): Promise<void> {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

export interface SearchSite {
  /** Base address of the site the results point at. */
  url: string;
  /** Paths requested from the site, in order. */
  pageRequests: string[];
  server: http.Server;
}

/** Serves the pages as HTML, plus the broken paths (a 500 and a PDF). */
export async function startSearchSite(pages: CorpusPage[]): Promise<SearchSite> {
  const pageRequests: string[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    pageRequests.push(path);
    const page = pages.find((p) => p.path === path);
    if (page) return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(renderPage(page));
    if (path === BROKEN_PATHS.serverError) return void res.writeHead(500, { "content-type": "text/html" }).end("<h1>Internal error</h1>");
    if (path === BROKEN_PATHS.pdf) return void res.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4\n");
    res.writeHead(404, { "content-type": "text/html" }).end("<title>Not found</title>");
  });
  return { url: await listen(server), pageRequests, server };
}

export interface SiteHit {
  url: string;
  title: string;
  /** The page's opening words (empty for the broken results). */
  content: string;
  /** Query words the page contains (a fraction for the broken results, which rank below every real hit). */
  score: number;
  /** Whether the result is one the pipeline must skip (failing, a PDF, or refused by the guard). */
  junk: boolean;
}

/** The site's results for a query, best first, with the three unusable results right after the best hit. */
export function searchSite(pages: CorpusPage[], siteUrl: string, query: string): SiteHit[] {
  const hits: SiteHit[] = pages
    .map((p) => ({ p, score: relevance(p, query) }))
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score)
    .map(({ p, score }) => ({ url: `${siteUrl}${p.path}`, title: p.title, content: p.sections[0].paragraphs[0].slice(0, 160), score, junk: false }));
  const junk: SiteHit[] = [
    { url: `${siteUrl}${BROKEN_PATHS.serverError}`, title: "Route planning outage", content: "", score: 0.5, junk: true },
    { url: `${siteUrl}${BROKEN_PATHS.pdf}`, title: "Route planning (PDF)", content: "", score: 0.4, junk: true },
    { url: PRIVATE_RESULT_URL, title: "Internal routes", content: "", score: 0.3, junk: true },
  ];
  return [...hits.slice(0, 1), ...junk, ...hits.slice(1)];
}
