import fs from "node:fs";
import { extractDocument } from "../../shared/text/extract";
import { extractDocument as extractJsdom } from "./extract-jsdom";
import { KNOWLEDGE_CORPUS } from "../../test/support/knowledge-corpus";

const inputs: { url: string; body: string }[] = [];
for (const d of KNOWLEDGE_CORPUS) if (d.contentType === "text/html") inputs.push({ url: d.url, body: d.body });
const dir = "/usr/share/debian-reference";
for (const f of fs.readdirSync(dir)) if (f.endsWith(".html")) inputs.push({ url: `http://127.0.0.1/${f}`, body: fs.readFileSync(`${dir}/${f}`, "utf8") });
for (const f of fs.readdirSync("/tmp/cmp-extra").filter((x) => x.endsWith(".html"))) inputs.push({ url: `http://x/${f}`, body: fs.readFileSync(`/tmp/cmp-extra/${f}`, "utf8") });

let same = 0;
let diff = 0;
let tA = 0, tB = 0;
for (const input of inputs) {
  const doc = { url: input.url, contentType: "text/html", body: input.body };
  let t = process.hrtime.bigint();
  const a = extractJsdom(doc);
  tA += Number(process.hrtime.bigint() - t) / 1e6;
  t = process.hrtime.bigint();
  const b = extractDocument(doc);
  tB += Number(process.hrtime.bigint() - t) / 1e6;
  const ja = JSON.stringify(a), jb = JSON.stringify(b);
  if (ja === jb) same++;
  else {
    diff++;
    if (process.env.SHOW) {
      fs.writeFileSync(`/tmp/cmp-out/${input.url.replace(/\W+/g, "_")}.a.json`, JSON.stringify(a, null, 1));
      fs.writeFileSync(`/tmp/cmp-out/${input.url.replace(/\W+/g, "_")}.b.json`, JSON.stringify(b, null, 1));
    }
    console.log("DIFF", input.url, a.sections.length, b.sections.length, a.title === b.title, a.lang, b.lang, a.wordCount, b.wordCount);
  }
}
console.log({ same, diff, jsdomMs: Math.round(tA), linkedomMs: Math.round(tB), pages: inputs.length });
import { extractLinks } from "../../services/brand-knowledge/crawl/links";
import { extractLinks as linksJsdom } from "./links-jsdom";
let ls = 0, ld = 0;
for (const input of inputs) {
  const a = JSON.stringify(linksJsdom(input.body, input.url)), b = JSON.stringify(extractLinks(input.body, input.url));
  if (a === b) ls++; else { ld++; console.log("LINKDIFF", input.url); }
}
const extra = [`<html><head><base href="/sub/dir/"><title> T  x </title><link rel="Canonical nofollow" href="c.html#f"></head><body><a href="a.html">a</a><a href="mailto:x@y">m</a><area href="https://other.example/x#y"><a href="../up">u</a></body></html>`];
for (const h of extra) { const a = JSON.stringify(linksJsdom(h, "http://h.example/p/q")), b = JSON.stringify(extractLinks(h, "http://h.example/p/q")); console.log(a === b ? "same" : `LINKDIFF extra ${a} ${b}`); }
console.log({ ls, ld });
