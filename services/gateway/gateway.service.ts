import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { bearerToken, secretsEqual } from "../../shared/bearer";
import { config } from "../../shared/config";
import { ApiError, httpErrorResponse, INVALID_ADMIN_TOKEN_MESSAGE, NotFoundError, rateLimitHeaders, writeErrorEnvelope } from "../../shared/errors";
import { call } from "../../shared/action";
import { AuthActions } from "../../shared/schemas/admin";
import { ArticlesActions } from "../../shared/schemas/articles";
import { rootLogger } from "../../shared/logger";
import { checkReadiness, writeHealth, writeMetrics } from "../../shared/runtime/health";
import { dashboardHandler } from "./dashboard";
import { keyOwner } from "../../shared/runtime/key-owner";
import { DOCS_PATH, writeDocsAsset, writeDocsPage, writeOpenApi } from "./docs-page";
import { createEdgeServer } from "./http-edge";
import { readCallParams } from "./http-input";
import { writeMedia } from "./media";
import { OPENAPI_PATH, openApiJson } from "./openapi";
import { ADMIN_PREFIX, ADMIN_ROUTES, API_PREFIX, API_ROUTES, locationOf, methodsAt, requiredServices, type RouteContract } from "./routes";
import { accessLog, requestIdFrom } from "./request-log";
import { JOB_CHANGED_EVENT, isJobChangedPayload } from "../../shared/events/job-changed";
import { PipelineActions } from "../../shared/schemas/jobs";
import { JobEventHub } from "./job-events/hub";
import { JobEventStreams } from "./job-events/sse";

type GatewayRequest = IncomingMessage & {
  $ctx: Context<unknown, Record<string, unknown>>;
  $params: { params?: Record<string, string> } & Record<string, unknown>;
  query: unknown;
  originalUrl?: string;
  $orgId?: string;
  $contract?: RouteContract;
};
type Alias = { method: string; fullPath: string };
type GatewayService = Service & {
  server?: unknown;
  jobEvents: JobEventHub;
  jobStreams: JobEventStreams;
  isHTTPS?: boolean;
  httpHandler(req: IncomingMessage, res: ServerResponse): void;
  sendErrorEnvelope(req: GatewayRequest, res: ServerResponse, err: unknown): void;
};

const contracts = new Map<string, RouteContract>();
type AliasHandler = (this: GatewayService, req: GatewayRequest, res: ServerResponse, next: (err?: unknown) => void) => void;
function aliasesFor(prefix: string, routes: RouteContract[]): Record<string, string | AliasHandler> {
  const aliases: Record<string, string | AliasHandler> = {};
  for (const r of routes) {
    contracts.set(`${r.method} ${prefix}${r.path}`, r);
    aliases[`${r.method} ${r.path}`] = r.stream ? serveJobEvents : r.action;
  }
  return aliases;
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
    aliases: aliasesFor(prefix, routes),
    onAfterCall(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, _res: ServerResponse, data: unknown) {
      const contract = req.$contract;
      if (contract && ctx.meta.$statusCode === 201 && data && typeof data === "object") {
        const location = locationOf(contract, prefix, data as Record<string, unknown>, req.$params);
        if (location) ctx.meta.$location = location;
      }
      return data;
    },
    callOptions: { timeout: config().REQUEST_TIMEOUT_MS, retries },
    onError(this: GatewayService, req: GatewayRequest, res: ServerResponse, err: unknown) {
      this.sendErrorEnvelope(req, res, err);
    },
  };
}

/** HTTP edge: authenticates (via auth), validates (shared contracts), calls one action, maps errors. */
const GatewayServiceSchema: ServiceSchema<ServiceSettingSchema, GatewayService> = {
  name: "gateway",
  mixins: [ApiGateway as unknown as Partial<ServiceSchema>],

  settings: {
    port: config().PORT,
    ip: config().BIND_HOST,
    log4XXResponses: false,
    logRequest: null,
    logResponse: null,
    use: [accessLog],
    rootCallOptions(options: { requestID?: string }, req: IncomingMessage) {
      options.requestID = requestIdFrom(req);
    },
    routes: [
      ...apiRoutes(API_PREFIX, API_ROUTES, "authenticateApiKey"),
      ...apiRoutes(ADMIN_PREFIX, ADMIN_ROUTES, "authenticateAdmin"),
      {
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
            const expected = config().ADMIN_TOKEN;
            const presented = bearerToken(req.headers.authorization);
            if (!expected || !presented || !secretsEqual(presented, expected)) {
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
      },
    ],
    onError(this: GatewayService, req: GatewayRequest, res: ServerResponse, err: unknown) {
      this.sendErrorEnvelope(req, res, err);
    },
  },

  events: {
    /** A job changed somewhere on the network: to this gateway's subscribers of that job. */
    [JOB_CHANGED_EVENT](this: GatewayService, ctx: Context<unknown>) {
      if (isJobChangedPayload(ctx.params)) this.jobEvents.publish(ctx.params.org_id, ctx.params.job);
    },
  },

  /** Runs before moleculer-web's own `stopped` (which waits for open connections): streams end first. */
  stopped(this: GatewayService) {
    this.jobStreams.closeAll();
    this.jobEvents.closeAll();
  },

  methods: {
    /** Replaces moleculer-web's server: slow-client limits and request-target checks before routing (http-edge.ts). */
    createServer(this: GatewayService) {
      if (this.server) return;
      const cfg = config();
      // Built here, not in `created`: moleculer-web's own `created` calls createServer first.
      this.jobEvents = new JobEventHub((org_id, id) => call(this.broker, PipelineActions.get, { org_id, id }), {
        resyncMs: cfg.JOB_EVENTS_RESYNC_MS,
      });
      this.jobStreams = new JobEventStreams(this.jobEvents, {
        heartbeatMs: cfg.JOB_EVENTS_HEARTBEAT_MS,
        maxStreamsPerKey: cfg.JOB_EVENTS_MAX_STREAMS_PER_KEY,
      });
      const dashboard = dashboardHandler(this.broker, this.jobStreams);
      this.server = createEdgeServer(
        {
          headersTimeoutMs: cfg.HTTP_HEADERS_TIMEOUT_MS,
          requestTimeoutMs: cfg.HTTP_REQUEST_TIMEOUT_MS,
          keepAliveTimeoutMs: cfg.HTTP_KEEP_ALIVE_TIMEOUT_MS,
          maxConnectionsPerClient: cfg.HTTP_MAX_CONNECTIONS_PER_CLIENT,
        },
        (req, res) => dashboard(req, res) || this.httpHandler(req, res),
      );
      this.isHTTPS = false;
    },

    /** `/v1`: the API key is verified and the request counted against its rate window by the auth process that owns the key (docs/request-path.md). */
    async authenticateApiKey(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, res: ServerResponse) {
      const token = bearerToken(req.headers.authorization);
      const who = await call(ctx, AuthActions.authenticate, { token }, { nodeID: keyOwner(this.broker, "auth.authenticate", token ?? "") });
      for (const [name, value] of Object.entries(rateLimitHeaders(who.rateLimit))) res.setHeader(name, value);
      req.$orgId = who.org_id;
      ctx.meta.org_id = who.org_id;
      return { org_id: who.org_id, key_id: who.key_id };
    },

    /** `/admin`: the admin token, compared in constant time. An API key never matches it. */
    async authenticateAdmin(_ctx: Context, _route: unknown, req: GatewayRequest) {
      const expected = config().ADMIN_TOKEN;
      const presented = bearerToken(req.headers.authorization);
      if (!expected || !presented || !secretsEqual(presented, expected)) {
        throw new ApiError("invalid_admin_token", INVALID_ADMIN_TOKEN_MESSAGE);
      }
      return { admin: true };
    },

    /** Reads the body, validates path, query and body against the route's contract, and sets the action's params. */
    async prepareCall(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, _res: ServerResponse, alias: Alias) {
      const contract = contracts.get(`${alias.method} ${alias.fullPath}`);
      if (!contract) throw new Error(`no contract for ${alias.method} ${alias.fullPath}`);
      req.$contract = contract;
      const params = await readCallParams(contract, req, req.$params.params ?? {}, config().MAX_BODY_BYTES);
      req.$params = req.$orgId ? { ...params, org_id: req.$orgId } : params;
      ctx.meta.$statusCode = contract.status;
    },

    /** The one error path of every route: the shared errors module maps, the gateway logs and writes. */
    sendErrorEnvelope(req: GatewayRequest, res: ServerResponse, err: unknown) {
      const mapped = httpErrorResponse(err, { method: req.method, path: pathOf(req), methodsAt });
      if (mapped.unexpected) {
        rootLogger().error({ req_id: req.$ctx?.requestID, err: mapped.unexpected, method: req.method, path: pathOf(req) }, "request failed");
      }
      if (res.headersSent) return void res.end();
      writeErrorEnvelope(res, mapped.status, mapped.body, mapped.headers);
    },
  },
};

function pathOf(req: GatewayRequest): string {
  return (req.originalUrl ?? req.url ?? "/").split("?")[0];
}

export default GatewayServiceSchema;
