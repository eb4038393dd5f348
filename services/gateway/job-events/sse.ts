import type { ServerResponse } from "node:http";
import { ApiError } from "../../../shared/errors";
import { rootLogger } from "../../../shared/logger";
import type { JobEvent, JobEventHub } from "./hub";
import { isFinal } from "./sequence";

export interface JobStreamLimits {
  /** A comment line is sent this often, so proxies and clients see a live connection. */
  heartbeatMs: number;
  /** Open streams one API key may hold on one gateway process; the next one is answered 429. */
  maxStreamsPerKey: number;
}

/** What a client waits before reconnecting (the SSE `retry:` field), in ms. */
export const RECONNECT_MS = 2000;
/** Seconds a client refused for too many streams is told to wait. */
const STREAM_LIMIT_RETRY_AFTER_S = 5;

/** One SSE frame (WHATWG HTML §9.2 "event stream"): `data` is one JSON line, so it never needs splitting. */
export function sseFrame(e: Pick<JobEvent, "id" | "event" | "job">): string {
  return `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.job)}\n\n`;
}

/**
 * `GET /v1/jobs/{id}/events`: the job's events as `text/event-stream` (docs/job-events.md).
 * Authentication and the rate window ran before (one request); this counts open streams per key.
 */
export class JobEventStreams {
  private readonly openPerKey = new Map<string, number>();
  private readonly closers = new Set<() => void>();

  constructor(
    private readonly hub: JobEventHub,
    private readonly limits: JobStreamLimits,
  ) {}

  /** Open streams on this process. */
  get open(): number {
    return this.closers.size;
  }

  /**
   * Serves one stream, resumed after `lastEventId` (the validated `Last-Event-ID`). Throws before any
   * byte is written for a foreign job (404) or too many streams (429); resolves when the stream has ended.
   */
  async serve(res: ServerResponse, who: { orgId: string; keyId: string; jobId: string; lastEventId?: number }): Promise<void> {
    const fromId = who.lastEventId ?? 0;
    const held = this.openPerKey.get(who.keyId) ?? 0;
    if (held >= this.limits.maxStreamsPerKey) {
      res.setHeader("retry-after", String(STREAM_LIMIT_RETRY_AFTER_S));
      throw new ApiError(
        "rate_limit_exceeded",
        `Too many open event streams for this API key (at most ${this.limits.maxStreamsPerKey} per gateway). Close one, or poll GET /v1/jobs/{id}.`,
      );
    }
    this.openPerKey.set(who.keyId, held + 1);
    const sub = this.hub.subscribe(who.jobId, who.orgId, fromId);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      sub.close();
      this.closers.delete(close);
      const left = (this.openPerKey.get(who.keyId) ?? 1) - 1;
      if (left <= 0) this.openPerKey.delete(who.keyId);
      else this.openPerKey.set(who.keyId, left);
    };
    const close = () => {
      release();
      if (!res.writableEnded) res.end();
    };
    this.closers.add(close);

    try {
      const snapshot = await sub.ready;
      // The client already has the final event: 204 tells an EventSource to stop reconnecting.
      if (snapshot.id === fromId && isFinal(snapshot.job.status)) {
        release();
        res.writeHead(204);
        res.end();
        return;
      }
    } catch (err) {
      release();
      throw err;
    }

    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      // nginx and similar proxies pass the stream through unbuffered.
      "x-accel-buffering": "no",
    });
    res.write(`retry: ${RECONNECT_MS}\n\n`);
    const heartbeat = setInterval(() => res.write(": heartbeat\n\n"), this.limits.heartbeatMs);
    heartbeat.unref();
    // The response's close: the client went away (a request's own close fires once its body is read).
    res.once("close", close);
    try {
      for await (const event of sub) {
        if (res.writableEnded) break;
        res.write(sseFrame(event));
      }
    } catch (err) {
      rootLogger().warn({ err, job_id: who.jobId }, "job event stream ended by an error");
    } finally {
      clearInterval(heartbeat);
      close();
    }
  }

  /** Ends every open stream (the gateway is stopping); clients reconnect with Last-Event-ID elsewhere. */
  closeAll(): void {
    for (const close of [...this.closers]) close();
  }
}
