import http from "node:http";
import type { AddressInfo } from "node:net";

const WORDS = (
  "dispatch route technician invoice schedule customer warranty repair install furnace boiler pipe valve meter quote " +
  "estimate crew van parts inventory supplier season winter summer emergency overtime permit inspection safety training " +
  "contract maintenance plan renewal payment reminder review rating referral lead campaign margin revenue cost labor"
).split(" ");

/** Deterministic prose: page `n`'s paragraphs differ from every other page's, so chunks and retrieval are realistic. */
function paragraph(n: number, k: number): string {
  const words: string[] = [];
  let x = (n * 7919 + k * 104729) % 2147483647;
  for (let i = 0; i < 70; i++) {
    x = (x * 48271) % 2147483647;
    words.push(WORDS[x % WORDS.length]);
  }
  return `Page ${n} note ${k}: ${words.join(" ")}.`.replace(/(\w+ \w+ \w+ \w+ \w+ \w+ \w+ \w+ \w+ \w+ \w+ \w+)/g, "$1.");
}

function page(n: number, total: number): string {
  const links = [1, 2, 3].map((d) => (n + d) % total).map((m) => `<a href="/p/${m}">Page ${m}</a>`).join(" ");
  const sections = [1, 2, 3]
    .map((s) => `<h2>Section ${s} of page ${n}</h2><p>${paragraph(n, s * 2)}</p><p>${paragraph(n, s * 2 + 1)}</p>`)
    .join("");
  return `<!doctype html><html lang="en"><head><title>Generated page ${n}</title></head><body><nav>${links}</nav><main><article><h1>Generated page ${n}</h1>${sections}</article></main></body></html>`;
}

/** A local site of `pages` linked HTML pages with a sitemap, for the ingest benchmark. */
export async function startGeneratedSite(pages: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/robots.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    if (path === "/sitemap.xml") {
      const urls = Array.from({ length: pages }, (_, i) => `<url><loc>http://${req.headers.host}/p/${i}</loc></url>`).join("");
      return void res.writeHead(200, { "content-type": "application/xml" }).end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    const m = /^\/(?:p\/(\d+))?$/.exec(path);
    const n = m ? Number(m[1] ?? 0) : -1;
    if (n < 0 || n >= pages) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(n, pages));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
