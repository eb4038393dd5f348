import { randomUUID } from "node:crypto";
import http from "node:http";
import { ROUTE_PLANNING_PAGES, type CorpusPage } from "./fake-searxng";
import { closeServers, listen, searchSite, startSearchSite } from "./search-site";

/**
 * A local Tavily Search API and the site its results point at (test/support/search-site.ts).
 *
 * Shapes from Tavily's API reference, "POST /search" (docs.tavily.com/api-reference/endpoint/search):
 * the request is `POST /search` with `Authorization: Bearer tvly-…` and a JSON body `{query (required),
 * max_results (0–20, default 5), search_depth (basic | advanced | fast | ultra-fast), topic (general | news |
 * finance), include_answer, include_raw_content, include_images, …}`; the answer is `{query, answer, images,
 * results: [{title, url, content, score, raw_content, favicon}], response_time, request_id}`. Error codes and
 * messages from Tavily's help centre, "Errors Code" (help.tavily.com): 400 bad request, 401 missing or invalid
 * API key, 429 too many requests, 432 plan limit exceeded, 433 pay-as-you-go limit exceeded, 500; the body
 * is FastAPI's `{detail: {error: "…"}}`.
 */

export const TAVILY_TEST_KEY = "tvly-dev-test-0123456789abcdef";

/** Tavily's documented messages for its error codes. */
const ERROR_MESSAGES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized: missing or invalid API key.",
  429: "Your request has been blocked due to excessive requests. Please reduce rate of requests.",
  432: "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com",
  433: "This request exceeds the pay-as-you-go limit. You can increase your limit on the Tavily dashboard",
  500: "Internal Server Error",
};

export interface TavilyRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** The parsed JSON body (null when it was not JSON). */
  body: Record<string, unknown> | null;
}

export interface FakeTavily {
  /** Base address of the API (TAVILY_BASE_URL). */
  url: string;
  /** Base address of the site the results point at. */
  siteUrl: string;
  apiKey: string;
  /** Every request to the API, answered or refused. */
  requests: TavilyRequest[];
  pageRequests: string[];
  /** Answer the next searches with one of Tavily's error codes (400, 401, 429, 432, 433, 500) instead of results. */
  failNext(count: number, status?: number): void;
  /** Answer the next search with these raw `results` instead of the site's (to script duplicates, odd addresses…). */
  nextResults(results: Record<string, unknown>[]): void;
  close(): Promise<void>;
}

const DEPTHS = ["basic", "advanced", "fast", "ultra-fast"];
const TOPICS = ["general", "news", "finance"];

/** Why Tavily would refuse the body with a 400, or null when it is valid. */
function invalid(body: Record<string, unknown> | null): string | null {
  if (!body) return "Invalid JSON body";
  if (typeof body.query !== "string" || !body.query.trim()) return "Query is missing.";
  if (body.max_results !== undefined && (!Number.isInteger(body.max_results) || (body.max_results as number) < 0 || (body.max_results as number) > 20))
    return "max_results must be between 0 and 20";
  if (body.search_depth !== undefined && !DEPTHS.includes(body.search_depth as string)) return `Invalid search depth. Must be one of ${DEPTHS.join(", ")}.`;
  if (body.topic !== undefined && !TOPICS.includes(body.topic as string)) return `Invalid topic. Must be one of ${TOPICS.join(", ")}.`;
  return null;
}

export async function startFakeTavily(opts: { pages?: CorpusPage[]; apiKey?: string } = {}): Promise<FakeTavily> {
  const pages = opts.pages ?? ROUTE_PLANNING_PAGES;
  const apiKey = opts.apiKey ?? TAVILY_TEST_KEY;
  const site = await startSearchSite(pages);
  const requests: TavilyRequest[] = [];
  let failures = 0;
  let failureStatus = 429;
  let scripted: Record<string, unknown>[] | undefined;

  const fail = (res: http.ServerResponse, status: number, message = ERROR_MESSAGES[status] ?? "Error") =>
    void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ detail: { error: message } }));

  const api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      let body: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        body = parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, contentType: req.headers["content-type"], body });
      if (path !== "/search") return fail(res, 404, "Not Found");
      if (req.method !== "POST") return fail(res, 405, "Method Not Allowed");
      if (req.headers.authorization !== `Bearer ${apiKey}`) return fail(res, 401);
      if (failures > 0) {
        failures--;
        return fail(res, failureStatus);
      }
      const problem = invalid(body);
      if (problem) return fail(res, 400, problem);
      const query = body!.query as string;
      const max = (body!.max_results as number | undefined) ?? 5;
      const hits = searchSite(pages, site.url, query);
      const top = Math.max(1, ...hits.map((h) => h.score));
      const results =
        scripted ?? hits.map((h) => ({ title: h.title, url: h.url, content: h.content, score: Number((h.score / top).toFixed(4)), raw_content: null, favicon: null }));
      scripted = undefined;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          query,
          follow_up_questions: null,
          answer: null,
          images: [],
          results: results.slice(0, max),
          response_time: 0.42,
          request_id: randomUUID(),
        }),
      );
    });
  });
  const url = await listen(api);

  return {
    url,
    siteUrl: site.url,
    apiKey,
    requests,
    pageRequests: site.pageRequests,
    failNext(count, status = 429) {
      failures = count;
      failureStatus = status;
    },
    nextResults(results) {
      scripted = results;
    },
    close: () => closeServers(site.server, api),
  };
}
