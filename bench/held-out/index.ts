import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { ADMIN_TOKEN } from "../../test/support/cluster";
import { createOrgWithKey } from "../../test/support/admin";
import { client } from "../../test/support/http";
import { waitForJob } from "../../test/support/jobs";
import { spawnPlatform, tempDir } from "../../test/support/platform";
import { numberOption } from "../options";
import { HELD_OUT_KNOWLEDGE_BASES } from "./knowledge-bases";
import { HELD_OUT_REQUESTS, type HeldOutRequest } from "./requests";
import { judgeArticle, sourceText, type ReaderJudgement, type SourceText } from "./reader";
import { JSDOM } from "jsdom";
import { judgeFaq, pooledFaq, type FaqJudgement } from "../faq-reader";

/** Where Debian's debian-faq{,-fr,-de} and maint-guide-{es,fr,de} put their pages (bench/ensure-debian-reference.sh). */
const FAQ_DIR = process.env.BENCH_HELD_OUT_FAQ_DIR ?? "/usr/share/doc/debian/FAQ";
const GUIDE_DIR = process.env.BENCH_HELD_OUT_GUIDE_DIR ?? "/usr/share/doc";

/** Where Debian's valgrind package puts its manual's pages (bench/ensure-debian-reference.sh). */
const VALGRIND_DIR = process.env.BENCH_HELD_OUT_VALGRIND_DIR ?? "/usr/share/doc/valgrind/html";

/**
 * The crawled documents of the probe: each a website of one language's pages, `index.<lang>.html` its home
 * unless it names another (`home`, every `.html` page of its folder then served).
 */
const SITES: { profile: HeldOutRequest["profile"]; name: string; lang: string; dir: string; home?: string }[] = [
  { profile: "faq-en", name: "Debian FAQ (en)", lang: "en", dir: FAQ_DIR },
  { profile: "faq-fr", name: "Debian FAQ (fr)", lang: "fr", dir: path.join(FAQ_DIR, "fr") },
  { profile: "faq-de", name: "Debian FAQ (de)", lang: "de", dir: path.join(FAQ_DIR, "de") },
  // Added at the ninth stop, a second set of documents none of the rules were read from.
  { profile: "guide-es", name: "Guía del nuevo desarrollador de Debian", lang: "es", dir: path.join(GUIDE_DIR, "maint-guide-es/html") },
  { profile: "guide-fr", name: "Guide du nouveau responsable Debian", lang: "fr", dir: path.join(GUIDE_DIR, "maint-guide-fr/html") },
  { profile: "guide-de", name: "Debian-Leitfaden für Neue Paketbetreuer", lang: "de", dir: path.join(GUIDE_DIR, "maint-guide-de/html") },
  // Added at the fifteenth stop: a manual of another domain (a programmer's tool, not Debian), its requests written
  // before it was crawled or read.
  { profile: "valgrind", name: "Valgrind", lang: "en", dir: VALGRIND_DIR, home: "index.html" },
];

/** The files a site serves: its home and its pages of one language (or every page, when it names its home). */
const siteFiles = (site: (typeof SITES)[number]) => fs.readdirSync(site.dir).filter((f) => f.endsWith(site.home ? ".html" : `.${site.lang}.html`));

/**
 * What each profile's documents say, as a browser shows their text (jsdom, which the pipeline does not use) or as
 * pasted: where the reader's in-place count looks up what a sentence follows.
 */
function sourceTexts(): Record<string, SourceText> {
  const pages = (site: (typeof SITES)[number]) => siteFiles(site).map((f) => new JSDOM(fs.readFileSync(path.join(site.dir, f), "utf8")).window.document.body?.textContent ?? "");
  return {
    ...Object.fromEntries(SITES.map((site) => [site.profile, sourceText(pages(site))])),
    ...Object.fromEntries(Object.entries(HELD_OUT_KNOWLEDGE_BASES).map(([name, kb]) => [name, sourceText(kb.texts.map((t) => t.content))])),
  };
}

/** One site's pages on 127.0.0.1:`port` (`/` is its index). */
async function startSite(site: (typeof SITES)[number], port: number): Promise<{ origin: string; close(): Promise<void> }> {
  const { lang, dir } = site;
  const home = site.home ?? `index.${lang}.html`;
  if (!fs.existsSync(path.join(dir, home))) throw new Error(`no ${home} in ${dir}: run bench/ensure-debian-reference.sh`);
  const files = new Set(siteFiles(site));
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent((req.url ?? "/").split(/[?#]/)[0]);
    const file = pathname === "/" ? home : pathname.slice(1);
    if (!files.has(file)) return void res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(req.method === "HEAD" ? undefined : fs.readFileSync(path.join(dir, file)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

interface Outcome {
  request: HeldOutRequest;
  status: string;
  verdict: "write" | "refuse";
  /** A job that failed for a reason other than a refusal of the evidence (a fault in the code). */
  fault: boolean;
  error?: string;
  words?: number;
  score?: number;
  faq?: number;
  reader?: ReaderJudgement;
  faqReader?: FaqJudgement;
}

/** Which set of documents a request is asked of: a crawled FAQ, a crawled guide, the crawled Valgrind manual, or pasted notes. */
const documentSet = (r: HeldOutRequest): "faq" | "guide" | "valgrind" | "pasted" =>
  r.profile.startsWith("faq-") ? "faq" : r.profile.startsWith("guide-") ? "guide" : r.profile === "valgrind" ? "valgrind" : "pasted";

/** A refusal says what is missing in the sources; anything else a failed job says is a fault. */
const REFUSAL = /(No passages|Only \d+ (sentences|words)|an article needs at least)/;

/**
 * `npm run bench held-out`: documents and requests the relevance model was never fit on (docs/benchmarks.md,
 * "Held-out probe"): the Debian FAQ (en, fr, de) and the New Maintainers' Guide (es, fr, de) crawled, and two pasted fact lists (`knowledge-bases.ts`),
 * asked natural requests with the verdict a reader expects. Reports verdicts against expectations, faults
 * (jobs failing for anything but a refusal), length and score, and writes each article to
 * bench/results/held-out/ for reading. It is a probe: what it shows is fixed in general, never per request.
 */
export async function benchHeldOut(): Promise<Record<string, unknown>> {
  // Under Linux's ephemeral range (32768–60999), as the article-quality bench's sites are.
  const portBase = numberOption("BENCH_HELD_OUT_PORT_BASE", 27400);
  const sites = await Promise.all(SITES.map((site, i) => startSite(site, portBase + i)));
  const platform = await spawnPlatform({
    env: { ADMIN_TOKEN, DATA_DIR: tempDir("bench-held-out"), EMBEDDED_MONGO_IN_MEMORY: "true", LOG_LEVEL: "warn", JOB_POLL_MS: "200", PIPELINE_CONCURRENCY: "2", CRAWL_MAX_PAGES: "40", CRAWL_MAX_DEPTH: "3", CRAWL_TIMEOUT_MS: "900000", REQUEST_TIMEOUT_MS: "120000" },
  });
  const outDir = path.resolve(__dirname, "../../../bench/results/held-out");
  if (!process.env.BENCH_HELD_OUT_ONLY) fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  try {
    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 100_000, rate_limit_rpm: 100_000, name: "held-out probe" });
    const api = client(platform.url, key);
    const profiles: Record<string, string> = {};
    for (const [i, site] of SITES.entries()) {
      const created = await api("/v1/brand-profiles", { method: "POST", body: { name: site.name, website_url: `${sites[i].origin}/` } });
      if (created.status !== 201) throw new Error(`POST /v1/brand-profiles: ${created.status} ${created.text}`);
      const job = await waitForJob(platform.url, key, created.body.ingest_job_id, { timeoutMs: 1_200_000 });
      if (job.status !== "succeeded") throw new Error(`ingest of ${site.name} ${job.status}: ${job.error}`);
      profiles[site.profile] = created.body.id;
    }
    for (const [name, kb] of Object.entries(HELD_OUT_KNOWLEDGE_BASES)) {
      const created = await api("/v1/brand-profiles", { method: "POST", body: { name: kb.name, description: kb.description } });
      for (const text of kb.texts) {
        const added = await api(`/v1/brand-profiles/${created.body.id}/sources`, { method: "POST", body: { type: "text", title: text.title, content: text.content } });
        const job = await waitForJob(platform.url, key, added.body.ingest_job_id, { timeoutMs: 600_000 });
        if (job.status !== "succeeded") throw new Error(`ingest of ${name} ${job.status}: ${job.error}`);
      }
      profiles[name] = created.body.id;
    }
    const outcomes: Outcome[] = [];
    const sources = sourceTexts();
    // A look at some requests only (not the probe's figures): `BENCH_HELD_OUT_ONLY` is a regular expression over
    // the topic; `BENCH_HELD_OUT_STAGE_META` prints each job's stage reports to stderr.
    const only = process.env.BENCH_HELD_OUT_ONLY ? new RegExp(process.env.BENCH_HELD_OUT_ONLY, "i") : undefined;
    for (const [i, r] of HELD_OUT_REQUESTS.entries()) {
      if (only && !only.test(r.topic)) continue;
      const body = { topic: r.topic, language: r.language, target_words: r.target_words, mode: r.mode, brand_profile_id: profiles[r.profile] };
      const created = await api("/v1/articles", { method: "POST", body, headers: { "Idempotency-Key": crypto.randomUUID() } });
      if (created.status !== 202) throw new Error(`POST /v1/articles: ${created.status} ${created.text}`);
      const job = await waitForJob(platform.url, key, created.body.id, { timeoutMs: 600_000 });
      if (process.env.BENCH_HELD_OUT_STAGE_META) console.error(JSON.stringify({ topic: r.topic, stages: job.stages.map((s: { key: string; meta?: unknown }) => ({ key: s.key, meta: s.meta })) }));
      const file = `${String(i).padStart(2, "0")}-${r.profile}.md`;
      let md = `# ${r.topic}\n\n- profile ${r.profile}, ${r.language}, ${r.target_words} words asked, ${r.mode}; a reader expects: **${r.expect}**\n- status: **${job.status}**\n`;
      const outcome: Outcome = { request: r, status: job.status, verdict: job.status === "succeeded" ? "write" : "refuse", fault: job.status !== "succeeded" && !REFUSAL.test(String(job.error)) };
      if (job.status === "succeeded") {
        const a = (await api(`/v1/articles/${job.result.article_id}?format=markdown`)).body;
        const reader = judgeArticle(r.topic, a.content_markdown, r.language, a.faq.map((f: { question: string }) => f.question), sources[r.profile]);
        Object.assign(outcome, { words: a.word_count, score: a.quality_score, faq: a.faq.length, reader, faqReader: judgeFaq(a.faq) });
        md += `- words ${a.word_count}, quality_score ${a.quality_score}\n\n## ${a.title}\n\n${a.content_markdown}\n\n## FAQ\n\n${a.faq.map((f: { question: string; answer: string }) => `- **${f.question}** ${f.answer}`).join("\n")}\n`;
      } else {
        outcome.error = String(job.error).slice(0, 300);
        md += `- error: ${job.error}\n`;
      }
      fs.writeFileSync(path.join(outDir, file), md);
      outcomes.push(outcome);
    }
    const covered = outcomes.filter((o) => o.request.expect === "write");
    const uncovered = outcomes.filter((o) => o.request.expect === "refuse");
    const readerOf = (list: readonly Outcome[]) => {
      const judged = list.flatMap((o) => (o.reader ? [o.reader] : []));
      const sum = (k: keyof ReaderJudgement) => judged.reduce((n, j) => n + j[k], 0);
      const share = (k: "on_topic" | "standalone" | "in_place") => (sum("labelled") ? Math.round((sum(k) / sum("labelled")) * 1000) / 1000 : null);
      const faq = pooledFaq(list.flatMap((o) => (o.faqReader ? [o.faqReader] : [])));
      return { labelled: `${sum("labelled")} of ${sum("sentences")} sentences`, on_topic: share("on_topic"), standalone: share("standalone"), in_place: share("in_place"), faq_pairs: `${faq.accepted} accepted of ${faq.labelled} labelled (${faq.pairs} pairs)` };
    };
    return {
      requests: outcomes.length,
      // A reader's labels (`reader-labels.json`), report only: the share of labelled sentences on the request's
      // subject and standing alone, pooled over the written articles, and how many sentences no reader has read;
      // and the FAQ pairs a reader accepted (`faq-labels.json`: a question worth asking, answered).
      reader: readerOf(outcomes),
      faults: outcomes.filter((o) => o.fault).map((o) => `${o.request.topic}: ${o.error}`),
      covered_written: `${covered.filter((o) => o.verdict === "write").length} / ${covered.length}`,
      uncovered_refused: `${uncovered.filter((o) => o.verdict === "refuse").length} / ${uncovered.length}`,
      // The same by set of documents: the FAQ and the pasted notes were read for rules at the eighth stop, the
      // maintainers' guide only from the ninth, the Valgrind manual only from the fifteenth.
      by_documents: Object.fromEntries(
        (["faq", "guide", "valgrind", "pasted"] as const).map((set) => {
          const c = covered.filter((o) => documentSet(o.request) === set);
          const u = uncovered.filter((o) => documentSet(o.request) === set);
          return [set, { covered_written: `${c.filter((o) => o.verdict === "write").length} / ${c.length}`, uncovered_refused: `${u.filter((o) => o.verdict === "refuse").length} / ${u.length}`, reader: readerOf(c) }];
        }),
      ),
      outcomes: outcomes.map((o) => ({
        topic: o.request.topic,
        profile: o.request.profile,
        expect: o.request.expect,
        status: o.status,
        words: o.words,
        asked: o.request.target_words,
        score: o.score,
        faq: o.faq,
        ...(o.reader ? { reader: `${o.reader.on_topic}/${o.reader.labelled} on topic, ${o.reader.standalone}/${o.reader.labelled} standalone (${o.reader.in_place} in place), ${o.reader.sentences - o.reader.labelled} unlabelled` } : {}),
        ...(o.faqReader?.rejected.length ? { faq_rejected: o.faqReader.rejected.map((r) => `${r.question} (${r.why})`) } : {}),
        error: o.error,
      })),
    };
  } finally {
    await platform.stop();
    await Promise.all(sites.map((s) => s.close()));
  }
}
