import { createOrgWithKey } from "../test/support/admin";
import { ADMIN_TOKEN } from "../test/support/cluster";
import { articleModelResponder, startFakeOpenAI, type FakeOpenAI, type LoggedRequest } from "../test/support/fake-openai";
import { pageAsMarkdown, ROUTE_PLANNING_PAGES, startFakeSearxng } from "../test/support/fake-searxng";
import { client } from "../test/support/http";
import { waitForJob } from "../test/support/jobs";
import { spawnPlatform, tempDir } from "../test/support/platform";
import { numberOption } from "./options";

const MODEL_DELAY_MS = 100;
const OVERHEAD_RUNS = numberOption("BENCH_ARTICLE_RUNS", 5);
const CONCURRENT_JOBS = 20;
const ARTICLE = { topic: "Route planning for field service teams", target_keyword: "route planning", target_words: 1600 };

interface StageTiming {
  key: string;
  ms: number;
  model_calls: number;
}

type Job = { status: string; error: string | null; created_at: string; finished_at: string; result: { word_count: number }; stages: { key: string; startedAt: string; endedAt: string; meta?: Record<string, unknown> }[] };

function stageTimings(job: Job): StageTiming[] {
  return job.stages.map((s) => ({
    key: s.key,
    ms: Date.parse(s.endedAt) - Date.parse(s.startedAt),
    model_calls: Number(s.meta?.model_calls ?? 0),
  }));
}

/** How long at least one of `calls` was in flight (the union of their arrival-to-answer intervals). */
function inFlightMs(calls: readonly LoggedRequest[]): number {
  const spans = calls.map((c) => [c.receivedAt, c.answeredAt ?? c.receivedAt] as const).sort((x, y) => x[0] - y[0]);
  let total = 0;
  let [start, end] = [-Infinity, -Infinity];
  for (const [s, e] of spans) {
    if (s > end) {
      if (end > start) total += end - start;
      [start, end] = [s, e];
    } else end = Math.max(end, e);
  }
  return end > start ? total + (end - start) : total;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

/**
 * One platform (single process, embedded database) with the fake model, a brand knowledge base of the twelve
 * guides (pasted texts, ingested first), and optionally web search on a local SearxNG: the overhead of
 * sequential jobs, then 20 jobs at once.
 */
async function measure(model: FakeOpenAI, search: { url: string } | undefined): Promise<Record<string, unknown>> {
  const platform = await spawnPlatform({
    env: {
      ADMIN_TOKEN,
      DATA_DIR: tempDir("bench-article"),
      EMBEDDED_MONGO_IN_MEMORY: "true",
      LOG_LEVEL: "warn",
      JOB_POLL_MS: "100",
      PIPELINE_CONCURRENCY: String(CONCURRENT_JOBS),
      LLM_BASE_URL: model.baseURL,
      LLM_MODEL: "bench-model",
      LLM_MAX_RETRIES: "0",
      // The fake answers any number of calls at once: no cap, so the time calls are in flight is the model's, not a wait for a slot.
      LLM_CONCURRENCY: "1000",
      ...(search ? { SEARCH_PROVIDER: "searxng", SEARXNG_URL: search.url } : {}),
    },
  });
  try {
    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 10_000, rate_limit_rpm: 100_000 });
    const api = client(platform.url, key);
    const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Field Ops Guides", ingest_website: false } });
    const sources = await Promise.all(
      ROUTE_PLANNING_PAGES.map((page) => api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "text", title: page.title, content: pageAsMarkdown(page) } })),
    );
    for (const source of sources) await waitForJob(platform.url, key, source.body.ingest_job_id, { timeoutMs: 120_000 });

    const run = async (): Promise<Job> => {
      const created = await api("/v1/articles", { method: "POST", body: { ...ARTICLE, brand_profile_id: profile.body.id } });
      if (created.status !== 202) throw new Error(`POST /v1/articles: ${created.status} ${created.text}`);
      const job = (await waitForJob(platform.url, key, created.body.id, { timeoutMs: 120_000 })) as Job;
      if (job.status !== "succeeded") throw new Error(`article job ${job.status}: ${job.error}`);
      return job;
    };

    // A warm-up job (JIT, connection pools, the retrieval index), then sequential jobs for the overhead.
    await run();
    const runs: { total: number; modelMs: number; calls: number; overhead: number; stages: StageTiming[]; words: number }[] = [];
    for (let i = 0; i < OVERHEAD_RUNS; i++) {
      const from = model.requests.length;
      const job = await run();
      const stages = stageTimings(job);
      // Stages run side by side and a stage's calls overlap: the job's wall time (first start to last end) against
      // the time at least one of its model calls was in flight, from the model server's own log.
      const total = Math.max(...job.stages.map((s) => Date.parse(s.endedAt))) - Math.min(...job.stages.map((s) => Date.parse(s.startedAt)));
      const calls = model.requests.slice(from).filter((r) => r.path === "/v1/chat/completions");
      const modelMs = inFlightMs(calls);
      runs.push({ total, modelMs, calls: calls.length, overhead: (total - modelMs) / modelMs, stages, words: job.result.word_count });
    }
    const typical = runs.find((r) => r.overhead === median(runs.map((x) => x.overhead)))!;

    const started = Date.now();
    const jobs = await Promise.all(Array.from({ length: CONCURRENT_JOBS }, run));
    const elapsedMs = Date.now() - started;
    return {
      overhead: {
        runs: OVERHEAD_RUNS,
        median_fraction: round(typical.overhead),
        min_fraction: round(Math.min(...runs.map((r) => r.overhead))),
        max_fraction: round(Math.max(...runs.map((r) => r.overhead))),
        job_wall_ms: typical.total,
        model_in_flight_ms: typical.modelMs,
        model_calls: typical.calls,
        word_count: typical.words,
        per_stage: typical.stages.map((s) => ({ stage: s.key, ms: s.ms, model_calls: s.model_calls })),
      },
      throughput: {
        concurrent_jobs: CONCURRENT_JOBS,
        elapsed_ms: elapsedMs,
        jobs_per_minute: round((jobs.length / elapsedMs) * 60_000, 1),
        median_job_ms: median(jobs.map((j) => Date.parse(j.finished_at) - Date.parse(j.created_at))),
      },
    };
  } finally {
    await platform.stop();
  }
}

/**
 * The article pipeline with a model that answers after a fixed 100 ms (the fake OpenAI-compatible server):
 * (1) the pipeline's own overhead for a 1600-word article, (the job's wall time − the time at least one of its
 * model calls was in flight) / that model time, from the stage timestamps and the model server's log (stages run
 * side by side and a draft's calls overlap, so per-stage sums would count the model twice); (2) jobs per
 * minute with 20 jobs in flight. Measured with the knowledge base alone, then with web research added
 * (page fetching and extraction are work the pipeline does, so they count as overhead there).
 */
export async function benchArticlePipeline(): Promise<Record<string, unknown>> {
  const model = await startFakeOpenAI({ chat: articleModelResponder(), delayMs: MODEL_DELAY_MS });
  const search = await startFakeSearxng();
  try {
    return {
      name: "article pipeline: 1600-word article, model answering after 100 ms",
      model_delay_ms: MODEL_DELAY_MS,
      knowledge_base: await measure(model, undefined),
      knowledge_base_and_web: await measure(model, search),
    };
  } finally {
    await model.close();
    await search.close();
  }
}
