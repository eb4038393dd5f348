import { z } from "zod";
import { componentName, componentRef, componentSchemas } from "./openapi-components";
import { openApiWebhooks } from "./openapi-webhooks";
import { ADMIN_PREFIX, ADMIN_ROUTES, API_PREFIX, API_ROUTES, type RouteContract } from "./routes";

/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the route table and the very zod contracts
 * the gateway validates with and the services answer with (zod 4's `z.toJSONSchema`, JSON Schema
 * 2020-12 = OpenAPI 3.1's dialect), and the webhook event catalog. Nothing here restates a schema.
 */

/** The API's version (`info.version`): the `/v1` surface as released. */
export const API_VERSION = "1.0.0";

type Json = Record<string, unknown>;

export const OPENAPI_PATH = "/v1/openapi.json";

/**
 * Error statuses particular to a route, beyond those every route of its group can answer
 * (400, 401, 404 for a path parameter, 413/415 for a body, 429 on /v1, 500, 503). Keyed "METHOD /prefix/path".
 */
export const ROUTE_ERRORS: Record<string, number[]> = {
  // Rule: credits are checked before the job exists; an unknown brand_profile_id is a 404.
  "POST /v1/articles": [402, 404],
  // services/articles/publishing: the CMS refused or failed.
  "POST /v1/articles/{id}/publish": [502],
};

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  400: "Invalid request (the message names each offending field).",
  401: "Missing or invalid bearer token.",
  402: "Insufficient credits: nothing was charged and no job exists.",
  404: "No such resource (or not one of the caller's organization).",
  413: "Request body too large.",
  415: "Request body is not JSON.",
  429: "Rate limit exceeded: retry after `retry-after` seconds.",
  500: "Internal error: safe to retry with backoff.",
  502: "The upstream CMS failed or refused the publish.",
  503: "`service_unavailable`: a service or database is unavailable and the request was not sent to it: nothing changed, retry after `retry-after` seconds. `outcome_unknown` (a creating or other write): the request was sent and its outcome is unknown; retry with the same Idempotency-Key (the `idempotency-key` header of this answer) to get the first outcome.",
};

/** A zod contract as a JSON Schema for the request side (before transforms), embeddable in the document. */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as Json;
  delete out.$schema;
  return out;
}

const RATE_LIMIT_HEADERS = {
  "x-ratelimit-limit": { $ref: "#/components/headers/RateLimitLimit" },
  "x-ratelimit-remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "x-ratelimit-reset": { $ref: "#/components/headers/RateLimitReset" },
};

function openApiPath(prefix: string, path: string): string {
  return prefix + path.replace(/:([a-z_]+)/g, "{$1}");
}

function pathParameters(path: string): Json[] {
  return [...path.matchAll(/:([a-z_]+)/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    description: "A UUID; anything else names no resource (404).",
    schema: { type: "string", format: "uuid" },
  }));
}

function queryParameters(contract: RouteContract): Json[] {
  if (!contract.query) return [];
  const schema = jsonSchemaOf(contract.query);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({ name, in: "query", required: required.has(name), schema: s }));
}

function headerParameters(contract: RouteContract): Json[] {
  return Object.values(contract.headers ?? {}).map((h) => ({
    name: h.name,
    in: "header",
    // An absent header is no param (http-input.ts `headerParams`): declared headers are optional.
    required: false,
    schema: jsonSchemaOf(h.schema),
  }));
}

function requestBody(contract: RouteContract): Json | undefined {
  if (!contract.body) return undefined;
  return {
    // No body at all reads as `{}` (http-input.ts): the body is required only when `{}` is not valid.
    required: !contract.body.safeParse({}).success,
    content: { "application/json": { schema: jsonSchemaOf(contract.body) } },
  };
}

function errorResponse(status: number, rateLimited: boolean): Json {
  const headers: Json = {};
  if (rateLimited && status !== 401) Object.assign(headers, RATE_LIMIT_HEADERS);
  if (status === 429 || status === 503) headers["retry-after"] = { $ref: "#/components/headers/RetryAfter" };
  if (status === 401) headers["www-authenticate"] = { description: "`Bearer realm=\"api\"`", schema: { type: "string" } };
  return {
    description: STATUS_TEXT[status],
    ...(Object.keys(headers).length ? { headers } : {}),
    content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
  };
}

function successResponse(contract: RouteContract, status: number, rateLimited: boolean, description: string): Json {
  const headers: Json = rateLimited ? { ...RATE_LIMIT_HEADERS } : {};
  if (status === 201 && contract.location) {
    headers.location = { description: "Where the created resource is read.", schema: { type: "string" } };
  }
  if (contract.stream) {
    return {
      description: STREAM_DESCRIPTION,
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { [contract.stream]: { schema: { type: "string", description: `Each event's \`data\` is a ${componentName(contract.response)} (#/components/schemas/${componentName(contract.response)}).` } } },
    };
  }
  return {
    description,
    ...(Object.keys(headers).length ? { headers } : {}),
    content: { "application/json": { schema: componentRef(componentName(contract.response)) } },
  };
}

/** What the job event stream sends (docs/job-events.md), in the document's words. */
const STREAM_DESCRIPTION = [
  "A stream of Server-Sent Events, one JSON Job resource per event (`data:`), each with an `id:` that grows as the job moves on.",
  "First `job.snapshot` (the job now), then `job.progress` on every stage change, and a final `job.succeeded`, `job.failed` or",
  "`job.canceled`, after which the stream closes (an already finished job: only the final event). Comment lines (`: heartbeat`)",
  "keep the connection alive. Reconnect with `Last-Event-ID` to resume: events up to that id are not sent again.",
  "Authenticated and counted against the rate window once, as one request; open streams per API key are bounded (429).",
].join(" ");

function operation(prefix: string, contract: RouteContract): Json {
  const key = `${contract.method} ${openApiPath(prefix, contract.path)}`;
  const rateLimited = prefix === API_PREFIX;
  const responses: Record<string, Json> = {
    [contract.status]: successResponse(contract, contract.status, rateLimited, STATUS_TEXT[contract.status] ?? "Success"),
  };
  // A stream resumed after its final event: nothing left to send, and an EventSource stops reconnecting.
  if (contract.stream) responses["204"] = { description: "The `Last-Event-ID` sent is the job's final event: nothing more will come." };
  // The action may answer 200 instead (ctx.meta.$statusCode): a replayed Idempotency-Key.
  if (contract.replayStatus && contract.replayStatus !== contract.status) {
    responses["200"] = successResponse(contract, 200, rateLimited, "Replay: the same Idempotency-Key and body were seen before; the original acknowledgement.");
  }
  const errors = new Set<number>([400, 401, 500, 503, ...(ROUTE_ERRORS[key] ?? [])]);
  if (contract.path.includes(":")) errors.add(404);
  // A cursor (`starting_after`) naming no item of the list is a 404 (shared/db/paging.ts).
  if (queryParameters(contract).some((p) => p.name === "starting_after")) errors.add(404);
  if (contract.body) (errors.add(413), errors.add(415));
  if (rateLimited) errors.add(429);
  for (const status of [...errors].sort((a, b) => a - b)) responses[status] = errorResponse(status, rateLimited);
  // A creating route's key, the client's or the one assigned, comes back on every answer (routes.ts `creates`).
  if (contract.creates) for (const r of Object.values(responses)) r.headers = { ...(r.headers as Json), "idempotency-key": { $ref: "#/components/headers/IdempotencyKey" } };

  const parameters = [...pathParameters(contract.path), ...queryParameters(contract), ...headerParameters(contract)];
  const body = requestBody(contract);
  return {
    operationId: contract.stream ? `${contract.action.split(".")[0]}.events` : contract.action,
    tags: [prefix === API_PREFIX ? "api" : "admin", contract.action.split(".")[0]],
    security: [{ [rateLimited ? "apiKey" : "adminToken"]: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

function buildDocument(): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const [prefix, routes] of [
    [API_PREFIX, API_ROUTES],
    [ADMIN_PREFIX, ADMIN_ROUTES],
  ] as const) {
    for (const contract of routes) {
      const path = openApiPath(prefix, contract.path);
      (paths[path] ??= {})[contract.method.toLowerCase()] = operation(prefix, contract);
    }
  }
  const integer = (description: string) => ({ description, schema: { type: "integer", minimum: 0 } });
  return {
    openapi: "3.1.0",
    info: {
      title: "Article platform API",
      version: API_VERSION,
      description:
        "Research-backed articles as asynchronous jobs. Generated from the gateway's route table, the zod schemas requests are validated with and answers are built from, and the webhook event catalog.",
    },
    tags: [
      { name: "api", description: "`/v1`: authenticated with an organization's API key, rate-limited per key." },
      { name: "admin", description: "`/admin`: authenticated with ADMIN_TOKEN." },
      { name: "webhooks", description: "What the platform POSTs to registered endpoints, signed per Standard Webhooks." },
    ],
    paths,
    webhooks: openApiWebhooks(),
    components: {
      schemas: componentSchemas(),
      headers: {
        RateLimitLimit: integer("Requests allowed per minute for this key."),
        RateLimitRemaining: integer("Requests left in the current window."),
        RateLimitReset: integer("Unix seconds at which the window resets."),
        RetryAfter: integer("Seconds to wait before retrying."),
        IdempotencyKey: {
          description: "The request's Idempotency-Key: the client's, or one the gateway assigned when it sent none. A retry with it replays the first outcome.",
          schema: { type: "string" },
        },
      },
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An organization's API key: `Authorization: Bearer <API_KEY>`." },
        adminToken: { type: "http", scheme: "bearer", description: "The operator's ADMIN_TOKEN: `Authorization: Bearer <ADMIN_TOKEN>`." },
      },
    },
  };
}

let cached: { doc: Json; body: string } | undefined;

/** The document (built once: the route table is fixed at load). */
export function openApiDocument(): Json {
  cached ??= (() => {
    const doc = buildDocument();
    return { doc, body: JSON.stringify(doc) };
  })();
  return cached.doc;
}

/** The document serialized, as served. */
export function openApiJson(): string {
  openApiDocument();
  return cached!.body;
}
