import { MongoClient, type Db } from "mongodb";
import pino from "pino";
import { startEmbeddedMongo, type EmbeddedMongo } from "../../shared/embedded-mongo";
import type { Clock } from "../../shared/clock";
import type { StageCallParams, StageOutcome } from "../../shared/schemas/jobs";
import { completeFinalization } from "../../services/pipeline/engine/finish";
import { createJob, getJob, jobs, requestCancel } from "../../services/pipeline/engine/jobs";
import { claimNextJob, fencedUpdate, LostLeaseError } from "../../services/pipeline/engine/claim";
import { OUTBOX, PIPELINE_COLLECTIONS } from "../../services/pipeline/engine/store";
import { JobRunner, type RunnerDeps } from "../../services/pipeline/engine/run";
import { recordProgress } from "../../services/pipeline/engine/progress";
import { readyStages } from "../../services/pipeline/engine/schedule";
import { waitFor } from "../support/wait";

const ORG = "5f2b6a4e-1111-4111-8111-111111111111";
const clock: Clock = { now: () => new Date() };
const silent = pino({ level: "silent" });
let seq = 0;
const jobId = () => `00000000-0000-4000-8000-${String(++seq).padStart(12, "0")}`;

describe("job engine", () => {
  let server: EmbeddedMongo;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    server = await startEmbeddedMongo({});
    client = await MongoClient.connect(server.url);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });
  beforeEach(async () => {
    db = client.db(`pipeline_test_${++seq}`);
    for (const spec of PIPELINE_COLLECTIONS) await db.collection(spec.name).createIndexes(spec.indexes);
  });

  const queue = (credits = 0) => createJob(db, { job_id: jobId(), org_id: ORG, type: "ingest_source", input: {}, credits_charged: credits }, clock);

  it("creating the same job id twice queues it once", async () => {
    const first = await queue();
    const again = await createJob(db, { job_id: first._id, org_id: ORG, type: "ingest_source", input: {}, credits_charged: 0 }, clock);
    expect(again._id).toBe(first._id);
    expect(await jobs(db).countDocuments({})).toBe(1);
  });

  it("hands each job to exactly one of many concurrent claimers", async () => {
    const queued = await Promise.all(Array.from({ length: 10 }, () => queue()));
    const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => claimNextJob(db, `w${i}`, 30_000, clock)));
    const claimed = claims.filter(Boolean).map((j) => j!._id);
    expect(claimed).toHaveLength(10);
    expect(new Set(claimed)).toEqual(new Set(queued.map((j) => j._id)));
  });

  it("fences writes: a worker whose lease expired and was reclaimed cannot write", async () => {
    await queue();
    // A lease of 0 ms has expired by the time anyone else looks (leases are free once expires_at <= now).
    const first = await claimNextJob(db, "a", 0, clock);
    const second = await claimNextJob(db, "b", 30_000, clock);
    expect(second!._id).toBe(first!._id);
    expect(second!.fence).toBe(first!.fence + 1);
    await expect(fencedUpdate(db, first!._id, first!.fence, { $set: { stage: "stale" } })).rejects.toBeInstanceOf(LostLeaseError);
    await fencedUpdate(db, second!._id, second!.fence, { $set: { stage: "fresh" } });
    expect((await getJob(db, ORG, first!._id)).stage).toBe("fresh");
  });

  it("progress is recorded under the fence while its stage runs, never over a done stage's meta, and never once the job has ended (a final job is immutable)", async () => {
    await queue();
    const claimed = (await claimNextJob(db, "a", 30_000, clock))!;
    await fencedUpdate(db, claimed._id, claimed.fence, { $set: { "stages.0.status": "running", "stages.1.status": "done", "stages.1.meta": { pages: 3 } } });
    const report = (step: number, stage_index = 0) => recordProgress(db, { job_id: claimed._id, fence: claimed.fence, stage_index, meta: { step } }, clock);
    expect(await report(1)).toBe(true);
    expect((await getJob(db, ORG, claimed._id)).stages[0].meta).toEqual({ step: 1 });
    // A report that arrives after its stage recorded its outcome leaves the stage's final meta alone.
    expect(await report(9, 1)).toBe(false);
    expect((await getJob(db, ORG, claimed._id)).stages[1].meta).toEqual({ pages: 3 });
    // The run ends the job (a stage timeout fails it) while its handler keeps running and reporting.
    await fencedUpdate(db, claimed._id, claimed.fence, { $set: { status: "failed", error: "Crawl failed: timed out", finished_at: new Date(), lease: null } });
    const ended = await getJob(db, ORG, claimed._id);
    expect(await report(2)).toBe(false);
    expect(await getJob(db, ORG, claimed._id)).toEqual(ended);
  });

  const runnerWith = (callStage: RunnerDeps["callStage"], opts: Partial<{ leaseMs: number; maxAttempts: number }> = {}) => {
    const refunds: string[] = [];
    const notified: string[] = [];
    const runner = new JobRunner(
      { owner: "test", concurrency: 1, leaseMs: opts.leaseMs ?? 5000, maxAttempts: opts.maxAttempts ?? 3, pollMs: 20, stageTimeoutMs: 5000 },
      {
        db: () => db,
        callStage,
        callAction: async <T,>() => ({}) as T,
        finalization: {
          refund: async (_org, ref) => void refunds.push(ref),
          notify: async (_action, job) => void notified.push(job._id),
        },
        clock,
        log: silent,
      },
    );
    return { runner, refunds, notified };
  };

  it("runs stages in order, merges their state, and ends succeeded with an event and onFinish", async () => {
    const job = await queue();
    const seen: string[] = [];
    const { runner, notified } = runnerWith(async (_action, call: StageCallParams): Promise<StageOutcome> => {
      seen.push(`${call.stage}:${Object.keys(call.state).join(",")}`);
      return { state: { [call.stage]: true }, meta: { n: call.stage_index }, ...(call.stage === "refresh" ? { result: { pages: 1, chunks: 2 } } : {}) };
    });
    runner.start();
    const done = await waitFor(async () => {
      const j = await getJob(db, ORG, job._id);
      return j.status === "succeeded" && j.finalize?.event === "done" ? j : undefined;
    }, "job to succeed");
    await runner.stop();
    expect(seen[0]).toBe("crawl:");
    expect(seen[2]).toBe("chunk:crawl,extract");
    expect(done.stages.every((s) => s.status === "done")).toBe(true);
    expect(done.stages[3].meta).toEqual({ n: 3 });
    expect(done.result).toEqual({ pages: 1, chunks: 2 });
    expect(notified).toEqual([job._id]);
    const events = await db.collection(OUTBOX).find({}).toArray();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "job.succeeded", job_id: job._id, pending: true });
    expect(events[0].payload).not.toHaveProperty("stages");
  });

  it("a failing stage fails the job with its reason, refunds once and writes job.failed", async () => {
    const job = await queue(25);
    const { runner, refunds } = runnerWith(async (_a, call) => {
      if (call.stage === "extract") throw new Error("no readable text");
      return {};
    });
    runner.start();
    const failed = await waitFor(async () => {
      const j = await getJob(db, ORG, job._id);
      return j.finalize?.event === "done" ? j : undefined;
    }, "job to fail");
    await runner.stop();
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe("Extracting readable text failed: no readable text");
    expect(failed.stages.map((s) => s.status)).toEqual(["done", "error", "pending", "pending", "pending", "pending", "pending"]);
    expect(refunds).toEqual([job._id]);
    await completeFinalization(db, failed, { refund: async () => refunds.push("again"), notify: async () => undefined }, clock);
    expect(refunds).toEqual([job._id]);
    expect(await db.collection(OUTBOX).countDocuments({ kind: "job.failed" })).toBe(1);
  });

  it("resumes a job whose worker died at the stage that was running, never going backwards", async () => {
    const job = await queue();
    // A worker claimed it, finished crawl and died in extract.
    const dead = await claimNextJob(db, "dead", 0, clock);
    await fencedUpdate(db, job._id, dead!.fence, {
      $set: { "stages.0.status": "done", "stages.1.status": "running", stage: "extract", "state.crawl": true },
    });
    const calls: string[] = [];
    const { runner } = runnerWith(async (_a, call) => {
      calls.push(call.stage);
      return {};
    });
    runner.start();
    const done = await waitFor(async () => {
      const j = await getJob(db, ORG, job._id);
      return j.status === "succeeded" ? j : undefined;
    }, "resumed job");
    await runner.stop();
    expect(calls[0]).toBe("extract");
    expect(calls).not.toContain("crawl");
    expect(done.attempts).toBe(2);
  });

  it("fails a job that keeps losing its worker after the attempt bound, with a clear error", async () => {
    const job = await queue(10);
    await jobs(db).updateOne({ _id: job._id }, { $set: { attempts: 3, stage: "embed", status: "processing" } });
    const { runner, refunds } = runnerWith(async () => ({}), { maxAttempts: 3 });
    runner.start();
    const failed = await waitFor(async () => {
      const j = await getJob(db, ORG, job._id);
      return j.status === "failed" ? j : undefined;
    }, "abandoned job to fail");
    await runner.stop();
    expect(failed.error).toBe('The job was abandoned 3 times during stage "embed" (worker crashed or timed out); giving up.');
    await waitFor(() => (refunds.length ? true : undefined), "refund");
  });

  it("cancels a queued job at once and refunds it; a finished job answers 400", async () => {
    const job = await queue(13);
    const { job: canceled, canceledNow } = await requestCancel(db, ORG, job._id, clock);
    expect(canceledNow).toBe(true);
    expect(canceled.status).toBe("canceled");
    expect(canceled.finalize).toEqual({ refund: "pending", notify: "pending", event: "none" });
    await expect(requestCancel(db, ORG, job._id, clock)).rejects.toMatchObject({ type: "invalid_request" });
    await expect(requestCancel(db, "5f2b6a4e-2222-4222-8222-222222222222", job._id, clock)).rejects.toMatchObject({ type: "not_found" });
  });

  it("waits for an unreachable stage handler without using up attempts", async () => {
    const job = await queue();
    let calls = 0;
    const { runner } = runnerWith(async () => {
      calls++;
      if (calls <= 2) throw Object.assign(new Error("Service 'brand-knowledge.runIngestStage' is not found."), { name: "ServiceNotFoundError" });
      return {};
    });
    runner.start();
    const done = await waitFor(async () => {
      const j = await getJob(db, ORG, job._id);
      return j.status === "succeeded" ? j : undefined;
    }, "job after the handler came back", 15000);
    await runner.stop();
    expect(done.attempts).toBe(1);
    expect(done.unreachable_retries).toBe(2);
  });

  describe("stages that declare what they need (an article's graph)", () => {
    const ARTICLE_STAGES = ["recon", "plan", "research", "draft", "edit", "seo", "score", "image", "derivatives"];
    const queueArticle = (credits = 0, stages = ARTICLE_STAGES) =>
      createJob(db, { job_id: jobId(), org_id: ORG, type: "article", input: {}, credits_charged: credits, stages }, clock);
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

    it("readyStages: what is ready given what is done; an optional stage not queued holds nothing up", () => {
      const at = (done: string[], keys = ARTICLE_STAGES) => keys.map((key) => ({ key, status: done.includes(key) ? "done" : "pending" }));
      const ready = (done: string[], keys?: string[]) => readyStages("article", at(done, keys), new Set()).map((i) => (keys ?? ARTICLE_STAGES)[i]);
      expect(ready([])).toEqual(["recon"]);
      expect(ready(["recon", "plan", "research"])).toEqual(["draft", "seo"]);
      expect(ready(["recon", "plan", "research", "seo"])).toEqual(["draft", "image"]);
      expect(ready(["recon", "plan", "research", "draft", "seo"])).toEqual(["edit", "image"]);
      expect(ready(["recon", "plan", "research", "draft", "seo", "edit"])).toEqual(["score", "image"]);
      expect(ready(["recon", "plan", "research", "draft", "seo", "edit", "score"], ARTICLE_STAGES.slice(0, 7))).toEqual([]);
      // Ingest stages declare nothing: each waits for the one before it.
      expect(readyStages("ingest_source", [{ key: "crawl", status: "done" }, { key: "extract", status: "pending" }, { key: "chunk", status: "pending" }], new Set())).toEqual([1]);
    });

    it("runs ready stages side by side: seo beside the draft, the cover beside the edit; the job names the latest to start", async () => {
      const job = await queueArticle();
      const log: string[] = [];
      const stagesSeen: (string | null)[] = [];
      const { runner } = runnerWith(async (_a, call) => {
        log.push(`start ${call.stage}`);
        stagesSeen.push((await getJob(db, ORG, job._id)).stage);
        await pause(call.stage === "draft" || call.stage === "edit" ? 150 : 20);
        log.push(`end ${call.stage}`);
        return { state: { [call.stage]: true } };
      });
      runner.start();
      const done = await waitFor(async () => {
        const j = await getJob(db, ORG, job._id);
        return j.status === "succeeded" ? j : undefined;
      }, "article job to succeed");
      await runner.stop();
      const at = (entry: string) => log.indexOf(entry);
      expect(at("start seo")).toBeLessThan(at("end draft"));
      expect(at("start image")).toBeLessThan(at("end edit"));
      expect(at("start edit")).toBeGreaterThan(at("end draft"));
      expect(at("start score")).toBeGreaterThan(Math.max(at("end edit"), at("end seo")));
      expect(at("start derivatives")).toBeGreaterThan(at("end score"));
      expect(done.stages.every((s) => s.status === "done")).toBe(true);
      expect(Object.keys(done.state).sort()).toEqual([...ARTICLE_STAGES].sort());
      expect(stagesSeen).toContain("seo");
    });

    /** An article job run until its end is finalized, its stages answered by `callStage`: the job and the refunds made. */
    const runToFailure = async (callStage: RunnerDeps["callStage"]) => {
      const job = await queueArticle(40);
      const { runner, refunds } = runnerWith(callStage);
      runner.start();
      const failed = await waitFor(async () => {
        const j = await getJob(db, ORG, job._id);
        return j.finalize?.event === "done" ? j : undefined;
      }, "job to fail");
      await runner.stop();
      return { job, failed, refunds, status: Object.fromEntries(failed.stages.map((s) => [s.key, s.status])) };
    };

    it("a stage that fails while another runs: the other settles first, the job fails once and is refunded once", async () => {
      const { job, failed, refunds, status } = await runToFailure(async (_a, call) => {
        if (call.stage === "seo") throw new Error("the model answered 500");
        if (call.stage === "draft") await pause(150);
        return { state: { [call.stage]: true } };
      });
      expect(failed.status).toBe("failed");
      expect(failed.error).toBe("Optimizing for search failed: the model answered 500");
      expect(status).toMatchObject({ draft: "done", seo: "error", edit: "pending", score: "pending" });
      expect(refunds).toEqual([job._id]);
      expect(await db.collection(OUTBOX).countDocuments({ kind: "job.failed" })).toBe(1);
    });

    it("two stages failing side by side both show their error; the job fails once with the first", async () => {
      const { job, failed, refunds, status } = await runToFailure(async (_a, call) => {
        if (call.stage === "seo") throw new Error("the model answered 500");
        if (call.stage === "draft") {
          await pause(100);
          throw new Error("the model wrote German twice");
        }
        return { state: { [call.stage]: true } };
      });
      expect(failed.status).toBe("failed");
      expect(failed.error).toBe("Optimizing for search failed: the model answered 500");
      expect(status).toMatchObject({ draft: "error", seo: "error", edit: "pending" });
      expect(refunds).toEqual([job._id]);
      expect(await db.collection(OUTBOX).countDocuments({ kind: "job.failed" })).toBe(1);
    });
  });
});
