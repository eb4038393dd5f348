import { eventKinds, parseEventPayload, resolveSurface } from "../../shared/events/catalog";
import { COMPLETED_CALL } from "../support/sibling-events";
import { CreateEndpointParams, CreateWebhookBody } from "../../shared/schemas/webhooks";
import { parseOrThrow } from "../../shared/validation";

const articleJob = {
  id: "5f2b6a4e-1111-4111-8111-111111111111",
  type: "ingest_source",
  status: "succeeded",
  result: { pages: 1, chunks: 3 },
  error: null,
  credits_charged: 0,
  created_at: "2025-01-02T03:04:05.000Z",
  finished_at: "2025-01-02T03:04:06.000Z",
};

const recruitingRun = { ...articleJob, id: "run_123", type: "screen_batch", result: { screening_id: "scr_1", screened: 12 } };

const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message.split("; ");
  }
  throw new Error("expected a validation error");
};

describe("event catalog", () => {
  it("declares the article surface's two kinds and the siblings' own", () => {
    expect(eventKinds("articles")).toEqual(["job.succeeded", "job.failed"]);
    expect(eventKinds("recruiting")).toEqual(["job.succeeded", "job.failed", "application.received", "screening.completed"]);
    expect(eventKinds("voice")).toEqual(["call.started", "call.completed", "call.failed", "campaign.completed", "job.succeeded", "job.failed"]);
  });

  it("validates the article job payload, with status and error tied to the kind", () => {
    expect(parseEventPayload("articles", "job.succeeded", articleJob)).toEqual(articleJob);
    const failed = { ...articleJob, status: "failed", error: "Crawl failed: connection refused", result: {} };
    expect(parseEventPayload("articles", "job.failed", failed)).toEqual(failed);
    expect(problemsOf(() => parseEventPayload("articles", "job.failed", { ...failed, error: null }))).toEqual([expect.stringMatching(/^payload\.error: /)]);
    expect(problemsOf(() => parseEventPayload("articles", "job.succeeded", failed))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^payload\.status: /), expect.stringMatching(/^payload\.error: /)]),
    );
    expect(problemsOf(() => parseEventPayload("articles", "job.succeeded", { ...articleJob, stages: [] }))).toEqual(["payload.stages: unknown field"]);
    expect(problemsOf(() => parseEventPayload("articles", "job.succeeded", undefined))).toEqual(["payload: is required"]);
  });

  it("keeps same-named kinds of different surfaces apart", () => {
    expect(parseEventPayload("recruiting", "job.succeeded", recruitingRun)).toEqual(recruitingRun);
    expect(problemsOf(() => parseEventPayload("articles", "job.succeeded", recruitingRun))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^payload\.id: /), expect.stringMatching(/^payload\.type: /)]),
    );
    expect(problemsOf(() => parseEventPayload("recruiting", "job.succeeded", articleJob))).toEqual([expect.stringMatching(/^payload\.type: /)]);
    expect(problemsOf(() => parseEventPayload("recruiting", "job.succeeded", { ...recruitingRun, result: {} }))).toEqual([
      "payload.result.screening_id: is required for a screening run",
      "payload.result.screened: is required for a screening run",
    ]);
    expect(parseEventPayload("voice", "job.failed", { id: "aj_1", status: "failed", error: "model unavailable", output: null })).toMatchObject({ id: "aj_1" });
  });

  it("infers the surface of an unambiguous kind and asks for it otherwise", () => {
    expect(resolveSurface("call.completed")).toBe("voice");
    expect(resolveSurface("application.received")).toBe("recruiting");
    expect(resolveSurface("job.succeeded", "articles")).toBe("articles");
    expect(() => resolveSurface("job.succeeded")).toThrow("surface: is required for 'job.succeeded'");
    expect(() => resolveSurface("call.completed", "articles")).toThrow("kind: 'call.completed' is not an event kind of the articles surface");
    expect(() => resolveSurface("invoice.paid")).toThrow("kind: 'invoice.paid' is not an event kind");
  });

  it("validates the call object by the state its event describes", () => {
    expect(parseEventPayload("voice", "call.completed", COMPLETED_CALL)).toEqual(COMPLETED_CALL);
    const live = { ...COMPLETED_CALL, status: "in_progress", recording_url: null, transcript: null, outcome: null, ended_at: null };
    expect(parseEventPayload("voice", "call.started", live)).toEqual(live);
    expect(problemsOf(() => parseEventPayload("voice", "call.started", { ...live, transcript: COMPLETED_CALL.transcript }))).toEqual([
      "payload.transcript: must be null while the call is live",
    ]);
    expect(problemsOf(() => parseEventPayload("voice", "call.completed", { ...COMPLETED_CALL, status: "busy" }))).toEqual(["payload.status: must be completed"]);
    const failed = { ...COMPLETED_CALL, status: "no_answer", billed_sec: 0, error: { code: "no_answer", message: "Nobody picked up." } };
    expect(parseEventPayload("voice", "call.failed", failed)).toEqual(failed);
    expect(problemsOf(() => parseEventPayload("voice", "call.failed", { ...failed, error: null, billed_sec: 30 }))).toEqual([
      "payload.error: must explain why the call failed",
      "payload.billed_sec: must be 0: a failed call bills no voice minutes",
    ]);
    expect(problemsOf(() => parseEventPayload("voice", "call.completed", { ...COMPLETED_CALL, to: "020 7183 8750" }))).toEqual([
      "payload.to: must be an E.164 phone number",
    ]);
    expect(problemsOf(() => parseEventPayload("voice", "call.completed", { ...COMPLETED_CALL, transcript: { ...COMPLETED_CALL.transcript, segments: [{ speaker: "bot" }] } }))).toEqual(
      expect.arrayContaining([expect.stringMatching(/^payload\.transcript\.segments\.0\.speaker: /), "payload.transcript.segments.0.text: is required"]),
    );
  });

  it("validates the recruiting and campaign events", () => {
    const applied = { application_id: "app_1", job_post_id: "jp_1", candidate_id: "cand_1", source: "career_page" };
    expect(parseEventPayload("recruiting", "application.received", applied)).toEqual(applied);
    expect(problemsOf(() => parseEventPayload("recruiting", "screening.completed", { screening_id: "scr_1" }))).toEqual(["payload.job_post_id: is required"]);
    expect(parseEventPayload("voice", "campaign.completed", { campaign_id: "cmp_1", total: 10, completed: 8, failed: 2 })).toMatchObject({ total: 10 });
    expect(problemsOf(() => parseEventPayload("voice", "campaign.completed", { campaign_id: "cmp_1", total: -1, completed: 0, failed: 0.5 }))).toEqual([
      "payload.total: must be at least 0",
      "payload.failed: must be a whole number",
    ]);
  });
});

describe("webhook endpoint contracts", () => {
  const body = (input: unknown) => parseOrThrow(CreateWebhookBody, input);

  it("names every problem of a registration body", () => {
    expect(problemsOf(() => body({}))).toEqual(["url: is required"]);
    expect(problemsOf(() => body({ url: "ftp://example.com/hook" }))).toEqual(["url: must be an http(s) URL"]);
    expect(problemsOf(() => body({ url: "not a url" }))).toEqual(["url: must be an http(s) URL"]);
    expect(problemsOf(() => body({ url: "https://example.com/hook", events: [] }))).toEqual(["events: must not be empty"]);
    expect(problemsOf(() => body({ url: "https://example.com/hook", events: "job.failed" }))).toEqual(["events: must be an array of event kinds"]);
    expect(problemsOf(() => body({ url: "https://example.com/hook", events: ["job.failed", "job.started", "call.completed"] }))).toEqual([
      "events.1: 'job.started' is not an event kind (expected one of job.succeeded, job.failed)",
      "events.2: 'call.completed' is not an event kind (expected one of job.succeeded, job.failed)",
    ]);
    expect(problemsOf(() => body({ url: "https://example.com/hook", surface: "voice" }))).toEqual(["surface: unknown field"]);
    expect(body({ url: " https://example.com/hook " })).toEqual({ url: "https://example.com/hook" });
  });

  it("lets internal callers subscribe to another surface's kinds", () => {
    const org_id = "5f2b6a4e-1111-4111-8111-111111111111";
    expect(parseOrThrow(CreateEndpointParams, { org_id, url: "https://example.com/h" })).toMatchObject({ surface: "articles" });
    expect(parseOrThrow(CreateEndpointParams, { org_id, url: "https://example.com/h", surface: "voice", events: ["call.completed"] })).toMatchObject({
      surface: "voice",
      events: ["call.completed"],
    });
    expect(problemsOf(() => parseOrThrow(CreateEndpointParams, { org_id, url: "https://example.com/h", events: ["call.completed"] }))).toEqual([
      "events.0: 'call.completed' is not an event kind (expected one of job.succeeded, job.failed)",
    ]);
  });
});
