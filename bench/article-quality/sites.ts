import fs from "node:fs";
import http from "node:http";
import path from "node:path";

/** Where Debian's debian-reference-<lang> packages put their pages (installed by bench/ensure-debian-reference.sh). */
export const DEBIAN_REFERENCE_DIR = process.env.BENCH_QUALITY_REFERENCE_DIR ?? "/usr/share/debian-reference";
export const LANGUAGES = ["en", "fr", "de", "es"] as const;
export type Lang = (typeof LANGUAGES)[number];

/** The pasted knowledge bases the bench asks articles of (`bench/relevance/knowledge-bases.ts`). */
export const PASTED = ["composting", "velo", "zimmerpflanzen", "huerto"] as const;
export type Pasted = (typeof PASTED)[number];

/** A profile of the bench: one debian-reference language crawled as a website, or a pasted knowledge base. */
export type ProfileName = Lang | Pasted;

export interface LocalSite {
  lang: Lang;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  origin: string;
  /** Every address this site answers 200 for: `/` and each page file. */
  pageUrls: string[];
  close(): Promise<void>;
}

/** The page files of one language: index, preface, chapters 1–12, appendix. */
export function pageFiles(lang: Lang): string[] {
  const files = fs.readdirSync(DEBIAN_REFERENCE_DIR).filter((f) => new RegExp(`^(index|pr01|apa|ch\\d\\d)\\.${lang}\\.html$`).test(f));
  if (!files.some((f) => f === `index.${lang}.html`)) throw new Error(`no index.${lang}.html in ${DEBIAN_REFERENCE_DIR}: run bench/ensure-debian-reference.sh`);
  return files.sort();
}

/**
 * One language's debian-reference as a website on 127.0.0.1:`port`: `/` is index.<lang>.html, each page at its
 * own name (the pages link to each other relatively), text/html; charset=utf-8; anything else is 404.
 */
export async function startReferenceSite(lang: Lang, port: number): Promise<LocalSite> {
  const files = new Set(pageFiles(lang));
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent((req.url ?? "/").split(/[?#]/)[0]);
    const file = pathname === "/" ? `index.${lang}.html` : pathname.slice(1);
    if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405).end();
    if (!files.has(file)) return void res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
    const body = fs.readFileSync(path.join(DEBIAN_REFERENCE_DIR, file));
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length }).end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "EADDRINUSE" ? new Error(`port ${port} for the ${lang} site is in use: set BENCH_QUALITY_PORT_BASE to a free range of 4 ports`) : err),
    );
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    lang,
    origin,
    pageUrls: [`${origin}/`, ...[...files].map((f) => `${origin}/${f}`)],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Pasted texts served at the addresses the bench gives them as their `url` (text sources are never fetched by
 * the platform; the addresses let a reader, and the support check, open what a citation names), text/plain.
 */
export async function startTextSite(pages: readonly { path: string; content: string }[], port: number, lang: Lang): Promise<LocalSite> {
  const byPath = new Map(pages.map((p) => [p.path, p.content]));
  const server = http.createServer((req, res) => {
    const pathname = (req.url ?? "/").split(/[?#]/)[0];
    const content = byPath.get(pathname);
    if (content === undefined) return void res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(req.method === "HEAD" ? undefined : content);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const origin = `http://127.0.0.1:${port}`;
  return { lang, origin, pageUrls: pages.map((p) => `${origin}${p.path}`), close: () => new Promise((resolve) => server.close(() => resolve())) };
}
