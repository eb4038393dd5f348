import { performance } from "node:perf_hooks";
import type { Clock } from "../../shared/clock";
import { webhookHeaders } from "../../shared/events/signer";
import { OutboundRequestError } from "../../shared/net/errors";
import { safeFetch } from "../../shared/net/safe-fetch";
import type { HostResolver, UrlPolicy } from "../../shared/net/url-guard";

export const WEBHOOK_USER_AGENT = "ArticlePlatformWebhooks/1.0";
/** The receiver's answer is not used: read only this much of it so the connection can be reused. */
const RESPONSE_BYTES = 16 * 1024;

export interface AttemptSettings {
  policy: UrlPolicy;
  timeoutMs: number;
  clock: Clock;
  resolver?: HostResolver;
}

export interface AttemptOutcome {
  delivered: boolean;
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

function statusProblem(status: number): string {
  return status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}: not a 2xx answer`;
}

/**
 * One signed POST through the URL guard: signed afresh at send time, the signed bytes are the bytes
 * sent, no redirect followed, cut at `timeoutMs`. Never throws: every failure is an outcome to record.
 */
export async function sendAttempt(target: { url: string; secret: string }, message: { webhook_id: string; body: string }, settings: AttemptSettings): Promise<AttemptOutcome> {
  const attemptedAt = settings.clock.now();
  const body = Buffer.from(message.body, "utf8");
  const headers = { "content-type": "application/json", ...webhookHeaders(target.secret, message.webhook_id, body, attemptedAt) };
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await safeFetch(target.url, {
      policy: settings.policy,
      method: "POST",
      headers,
      body,
      timeoutMs: settings.timeoutMs,
      maxRedirects: 0,
      maxBytes: RESPONSE_BYTES,
      onOversize: "truncate",
      userAgent: WEBHOOK_USER_AGENT,
      resolver: settings.resolver,
    });
    const delivered = res.status >= 200 && res.status < 300;
    return { delivered, attempted_at: attemptedAt, status_code: res.status, error: delivered ? null : statusProblem(res.status), duration_ms: elapsed() };
  } catch (err) {
    // OutboundRequestError messages name the endpoint's URL, never a resolved address; anything else is not shown.
    const error = err instanceof OutboundRequestError ? err.message : "request failed";
    return { delivered: false, attempted_at: attemptedAt, status_code: null, error, duration_ms: elapsed() };
  }
}
