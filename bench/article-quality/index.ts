import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ADMIN_TOKEN } from "../../test/support/cluster";
import { createOrgWithKey } from "../../test/support/admin";
import { client, request } from "../../test/support/http";
import { waitForJob } from "../../test/support/jobs";
import { spawnPlatform, tempDir, type PlatformProcess } from "../../test/support/platform";
import { documentModelResponder, startFakeOpenAI } from "../../test/support/fake-openai";
import { waitFor } from "../../test/support/wait";
import { CASES, type QualityCase } from "./cases";
import { checkArticle, SourcePages, type ApiArticle } from "./checks";
import { readerVerdictFor } from "./reader-verdicts";
import { aggregate, printReport, writeArticleFiles, type JobOutcome } from "./report";
import { LANGUAGES, PASTED, startReferenceSite, startTextSite, type LocalSite, type Pasted, type ProfileName } from "./sites";
import { SMALL_KNOWLEDGE_BASES } from "../relevance/knowledge-bases";

const isPasted = (name: ProfileName): name is Pasted => (PASTED as readonly string[]).includes(name);
import { numberOption } from "../options";

const STATE_FILE = "bench-quality.json";
const JOB_TIMEOUT_MS = numberOption("BENCH_QUALITY_JOB_TIMEOUT_MS", 600_000);
const INGEST_TIMEOUT_MS = numberOption("BENCH_QUALITY_INGEST_TIMEOUT_MS", 1_200_000);
const CREDITS = 100_000;

/** What a reused data directory remembers between runs. */
interface BenchState {
  adminToken: string;
  orgId: string;
  key: string;
  portBase: number;
  profiles: Partial<Record<ProfileName, { id: string; ingest_job_id: string; pages: number; chunks: number }>>;
}

/** The spec's price (§1): what `credits_charged` must be. */
export function expectedPrice(c: QualityCase): number {
  return (
    (c.request.mode === "deep_research" ? 25 : 10) +
    (c.request.image ? 3 : 0) +
    (c.request.derivatives?.length ? 3 : 0) +
    (c.request.language !== "en" ? 5 : 0)
  );
}

const seconds = (a?: string | null, b?: string | null) => (a && b ? Number(((Date.parse(b) - Date.parse(a)) / 1000).toFixed(1)) : null);

function loadState(dir: string | undefined): BenchState | undefined {
  if (!dir) return undefined;
  const file = path.join(dir, STATE_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as BenchState) : undefined;
}

function saveState(dir: string | undefined, state: BenchState): void {
  if (dir) fs.writeFileSync(path.join(dir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

async function balanceOf(api: ReturnType<typeof client>): Promise<number> {
  const r = await api("/v1/usage?days=1");
  if (r.status !== 200) throw new Error(`GET /v1/usage: ${r.status} ${r.text}`);
  return r.body.credit_balance as number;
}

/** The organization and key: the remembered ones when they still work, else a new org with plenty of credits. */
async function ensureOrg(platform: PlatformProcess, state: BenchState | undefined, adminToken: string, portBase: number): Promise<BenchState> {
  if (state) {
    const probe = await request(platform.url, "/v1/usage?days=1", { token: state.key });
    if (probe.status === 200) {
      if (probe.body.credit_balance < CREDITS / 10) {
        const top = await request(platform.url, `/admin/orgs/${state.orgId}/credits`, { method: "POST", token: adminToken, body: { amount: CREDITS, reason: "article-quality bench" } });
        if (top.status !== 200) throw new Error(`top-up: ${top.status} ${top.text}`);
      }
      return state;
    }
  }
  const { orgId, key } = await createOrgWithKey(platform.url, adminToken, { credits: CREDITS, rate_limit_rpm: 100_000, name: "article-quality bench" });
  return { adminToken, orgId, key, portBase, profiles: {} };
}

/** A pasted knowledge base as text sources, each with the address it is served at (never fetched by the platform). */
async function pasteKnowledgeBase(platform: PlatformProcess, key: string, site: LocalSite, name: Pasted): Promise<{ id: string; ingest_job_id: string; pages: number; chunks: number }> {
  const api = client(platform.url, key);
  const { texts, brand } = SMALL_KNOWLEDGE_BASES[name];
  const created = await api("/v1/brand-profiles", { method: "POST", body: { name: brand.name, description: brand.description } });
  if (created.status !== 201) throw new Error(`POST /v1/brand-profiles (${name}): ${created.status} ${created.text}`);
  let chunks = 0;
  let last = "";
  for (const [i, text] of texts.entries()) {
    const url = site.pageUrls[i];
    const added = await api(`/v1/brand-profiles/${created.body.id}/sources`, { method: "POST", body: { type: "text", title: text.title, content: text.content, url } });
    if (added.status !== 201 && added.status !== 202) throw new Error(`POST sources (${name}): ${added.status} ${added.text}`);
    const job = await waitForJob(platform.url, key, added.body.ingest_job_id, { timeoutMs: INGEST_TIMEOUT_MS });
    if (job.status !== "succeeded") throw new Error(`ingest of ${name} ${job.status}: ${job.error}`);
    chunks += job.result.chunks;
    last = added.body.ingest_job_id;
  }
  return { id: created.body.id, ingest_job_id: last, pages: texts.length, chunks };
}

/** One brand profile per language, its website crawled, and one per pasted knowledge base; remembered profiles whose source is ready are kept. */
async function ensureProfiles(platform: PlatformProcess, state: BenchState, sites: Map<ProfileName, LocalSite>): Promise<Record<string, unknown>> {
  const api = client(platform.url, state.key);
  const timings: Record<string, unknown> = {};
  const started = Date.now();
  await Promise.all(
    [...LANGUAGES, ...PASTED].map(async (lang) => {
      const known = state.profiles[lang];
      if (known) {
        const sources = await api(`/v1/brand-profiles/${known.id}/sources`);
        if (sources.status === 200 && sources.body.data.some((s: { status: string }) => s.status === "ready")) {
          timings[lang] = { reused: true, pages: known.pages, chunks: known.chunks };
          return;
        }
      }
      const site = sites.get(lang)!;
      if (isPasted(lang)) {
        const t = Date.now();
        const profile = (state.profiles[lang] = await pasteKnowledgeBase(platform, state.key, site, lang));
        timings[lang] = { seconds: (Date.now() - t) / 1000, chunks: profile.chunks };
        return;
      }
      const created = await api("/v1/brand-profiles", { method: "POST", body: { name: `Debian reference (${lang})`, website_url: `${site.origin}/` } });
      if (created.status !== 201) throw new Error(`POST /v1/brand-profiles (${lang}): ${created.status} ${created.text}`);
      const job = await waitForJob(platform.url, state.key, created.body.ingest_job_id, { timeoutMs: INGEST_TIMEOUT_MS });
      if (job.status !== "succeeded") throw new Error(`ingest of the ${lang} site ${job.status}: ${job.error}`);
      state.profiles[lang] = { id: created.body.id, ingest_job_id: created.body.ingest_job_id, pages: job.result.pages, chunks: job.result.chunks };
      timings[lang] = {
        seconds: seconds(job.created_at, job.finished_at),
        pages: job.result.pages,
        chunks: job.result.chunks,
        stages: Object.fromEntries(job.stages.map((s: any) => [s.key, seconds(s.startedAt, s.endedAt)])),
      };
    }),
  );
  timings.total_seconds = Number(((Date.now() - started) / 1000).toFixed(1));
  return timings;
}

/** Waits until the balance equals `expected` (refunds are settled just after a job ends), or returns the last seen. */
async function settledBalance(api: ReturnType<typeof client>, expected: number): Promise<number> {
  let last = await balanceOf(api);
  try {
    return await waitFor(async () => ((last = await balanceOf(api)) === expected ? last : undefined), "balance", 15_000, 200);
  } catch {
    return last;
  }
}

async function runCase(platform: PlatformProcess, state: BenchState, c: QualityCase, deps: Parameters<typeof checkArticle>[3]): Promise<JobOutcome> {
  const api = client(platform.url, state.key);
  const before = await balanceOf(api);
  const started = Date.now();
  const body = { ...c.request, brand_profile_id: state.profiles[c.profile]!.id };
  const created = await api("/v1/articles", { method: "POST", body, headers: { "Idempotency-Key": `bench-quality-${c.id}-${crypto.randomUUID()}` } });
  const outcome: JobOutcome = { case: c, before, price: expectedPrice(c) } as JobOutcome;
  if (created.status !== 202) {
    outcome.status = `rejected ${created.status}`;
    outcome.error = created.body?.error?.message ?? created.text;
    outcome.credits_charged = 0;
    outcome.after = await settledBalance(api, before);
    outcome.seconds = (Date.now() - started) / 1000;
    return outcome;
  }
  const job = await waitForJob(platform.url, state.key, created.body.id, { timeoutMs: JOB_TIMEOUT_MS });
  outcome.job_id = job.id;
  outcome.status = job.status;
  outcome.error = job.error;
  outcome.credits_charged = job.credits_charged;
  outcome.seconds = seconds(job.created_at, job.finished_at) ?? (Date.now() - started) / 1000;
  outcome.stage_seconds = Object.fromEntries(job.stages.filter((s: any) => s.startedAt).map((s: any) => [s.key, seconds(s.startedAt, s.endedAt)]));
  if (process.env.BENCH_QUALITY_STAGE_META) console.error(JSON.stringify({ case: c.id, stages: job.stages.map((s: any) => ({ key: s.key, meta: s.meta })) }));
  outcome.after = await settledBalance(api, job.status === "succeeded" ? before - job.credits_charged : before);
  if (job.status === "succeeded") {
    const got = await api(`/v1/articles/${job.result.article_id}?format=markdown`);
    if (got.status !== 200) throw new Error(`GET /v1/articles/${job.result.article_id}: ${got.status} ${got.text}`);
    outcome.article = got.body as ApiArticle;
    outcome.checks = await checkArticle(outcome.article, c.request.target_words, c.vocabulary ?? [], { ...deps, reader: readerVerdictFor(`${c.request.language}-${c.id}`) });
  }
  return outcome;
}

/**
 * Article quality on real documents: Debian's reference manual in four languages served as local websites,
 * each crawled into a brand profile, then article jobs (covered topics, a language the profile lacks, topics the
 * manual does not cover) measured from what the API returns and the source pages: refunds, on-topic share,
 * support of citations, fabricated addresses, language per field, form, length and the quality score.
 */
export async function benchArticleQuality(options: { model?: boolean } = {}): Promise<Record<string, unknown>> {
  // The model run: the same cases with the project's domain-free fake model configured (`documentModelResponder`).
  const model = options.model ? await startFakeOpenAI({ chat: documentModelResponder() }) : undefined;
  const reuseDir = process.env.BENCH_QUALITY_DATA_DIR ? path.resolve(process.env.BENCH_QUALITY_DATA_DIR) : undefined;
  if (reuseDir) fs.mkdirSync(reuseDir, { recursive: true });
  const only = process.env.BENCH_QUALITY_ONLY ? new RegExp(process.env.BENCH_QUALITY_ONLY, "i") : undefined;
  const cases = CASES.filter((c) => !only || only.test(`${c.request.language}-${c.id}`));
  let state = loadState(reuseDir);
  // Under Linux's ephemeral range (32768–60999): one bench's client sockets in TIME_WAIT on 47312 refused the next
  // bench that port for its German site.
  const portBase = state?.portBase ?? numberOption("BENCH_QUALITY_PORT_BASE", 27310);
  const adminToken = state?.adminToken ?? ADMIN_TOKEN;

  const sites = new Map<ProfileName, LocalSite>();
  let platform: PlatformProcess | undefined;
  try {
    for (const [i, lang] of LANGUAGES.entries()) sites.set(lang, await startReferenceSite(lang, portBase + i));
    for (const [i, name] of PASTED.entries()) {
      const { lang, texts } = SMALL_KNOWLEDGE_BASES[name];
      sites.set(name, await startTextSite(texts.map((f) => ({ path: new URL(f.url).pathname, content: f.content })), portBase + LANGUAGES.length + i, lang));
    }
    const bootStarted = Date.now();
    platform = await spawnPlatform({
      env: {
        ADMIN_TOKEN: adminToken,
        DATA_DIR: reuseDir ?? tempDir("bench-quality"),
        EMBEDDED_MONGO_IN_MEMORY: reuseDir ? "false" : "true",
        LOG_LEVEL: "warn",
        JOB_POLL_MS: "200",
        PIPELINE_CONCURRENCY: "2",
        CRAWL_MAX_PAGES: "40",
        CRAWL_MAX_DEPTH: "3",
        CRAWL_TIMEOUT_MS: "900000",
        CRAWL_PAGE_TIMEOUT_MS: "60000",
        REQUEST_TIMEOUT_MS: "120000",
        ...(model ? { LLM_BASE_URL: model.baseURL, LLM_MODEL: "bench-model", IMAGES_BASE_URL: model.baseURL, IMAGES_MODEL: "bench-images", LLM_MAX_RETRIES: "0" } : {}),
      },
    });
    const bootSeconds = (Date.now() - bootStarted) / 1000;
    state = await ensureOrg(platform, state, adminToken, portBase);
    saveState(reuseDir, state);
    const crawl = await ensureProfiles(platform, state, sites);
    saveState(reuseDir, state);

    const platformOrigins = [platform.url, platform.url.replace("127.0.0.1", "localhost")];
    const deps = {
      pages: new SourcePages(),
      isSitePage: (url: string): { ok: true } | { ok: false; reason: string } => {
        let u: URL;
        try {
          u = new URL(url);
        } catch {
          return { ok: false, reason: "not an address" };
        }
        if (!/^https?:$/.test(u.protocol)) return { ok: false, reason: `scheme ${u.protocol}` };
        const site = [...sites.values()].find((s) => s.origin === u.origin);
        if (!site) return { ok: false, reason: "not a page of the profile's site" };
        if (!site.pageUrls.includes(`${u.origin}${u.pathname}`)) return { ok: false, reason: "no such page on the site" };
        return { ok: true };
      },
      allowedAddress: (_url: string) => true,
    };
    const outcomes: JobOutcome[] = [];
    const jobsStarted = Date.now();
    for (const c of cases) {
      const site = sites.get(c.profile)!;
      deps.allowedAddress = (url: string) => {
        const bare = url.split("#")[0];
        if (/^https?:\/\/schema\.org(\/|$)/.test(bare)) return true;
        if (platformOrigins.some((o) => bare === o || bare.startsWith(`${o}/`))) return true;
        return site.pageUrls.includes(bare);
      };
      const siteCheck = deps.isSitePage;
      const outcome = await runCase(platform, state, c, {
        ...deps,
        isSitePage: (url) => {
          const r = siteCheck(url);
          if (r.ok && !url.startsWith(`${site.origin}/`)) return { ok: false, reason: "a page of another profile's site" };
          return r;
        },
      });
      outcomes.push(outcome);
      process.stderr.write(`article-quality: ${c.request.language}-${c.id} ${outcome.status} in ${outcome.seconds}s\n`);
    }
    const jobsSeconds = (Date.now() - jobsStarted) / 1000;
    // A balance that moves after a job settled (a late refund or charge) is that job's refund error.
    for (let i = 0; i < outcomes.length; i++) {
      outcomes[i].drift = (i + 1 < outcomes.length ? outcomes[i + 1].before : await settledBalanceAfter(platform, state)) - outcomes[i].after;
    }
    const agg = aggregate(outcomes);
    const timings = { platform_start_s: Number(bootSeconds.toFixed(1)), crawl, jobs_s: Number(jobsSeconds.toFixed(1)) };
    printReport(outcomes, agg, timings);
    const files = writeArticleFiles(outcomes, path.resolve(__dirname, `../../../bench/results/article-quality${model ? "-model" : ""}`));
    return {
      name: `article quality on Debian's reference manual (en, fr, de, es) crawled as brand profiles, embedded defaults (${model ? "the project's fake model" : "offline writer"})`,
      timings,
      aggregate: agg,
      jobs: outcomes.map(summaryOf),
      files,
    };
  } finally {
    await platform?.stop();
    for (const site of sites.values()) await site.close();
    await model?.close();
  }
}

async function settledBalanceAfter(platform: PlatformProcess, state: BenchState): Promise<number> {
  await new Promise((r) => setTimeout(r, 2000));
  return balanceOf(client(platform.url, state.key));
}

/** A job's numbers for the JSON result (the article itself goes to its markdown file). */
function summaryOf(o: JobOutcome): Record<string, unknown> {
  const k = o.checks;
  return {
    case: `${o.case.request.language}-${o.case.id}`,
    profile: o.case.profile,
    request: o.case.request,
    expect: o.case.expect,
    status: o.status,
    error: o.error,
    credits_charged: o.credits_charged,
    price_expected: o.price,
    balance_before: o.before,
    balance_after: o.after,
    balance_drift: o.drift,
    refund_ok: o.refundOk,
    seconds: o.seconds,
    stage_seconds: o.stage_seconds,
    quality_score: o.article?.quality_score ?? null,
    quality_breakdown: o.article?.quality_breakdown ?? null,
    verdict: o.verdict,
    failed_targets: o.failedTargets,
    ...(k
      ? {
          on_topic: { share: round(k.onTopic.share), vocabulary_share: round(k.onTopic.vocabularyShare), labelled: k.onTopic.labelled, overruled: k.onTopic.overruled, sentences: k.onTopic.sentences, vocabulary: k.onTopic.vocabulary, worst: k.onTopic.worst, off: k.onTopic.off },
          support: { share: round(k.support.share), citations: k.support.citations, supported: k.support.supported, fabricated: k.support.fabricated, unsupported: k.support.unsupported.slice(0, 3), quotes: { present: k.support.quotes.present, found_on_page: k.support.quotes.foundOnPage } },
          fabricated_addresses: k.fabricated,
          language: Object.fromEntries(Object.entries(k.language).map(([f, v]) => [f, { share: round(v.share), items: v.items, undetermined: v.undetermined, wrong: v.wrong }])),
          language_min: round(k.languageMin),
          form_problems: k.form,
          words: k.words,
        }
      : {}),
  };
}

const round = (n: number) => Number(n.toFixed(3));
