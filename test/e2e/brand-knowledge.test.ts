import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { FIXTURE_EXPECTATIONS, startFixtureSite, type FixtureSite } from "../support/fixture-site";
import { client } from "../support/http";
import { waitForJob } from "../support/jobs";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { freePort } from "../support/ports";

/** Brand profiles, sources and ingest jobs over HTTP, on the platform as `npm start` runs it. */
describe("brand profiles and sources over HTTP", () => {
  let platform: PlatformProcess;
  let site: FixtureSite;
  let api: ReturnType<typeof client>;
  let key: string;

  beforeAll(async () => {
    site = await startFixtureSite();
    platform = await spawnPlatform({
      env: { ADMIN_TOKEN, DATA_DIR: tempDir("e2e-brand"), EMBEDDED_MONGO_IN_MEMORY: "true", CRAWL_PAGE_TIMEOUT_MS: "1500", JOB_POLL_MS: "200" },
    });
    key = (await createOrgWithKey(platform.url, ADMIN_TOKEN)).key;
    api = client(platform.url, key);
  });
  afterAll(async () => {
    await platform?.stop();
    await site?.close();
  });

  const newProfile = async (name = "Acme") => (await api("/v1/brand-profiles", { method: "POST", body: { name } })).body.id as string;

  it("validates profiles and names every problem", async () => {
    const empty = await api("/v1/brand-profiles", { method: "POST", body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe("name: is required");
    const bad = await api("/v1/brand-profiles", {
      method: "POST",
      body: { name: "x".repeat(201), website_url: "ftp://example.com", description: "d".repeat(2001), ingest_website: "yes", color: "red" },
    });
    expect(bad.status).toBe(400);
    const problems = bad.body.error.message.split("; ");
    for (const field of ["name", "website_url", "description", "ingest_website", "color"]) {
      expect(problems.some((p: string) => p.startsWith(`${field}: `))).toBe(true);
    }
    const privateSite = await api("/v1/brand-profiles", { method: "POST", body: { name: "Inside", website_url: "http://10.1.2.3/" } });
    expect(privateSite.status).toBe(400);
    expect(privateSite.body.error.message).toMatch(/^website_url: /);
    expect((await api("/v1/brand-profiles")).body.data.map((p: any) => p.name)).not.toContain("Inside");
  });

  it("validates sources, with conditionally required fields named", async () => {
    const id = await newProfile();
    const cases: [object, string][] = [
      [{ type: "website" }, "url: is required for website sources"],
      [{ type: "url", content: "x" }, "url: is required for url sources"],
      [{ type: "text" }, "content: is required for text sources"],
      [{ type: "writing_sample", content: "   " }, "content: is required for writing_sample sources"],
      // A text source may say where its text came from (cited as its address); a writing sample is never cited.
      [{ type: "writing_sample", content: "x", url: "https://example.com" }, "url: is not accepted for writing_sample sources"],
      [{ type: "pdf", url: "https://example.com" }, "type: must be one of website, url, text, writing_sample"],
      [{ type: "text", content: "x".repeat(200_001) }, "content: must be at most 200000 characters"],
    ];
    for (const [body, message] of cases) {
      const r = await api(`/v1/brand-profiles/${id}/sources`, { method: "POST", body });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain(message);
    }
    expect((await api(`/v1/brand-profiles/${id}/sources`)).body.data).toEqual([]);
    const missing = await api(`/v1/brand-profiles/5f2b6a4e-1111-4111-8111-111111111111/sources`, { method: "POST", body: { type: "text", content: "hello" } });
    expect(missing.status).toBe(404);
  });

  it("a source that cannot be fetched fails its job with the reason, and the source says so", async () => {
    const id = await newProfile("Unreachable");
    const closed = await freePort();
    const ack = await api(`/v1/brand-profiles/${id}/sources`, { method: "POST", body: { type: "url", url: `http://127.0.0.1:${closed}/about` } });
    expect(ack.status).toBe(202);
    expect(ack.body).toEqual({ id: expect.any(String), object: "kb_source", status: "pending", ingest_job_id: expect.any(String) });
    const job = await waitForJob(platform.url, key, ack.body.ingest_job_id);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^Fetching pages failed: No page could be fetched/);
    expect(job.credits_charged).toBe(0);
    expect(job.stages[0]).toMatchObject({ key: "crawl", status: "error" });
    expect(job.stages.slice(1).every((s: any) => s.status === "pending")).toBe(true);
    const [source] = (await api(`/v1/brand-profiles/${id}/sources`)).body.data;
    expect(source).toMatchObject({ status: "failed", error: job.error, chunks: 0 });
    expect((await api(`/v1/brand-profiles/${id}`)).body).toMatchObject({ voice_status: "none", chunks: 0 });
  });

  it("shows stage progress while a crawl runs, and re-ingesting a source replaces its chunks", async () => {
    const id = await newProfile("Kestrel");
    const first = await api(`/v1/brand-profiles/${id}/sources`, { method: "POST", body: { type: "website", url: `${site.url}/` } });
    const running = await waitForJob(platform.url, key, first.body.ingest_job_id, {
      until: (j) => j.status === "processing" && j.stage === "crawl" && (j.stages[0].meta?.fetched ?? 0) > 0,
      timeoutMs: 20000,
    });
    expect(running.stages[0]).toMatchObject({ status: "running", startedAt: expect.any(String) });
    const done = await waitForJob(platform.url, key, first.body.ingest_job_id);
    expect(done.status).toBe("succeeded");
    expect(done.result.pages).toBe(FIXTURE_EXPECTATIONS.keptPaths.length);

    const again = await api(`/v1/brand-profiles/${id}/sources`, { method: "POST", body: { type: "website", url: `${site.url}/` } });
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.ingest_job_id).not.toBe(first.body.ingest_job_id);
    const redone = await waitForJob(platform.url, key, again.body.ingest_job_id);
    expect(redone.status).toBe("succeeded");
    const sources = (await api(`/v1/brand-profiles/${id}/sources`)).body.data;
    expect(sources).toHaveLength(1);
    expect(sources[0]).toMatchObject({ status: "ready", chunks: redone.result.chunks, ingest_job_id: again.body.ingest_job_id });
    expect((await api(`/v1/brand-profiles/${id}`)).body.chunks).toBe(redone.result.chunks);
  });

  it("cancels a running ingest at its next stage boundary; a finished job cannot be canceled", async () => {
    const id = await newProfile("To cancel");
    const ack = await api(`/v1/brand-profiles/${id}/sources`, { method: "POST", body: { type: "website", url: `${site.url}/` } });
    await waitForJob(platform.url, key, ack.body.ingest_job_id, { until: (j) => j.status === "processing", timeoutMs: 20000 });
    const cancel = await api(`/v1/jobs/${ack.body.ingest_job_id}/cancel`, { method: "POST" });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ object: "job", id: ack.body.ingest_job_id });
    const job = await waitForJob(platform.url, key, ack.body.ingest_job_id);
    expect(job.status).toBe("canceled");
    expect(job.finished_at).toEqual(expect.any(String));
    const [source] = (await api(`/v1/brand-profiles/${id}/sources`)).body.data;
    expect(source).toMatchObject({ status: "failed", error: "Ingestion was canceled.", chunks: 0 });

    const again = await api(`/v1/jobs/${ack.body.ingest_job_id}/cancel`, { method: "POST" });
    expect(again.status).toBe(400);
    expect(again.body.error.message).toContain("already finished (canceled)");
    expect((await api(`/v1/jobs/${ack.body.ingest_job_id}/cancel`, { method: "POST", body: { now: true } })).status).toBe(400);
  });

  it("lists profiles newest first with counts, and pages with starting_after", async () => {
    const names = ["Page A", "Page B", "Page C"];
    for (const name of names) await newProfile(name);
    const first = await api("/v1/brand-profiles?limit=2");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: "list", has_more: true });
    expect(first.body.data.map((p: any) => p.name)).toEqual(["Page C", "Page B"]);
    expect(first.body.data[0]).toEqual({
      id: expect.any(String),
      object: "brand_profile",
      name: "Page C",
      website_url: null,
      description: null,
      voice_status: "none",
      sources: 0,
      chunks: 0,
      created_at: expect.any(String),
    });
    const second = await api(`/v1/brand-profiles?limit=2&starting_after=${first.body.data[1].id}`);
    expect(second.body.data[0].name).toBe("Page A");
    expect((await api("/v1/brand-profiles?limit=0")).status).toBe(400);
    expect((await api("/v1/brand-profiles?starting_after=nope")).status).toBe(400);
  });
});
