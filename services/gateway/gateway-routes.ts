import type { KeyAdmission } from "./admission/admission";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallingOptions, Context, Service } from "moleculer";
import { call } from "../../shared/action";
import { bearerToken, isAdminToken } from "../../shared/bearer";
import { config } from "../../shared/config";
import { ApiError, NotFoundError } from "../../shared/errors";
import { checkReadiness, writeHealth, writeMetrics } from "../../shared/runtime/health";
import type { Authenticated } from "../../shared/schemas/admin";
import { ArticlesActions } from "../../shared/schemas/articles";
import { DOCS_PATH, writeDocsAsset, writeDocsPage, writeOpenApi } from "./docs-page";
import type { JobEventHub } from "./job-events/hub";
import type { JobEventStreams } from "./job-events/sse";
import { writeMedia } from "./media";
import { CACHED_ACTIONS, type EdgeReadCache } from "./read-cache";
import { OPENAPI_PATH, openApiJson } from "./openapi";
import { ADMIN_PREFIX, ADMIN_ROUTES, API_PREFIX, API_ROUTES, locationOf, requiredServices, type RouteContract } from "./routes";

/**
 * The gateway's moleculer-web routes, built from the route contracts (routes.ts): `/v1` and `/admin`
 * (reads and writes apart), and the public paths (health, metrics, the OpenAPI document and docs, media).
 */

export type GatewayRequest = IncomingMessage & {
  $ctx: Context<unknown, Record<string, unknown>>;
  $params: { params?: Record<string, string> } & Record<string, unknown>;
  query: unknown;
  originalUrl?: string;
  $orgId?: string;
  /** The API key the edge admitted (gateway.service.ts admitAtEdge). */
  $admitted?: Authenticated;
  $contract?: RouteContract;
  /** A write's action once prepareCall handed it to moleculer-web to call (its 5xx may follow a change). */
  $sentTo?: string;
  /** moleculer-web's matched alias. */
  $alias?: { fullPath?: string };
};
export type Alias = { method: string; fullPath: string };
export type GatewayService = Service & {
  server?: unknown;
  jobEvents: JobEventHub;
  jobStreams: JobEventStreams;
  admission: KeyAdmission;
  readCache: EdgeReadCache;
  isHTTPS?: boolean;
  httpHandler(req: IncomingMessage, res: ServerResponse): void;
  sendErrorEnvelope(req: GatewayRequest, res: ServerResponse, err: unknown): void;
  /** moleculer-web's: writes an action's answer with `ctx.meta.$statusCode`. */
  sendResponse(req: GatewayRequest, res: ServerResponse, data: unknown): void;
};

const contracts = new Map<string, RouteContract>();

/** The contract of a matched alias (prepareCall). */
export function contractOf(alias: Alias): RouteContract | undefined {
  return contracts.get(`${alias.method} ${alias.fullPath}`);
}

type AliasHandler = (this: GatewayService, req: GatewayRequest, res: ServerResponse, next: (err?: unknown) => void) => void;
function aliasesFor(prefix: string, routes: RouteContract[], callOptions: CallingOptions): Record<string, string | AliasHandler> {
  const aliases: Record<string, string | AliasHandler> = {};
  for (const r of routes) {
    contracts.set(`${r.method} ${prefix}${r.path}`, r);
    aliases[`${r.method} ${r.path}`] = r.stream ? serveJobEvents : CACHED_ACTIONS.has(r.action) ? serveCachedRead(r.action, callOptions) : r.action;
  }
  return aliases;
}

/**
 * A read the edge cache may answer (`GET /v1/jobs/{id}`, `GET /v1/usage`; docs/request-path.md#edge-read-cache):
 * authenticated, counted and validated like any route (prepareCall set `$params` and the status), then
 * answered from this gateway's cache or, on a miss, by the action with the route's call options.
 */
function serveCachedRead(action: string, callOptions: CallingOptions): AliasHandler {
  return function (req, res, next) {
    const params = req.$params as Record<string, unknown>;
    const fetch = () => req.$ctx.call(action, params, { ...callOptions });
    const route = req.$alias?.fullPath ?? action;
    this.readCache.readThrough(action, params, fetch, route).then((data) => this.sendResponse(req, res, data)).catch((err: unknown) => next(err));
  };
}

/**
 * `GET /v1/jobs/{id}/events` (docs/job-events.md): authenticated, counted and validated like any
 * route (prepareCall set `$params`); then served from this gateway's hub, not by an action.
 */
const serveJobEvents: AliasHandler = function (req, res, next) {
  const params = req.$params as { id?: string; org_id?: string; last_event_id?: number };
  const user = req.$ctx.meta.user as { key_id?: string } | undefined;
  this.jobStreams
    .serve(res, { orgId: String(params.org_id), keyId: String(user?.key_id), jobId: String(params.id), lastEventId: params.last_event_id })
    .catch((err: unknown) => next(err));
};

/** Attempts after the first for an idempotent read whose node was lost or missing (moleculer.config.ts `lostNodeError`). */
const READ_RETRIES = 2;

/**
 * Route options every API route shares: only declared aliases, our own body reading, our own errors.
 * Reads (GET) and writes are separate routes so that only reads are retried on another node.
 */
function apiRoutes(prefix: string, routes: RouteContract[], authentication: string) {
  return [
    apiRoute(prefix, routes.filter((r) => r.method === "GET"), authentication, READ_RETRIES),
    apiRoute(prefix, routes.filter((r) => r.method !== "GET"), authentication, 0),
  ];
}

function apiRoute(prefix: string, routes: RouteContract[], authentication: string, retries: number) {
  const callOptions = { timeout: config().REQUEST_TIMEOUT_MS, retries };
  return {
    // Named: moleculer-web would otherwise take the second route on the same path for the first.
    name: `${prefix}:${retries ? "reads" : "writes"}`,
    path: prefix,
    mappingPolicy: "restrict",
    autoAliases: false,
    mergeParams: false,
    bodyParsers: false,
    logging: false,
    authentication,
    authorization: "prepareCall",
    aliases: aliasesFor(prefix, routes, callOptions),
    onAfterCall(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, _res: ServerResponse, data: unknown) {
      const contract = req.$contract;
      if (contract && ctx.meta.$statusCode === 201 && data && typeof data === "object") {
        const location = locationOf(contract, prefix, data as Record<string, unknown>, req.$params);
        if (location) ctx.meta.$location = location;
      }
      return data;
    },
    callOptions,
    onError(this: GatewayService, req: GatewayRequest, res: ServerResponse, err: unknown) {
      this.sendErrorEnvelope(req, res, err);
    },
  };
}

/** Every route of the gateway, in the order moleculer-web matches them. */
export function gatewayRoutes() {
  return [...apiRoutes(API_PREFIX, API_ROUTES, "authenticateApiKey"), ...apiRoutes(ADMIN_PREFIX, ADMIN_ROUTES, "authenticateAdmin"), publicRoute()];
}

/** Health, metrics, the API's documentation and media: no API key. */
function publicRoute() {
  return {
    path: "/",
    mappingPolicy: "restrict",
    autoAliases: false,
    bodyParsers: false,
    logging: false,
    aliases: {
      "GET /healthz"(_req: IncomingMessage, res: ServerResponse) {
        writeHealth(res, 200, { status: "ok" });
      },
      "GET /readyz"(this: GatewayService, _req: IncomingMessage, res: ServerResponse) {
        void checkReadiness(this.broker, requiredServices()).then((r) =>
          writeHealth(res, r.ready ? 200 : 503, { status: r.ready ? "ready" : "not_ready", checks: r.checks, missing: r.missing }),
        );
      },
      /**
       * Prometheus metrics on the public port: with the admin token only (a scraper uses HEALTH_PORT,
       * which is not published; docs/operations.md#metrics).
       */
      "GET /metrics"(this: GatewayService, req: GatewayRequest, res: ServerResponse) {
        if (!isAdminToken(bearerToken(req.headers.authorization))) {
          return this.sendErrorEnvelope(req, res, new ApiError("invalid_admin_token", "Invalid admin token. /metrics on the API port needs 'Authorization: Bearer <ADMIN_TOKEN>'; scrape HEALTH_PORT instead."));
        }
        void writeMetrics(res).catch((err: unknown) => this.sendErrorEnvelope(req, res, err));
      },
      /** The API's OpenAPI document and its docs page: public, like the API's documentation (docs/openapi.md). */
      [`GET ${OPENAPI_PATH}`](_req: IncomingMessage, res: ServerResponse) {
        writeOpenApi(res, openApiJson());
      },
      [`GET ${DOCS_PATH}`](_req: IncomingMessage, res: ServerResponse) {
        writeDocsPage(res);
      },
      [`GET ${DOCS_PATH}/assets/:name`](this: GatewayService, req: GatewayRequest, res: ServerResponse) {
        if (!writeDocsAsset(res, String(req.$params.name))) this.sendErrorEnvelope(req, res, new NotFoundError("asset"));
      },
      /** Public media (article images): no key, the id is an unguessable UUID; articles decides the headers. */
      "GET /media/:id"(this: GatewayService, req: GatewayRequest, res: ServerResponse) {
        call(req.$ctx, ArticlesActions.getMedia, { id: String(req.$params.id) })
          .then((media) => writeMedia(res, media))
          .catch((err: unknown) => this.sendErrorEnvelope(req, res, err));
      },
    },
  };
}
