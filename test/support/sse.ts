import { EventSource } from "eventsource";
import { waitFor } from "./wait";

export interface SseEvent {
  id: string;
  event: string;
  data: any;
}

const JOB_EVENT_NAMES = ["job.snapshot", "job.progress", "job.succeeded", "job.failed", "job.canceled"];

/**
 * A job's event stream read with the `eventsource` package (a WHATWG-conformant EventSource client),
 * which reconnects by itself with Last-Event-ID. Collects every event; `ended` once the client gave up
 * reconnecting (CLOSED), which our server causes with a 204 after the final event.
 */
export function jobEventSource(url: string, token: string) {
  const events: SseEvent[] = [];
  const errors: { code?: number; message?: string }[] = [];
  let opens = 0;
  const es = new EventSource(url, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } }),
  });
  for (const name of JOB_EVENT_NAMES) {
    es.addEventListener(name, (e: MessageEvent) => events.push({ id: e.lastEventId, event: name, data: JSON.parse(String(e.data)) }));
  }
  es.addEventListener("open", () => opens++);
  es.addEventListener("error", (e: Event) => errors.push({ code: (e as { code?: number }).code, message: (e as { message?: string }).message }));
  return {
    events,
    errors,
    opens: () => opens,
    closed: () => es.readyState === EventSource.CLOSED,
    waitForEvents: (n: number, what = `${n} events`, timeoutMs = 30000) => waitFor(() => (events.length >= n ? events.slice() : undefined), what, timeoutMs),
    close: () => es.close(),
  };
}

export type RawPart = { kind: "event"; id?: string; event?: string; data?: string } | { kind: "comment"; text: string } | { kind: "retry"; ms: number };

/**
 * One raw request to a stream (no reconnection), to see what a client does not surface: heartbeat
 * comments, the `retry:` field, statuses and headers. Parses the WHATWG event-stream framing.
 */
export async function rawStream(url: string, token: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", ...headers }, signal: abort.signal });
  const parts: RawPart[] = [];
  let ended = false;
  let text = "";
  const reading = (async () => {
    if (!res.body || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      text = await res.text();
      ended = true;
      return;
    }
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event: { kind: "event"; id?: string; event?: string; data?: string } = { kind: "event" };
          let isEvent = false;
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) parts.push({ kind: "comment", text: line.slice(1).trim() });
            else {
              const at = line.indexOf(":");
              const field = at === -1 ? line : line.slice(0, at);
              const value = at === -1 ? "" : line.slice(at + 1).replace(/^ /, "");
              if (field === "retry") parts.push({ kind: "retry", ms: Number(value) });
              else if (field === "id" || field === "event" || field === "data") {
                event[field] = field === "data" && event.data !== undefined ? `${event.data}\n${value}` : value;
                isEvent = true;
              }
            }
          }
          if (isEvent) parts.push(event);
        }
      }
    } catch {
      // aborted by close()
    }
    ended = true;
  })();
  return {
    status: res.status,
    headers: res.headers,
    parts,
    events: () => parts.filter((p): p is Extract<RawPart, { kind: "event" }> => p.kind === "event"),
    body: async () => (await reading, text ? JSON.parse(text) : undefined),
    ended: () => ended,
    close: async () => {
      abort.abort();
      await reading;
    },
  };
}
