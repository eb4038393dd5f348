import { z } from "zod";
import { ValidationError } from "../errors";
import { JOB_TYPES } from "../schemas/jobs";
import { formatIssues, uuid } from "../validation";

/**
 * Every event kind the platform can deliver, declared once with the zod schema of its `data`.
 * Kinds are namespaced by surface: `job.succeeded` exists on all three surfaces with different
 * payloads (an article job, a recruiting run, a voice analysis job), so a kind alone is not enough.
 * Article surface: the API's job events. Recruiting and voice: the sibling surfaces' events. Decisions: docs/webhooks.md#the-event-catalog.
 */
export const EVENT_SURFACES = ["articles", "recruiting", "voice"] as const;
export type EventSurface = (typeof EVENT_SURFACES)[number];

const text = z.string().min(1, "must not be empty");
const dateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time" });
const jsonObject = z.record(z.string(), z.unknown());
const count = z.number().int("must be a whole number").min(0, "must be at least 0");

type Outcome = "succeeded" | "failed";

/** The job resource without stages (rule: job events carry the job without its stages), as the article pipeline hands it over. */
function articleJob(status: Outcome) {
  return z.strictObject({
    id: uuid,
    type: z.enum(JOB_TYPES),
    status: z.literal(status),
    result: jsonObject,
    error: status === "succeeded" ? z.null() : text,
    credits_charged: count,
    created_at: dateTime,
    finished_at: dateTime,
  });
}

const RUN_TYPES = ["jd_generate", "screen_batch", "interview_kit", "distribute"] as const;

/** The recruiting run resource without stage detail; a screening run's result names its screening. */
function recruitingRun(status: Outcome) {
  return z
    .strictObject({
      id: text,
      type: z.enum(RUN_TYPES),
      status: z.literal(status),
      result: jsonObject,
      error: status === "succeeded" ? z.null() : text,
      credits_charged: count,
      created_at: dateTime,
      finished_at: dateTime,
    })
    .superRefine((run, ctx) => {
      if (run.type !== "screen_batch" || status !== "succeeded") return;
      if (typeof run.result.screening_id !== "string") ctx.addIssue({ code: "custom", path: ["result", "screening_id"], message: "is required for a screening run" });
      if (!Number.isInteger(run.result.screened)) ctx.addIssue({ code: "custom", path: ["result", "screened"], message: "is required for a screening run" });
    });
}

/** The voice surface's analysis job: documented only as "the job object including its output". */
function voiceJob(status: Outcome) {
  return z.looseObject({
    id: text,
    status: z.literal(status),
    error: status === "succeeded" ? z.null().optional() : text,
  });
}

const e164 = z.string().regex(/^\+[1-9]\d{1,14}$/, "must be an E.164 phone number");
const CALL_STATUSES = ["in_progress", "completed", "failed", "no_answer", "busy"] as const;
type CallStatus = (typeof CALL_STATUSES)[number];

const callObject = z.strictObject({
  id: text,
  object: z.literal("call"),
  agent_id: text,
  direction: text,
  status: z.enum(CALL_STATUSES),
  from: e164,
  to: e164,
  phone_number_id: text,
  channel: text,
  duration_sec: count,
  billed_sec: count,
  language: z.string(),
  dialect: z.string(),
  lang_tier: z.string(),
  outcome: z.string().nullable(),
  sentiment: z.string().nullable(),
  recording_url: z.string().nullable(),
  transcript: z
    .strictObject({
      segments: z.array(
        z.strictObject({ speaker: z.enum(["agent", "caller"]), start: z.number().min(0), end: z.number().min(0), text: z.string() }),
      ),
      language_code: z.string(),
      word_count: count,
    })
    .nullable(),
  tool_calls: z.array(z.strictObject({ name: text, args: jsonObject, result: jsonObject })),
  cost: z.strictObject({ voice_credits: count, telephony_usd: z.number().min(0) }),
  error: z.strictObject({ code: text, message: text }).nullable(),
  created_at: dateTime,
  /** Null while the call is live (call.started). */
  ended_at: dateTime.nullable(),
});
type CallObject = z.output<typeof callObject>;

/** The call object in the state its event describes. */
function callEvent(statuses: readonly CallStatus[], rules: (call: CallObject, issue: (path: string, message: string) => void) => void) {
  return callObject.superRefine((call, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!statuses.includes(call.status)) issue("status", `must be ${statuses.join(" or ")}`);
    rules(call, issue);
  });
}

export const EVENT_CATALOG = {
  articles: {
    "job.succeeded": articleJob("succeeded"),
    "job.failed": articleJob("failed"),
  },
  recruiting: {
    "job.succeeded": recruitingRun("succeeded"),
    "job.failed": recruitingRun("failed"),
    "application.received": z.strictObject({ application_id: text, job_post_id: text, candidate_id: text, source: text }),
    "screening.completed": z.strictObject({ screening_id: text, job_post_id: text }),
  },
  voice: {
    "call.started": callEvent(["in_progress"], (call, issue) => {
      for (const field of ["recording_url", "transcript", "outcome", "ended_at"] as const) if (call[field] !== null) issue(field, "must be null while the call is live");
    }),
    "call.completed": callEvent(["completed"], (call, issue) => {
      if (call.ended_at === null) issue("ended_at", "is required once the call has ended");
    }),
    "call.failed": callEvent(["failed", "no_answer", "busy"], (call, issue) => {
      if (call.error === null) issue("error", "must explain why the call failed");
      if (call.billed_sec !== 0) issue("billed_sec", "must be 0: a failed call bills no voice minutes");
    }),
    "campaign.completed": z.strictObject({ campaign_id: text, total: count, completed: count, failed: count }),
    "job.succeeded": voiceJob("succeeded"),
    "job.failed": voiceJob("failed"),
  },
} as const satisfies Record<EventSurface, Record<string, z.ZodType>>;

/** The kinds a surface's endpoints can subscribe to, in catalog order (also their default subscription). */
export function eventKinds(surface: EventSurface): string[] {
  return Object.keys(EVENT_CATALOG[surface]);
}

function surfacesOfKind(kind: string): EventSurface[] {
  return EVENT_SURFACES.filter((s) => Object.prototype.hasOwnProperty.call(EVENT_CATALOG[s], kind));
}

/**
 * The surface an event belongs to: the one named, or the only surface that has the kind.
 * Throws the platform's 400 for an unknown kind, or an ambiguous one without a surface.
 */
export function resolveSurface(kind: string, surface?: EventSurface): EventSurface {
  const owners = surfacesOfKind(kind);
  if (surface) {
    if (!owners.includes(surface)) throw new ValidationError(`kind: '${kind}' is not an event kind of the ${surface} surface (expected one of ${eventKinds(surface).join(", ")})`);
    return surface;
  }
  if (owners.length === 0) throw new ValidationError(`kind: '${kind}' is not an event kind`);
  if (owners.length > 1) throw new ValidationError(`surface: is required for '${kind}', which the ${owners.join(", ")} surfaces all have`);
  return owners[0];
}

/** The payload parsed by its kind's schema, or the platform's 400 naming every problem under `payload.`. */
export function parseEventPayload(surface: EventSurface, kind: string, payload: unknown): Record<string, unknown> {
  const schema = (EVENT_CATALOG[resolveSurface(kind, surface)] as Record<string, z.ZodType>)[kind];
  const result = schema.safeParse(payload, { reportInput: true });
  if (!result.success) throw new ValidationError(formatIssues(result.error.issues.map((i) => ({ ...i, path: ["payload", ...i.path] }))));
  return result.data as Record<string, unknown>;
}
