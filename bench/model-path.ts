import fs from "node:fs";
import path from "node:path";
import { createOrgWithKey } from "../test/support/admin";
import { ADMIN_TOKEN } from "../test/support/cluster";
import { articleModelResponder, startFakeOpenAI, type FakeOpenAI, type LoggedRequest } from "../test/support/fake-openai";
import { pageAsMarkdown, ROUTE_PLANNING_PAGES } from "../test/support/fake-searxng";
import { client } from "../test/support/http";
import { waitForJob } from "../test/support/jobs";
import { spawnPlatform, tempDir } from "../test/support/platform";
import { numberOption } from "./options";

/** Every model answer (chat and images) is sent after this long: wall time ÷ latency is the round trips on the critical path. */
const LATENCY_MS = numberOption("BENCH_MODEL_LATENCY_MS", 1000);
/** Knowledge-base pages pasted as text sources (the measure used two). */
const PAGES = numberOption("BENCH_MODEL_PATH_PAGES", 2);
const AT_ONCE = 5;
const RESULTS = path.resolve(__dirname, "../../bench/results");

const REQUESTS = {
  standard: { topic: "Route planning for field service teams", target_keyword: "route planning", target_words: 1600, mode: "standard" },
  deep_research: {
    topic: "Route planning for field service teams",
    target_keyword: "route planning",
    target_words: 3000,
    mode: "deep_research",
    image: true,
    derivatives: ["x_thread", "linkedin", "newsletter"],
  },
} as const;

type Job = {
  id: string;
  status: string;
  error: string | null;
  created_at: string;
  finished_at: string;
  stages: { key: string; startedAt?: string; endedAt?: string; meta?: Record<string, unknown> }[];
};

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const pick = (meta: Record<string, unknown> | undefined, keys: string[]) => Object.fromEntries(keys.filter((k) => meta?.[k] !== undefined).map((k) => [k, meta![k]]));

/** The most model requests in flight at once among `calls` (from arrival and answer times). */
function peakConcurrency(calls: readonly LoggedRequest[]): number {
  const edges = calls.flatMap((c) => [
    { at: c.receivedAt, d: 1 },
    { at: c.answeredAt ?? c.receivedAt, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let peak = 0;
  for (const e of edges) peak = Math.max(peak, (now += e.d));
  return peak;
}

/** The words of the delivered body, as the score stage counted them. */
const bodyWords = (job: Job) => Number(job.stages.find((s) => s.key === "score")?.meta?.body_words ?? 0);

/**
 * The model path measured as a customer waits for it: one platform process (embedded database, NATS) whose chat
 * and images model is the project's fake (`articleModelResponder`) answering every call after `LATENCY_MS`, and a
 * brand profile of `PAGES` pasted pages. For a standard and a deep_research request: round trips on the critical
 * path (the job's wall time ÷ the latency), model calls, the peak of calls in flight, tokens per delivered body
 * word (prompt + completion as the server reported them), whether `GET /v1/usage` carries exactly those tokens,
 * and the same request submitted five times at once (wall time for all five).
 */
export async function benchModelPath(): Promise<Record<string, unknown>> {
  const model: FakeOpenAI = await startFakeOpenAI({ chat: articleModelResponder(), delayMs: LATENCY_MS });
  const platform = await spawnPlatform({
    env: {
      ADMIN_TOKEN,
      DATA_DIR: tempDir("bench-model-path"),
      EMBEDDED_MONGO_IN_MEMORY: "true",
      LOG_LEVEL: "warn",
      JOB_POLL_MS: "50",
      PIPELINE_CONCURRENCY: String(AT_ONCE),
      LLM_BASE_URL: model.baseURL,
      LLM_MODEL: "bench-model",
      IMAGES_BASE_URL: model.baseURL,
      IMAGES_MODEL: "bench-images",
      LLM_MAX_RETRIES: "0",
    },
  });
  try {
    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 100_000, rate_limit_rpm: 100_000 });
    const api = client(platform.url, key);
    const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Field Ops Guides", ingest_website: false } });
    for (const page of ROUTE_PLANNING_PAGES.slice(0, PAGES)) {
      const source = await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", title: page.title, content: pageAsMarkdown(page) } });
      await waitForJob(platform.url, key, source.body.ingest_job_id, { timeoutMs: 120_000 });
    }
    const usageTokens = async () => {
      const usage = await api("/v1/usage?days=1");
      return (usage.body.daily as { tokens_in: number; tokens_out: number }[]).reduce((n, d) => ({ in: n.in + d.tokens_in, out: n.out + d.tokens_out }), { in: 0, out: 0 });
    };
    const submit = async (body: Record<string, unknown>): Promise<Job> => {
      const created = await api("/v1/articles", { method: "POST", body: { ...body, brand_profile_id: profile.body.id } });
      if (created.status !== 202) throw new Error(`POST /v1/articles: ${created.status} ${created.text}`);
      const job = (await waitForJob(platform.url, key, created.body.id, { timeoutMs: 600_000 })) as Job;
      if (job.status !== "succeeded") throw new Error(`article job ${job.status}: ${job.error}`);
      return job;
    };
    /** `n` jobs of `body` at once: the model's requests during them, and the wall time from first submission to last end. */
    const measure = async (body: Record<string, unknown>, n: number) => {
      const from = model.requests.length;
      const before = await usageTokens();
      const started = Date.now();
      const jobs = await Promise.all(Array.from({ length: n }, () => submit(body)));
      const wallMs = Date.now() - started;
      const calls = model.requests.slice(from).filter((r) => r.path === "/v1/chat/completions" || r.path === "/v1/images/generations");
      const tokens = calls.reduce((t, c) => t + (c.usage ? c.usage.prompt_tokens + c.usage.completion_tokens : 0), 0);
      const after = await usageTokens();
      const words = jobs.reduce((t, j) => t + bodyWords(j), 0);
      // The article itself, to be read (bench/results/model-path-<mode>.md): a number is not a reading.
      if (n === 1) {
        const article = (await api(`/v1/articles/${(jobs[0] as Job & { result: { article_id: string } }).result.article_id}`)).body;
        fs.writeFileSync(path.join(RESULTS, `model-path-${body.mode}.md`), `# ${article.title}\n\n${article.content_markdown}\n`);
      }
      return {
        jobs: n,
        wall_ms: wallMs,
        round_trips: round(wallMs / LATENCY_MS, 1),
        calls: calls.length,
        chat_calls: calls.filter((c) => c.path === "/v1/chat/completions").length,
        peak_concurrency: peakConcurrency(calls),
        body_words: words,
        tokens,
        tokens_per_word: words ? round(tokens / words, 1) : null,
        usage_exact: after.in - before.in + (after.out - before.out) === tokens,
        stages: n === 1 ? jobs[0].stages.map((s) => ({ key: s.key, ms: s.startedAt && s.endedAt ? Date.parse(s.endedAt) - Date.parse(s.startedAt) : null, calls: s.meta?.model_calls ?? 0, ...pick(s.meta, ["empty_sections", "dropped_sections", "re_researched", "rewritten", "faq"]) })) : undefined,
      };
    };

    // A warm-up job with an instant model (JIT, connection pools, the retrieval index) before anything is timed.
    model.setDelay(0);
    await submit(REQUESTS.standard);
    model.setDelay(LATENCY_MS);

    const out: Record<string, unknown> = { name: "model path: article jobs with a fake model of fixed latency", latency_ms: LATENCY_MS, knowledge_base_pages: PAGES };
    for (const [name, body] of Object.entries(REQUESTS)) {
      out[name] = { one: await measure(body, 1), [`${AT_ONCE}_at_once`]: await measure(body, AT_ONCE) };
    }
    return out;
  } finally {
    await platform.stop();
    await model.close();
  }
}
