import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { bearerToken, secretsEqual } from "../../shared/bearer";
import { config } from "../../shared/config";
import { ApiError, NotFoundError, envelope, rateLimitHeaders, toHttpError, type RateLimitState } from "../../shared/errors";
import { rootLogger } from "../../shared/logger";
import { checkReadiness, writeHealth } from "../../shared/runtime/health";
import { keyOwner } from "../../shared/runtime/key-owner";
import { DOCS_PATH, writeDocsAsset, writeDocsPage, writeOpenApi } from "./docs-page";
import { createEdgeServer } from "./http-edge";
import { buildParams, readJsonBody } from "./http-input";
import { OPENAPI_PATH, openApiJson } from "./openapi";
import { ADMIN_PREFIX, ADMIN_ROUTES, API_PREFIX, API_ROUTES, locationOf, methodsAt, requiredServices, type RouteContract } from "./routes";
import { accessLog, requestIdFrom } from "./request-log";

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
  isHTTPS?: boolean;
  httpHandler(req: IncomingMessage, res: ServerResponse): void;
  sendErrorEnvelope(req: GatewayRequest, res: ServerResponse, err: unknown): void;
};

const contracts = new Map<string, RouteContract>();
function aliasesFor(prefix: string, routes: RouteContract[]): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const r of routes) {
    contracts.set(`${r.method} ${prefix}${r.path}`, r);
    aliases[`${r.method} ${r.path}`] = r.action;
  }
  return aliases;
}

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
    ip: "0.0.0.0",
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
            req.$ctx
              .call<{ headers: Record<string, string>; body_base64: string }, object>("articles.getMedia", { id: String(req.$params.id) })
              .then((media) => {
                const bytes = Buffer.from(media.body_base64, "base64");
                res.writeHead(200, { ...media.headers, "content-length": bytes.length });
                res.end(bytes);
              })
              .catch((err: unknown) => this.sendErrorEnvelope(req, res, err));
          },
        },
      },
    ],
    onError(this: GatewayService, req: GatewayRequest, res: ServerResponse, err: unknown) {
      this.sendErrorEnvelope(req, res, err);
    },
  },

  methods: {
    /** Replaces moleculer-web's server: slow-client limits and request-target checks before routing (http-edge.ts). */
    createServer(this: GatewayService) {
      if (this.server) return;
      const cfg = config();
      this.server = createEdgeServer(
        {
          headersTimeoutMs: cfg.HTTP_HEADERS_TIMEOUT_MS,
          requestTimeoutMs: cfg.HTTP_REQUEST_TIMEOUT_MS,
          keepAliveTimeoutMs: cfg.HTTP_KEEP_ALIVE_TIMEOUT_MS,
          maxConnectionsPerClient: cfg.HTTP_MAX_CONNECTIONS_PER_CLIENT,
        },
        (req, res) => this.httpHandler(req, res),
      );
      this.isHTTPS = false;
    },

    /** `/v1`: the API key is verified and the request counted against its rate window by the auth process that owns the key (docs/request-path.md). */
    async authenticateApiKey(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, res: ServerResponse) {
      const token = bearerToken(req.headers.authorization);
      const who = await ctx.call<{ org_id: string; key_id: string; rateLimit: RateLimitState }, object>(
        "auth.authenticate",
        { token },
        { nodeID: keyOwner(this.broker, "auth.authenticate", token ?? "") },
      );
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
        throw new ApiError("invalid_admin_token", "Invalid admin token. Pass ADMIN_TOKEN as a bearer token: 'Authorization: Bearer <ADMIN_TOKEN>'.");
      }
      return { admin: true };
    },

    /** Reads the body, validates path, query and body against the route's contract, and sets the action's params. */
    async prepareCall(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, _res: ServerResponse, alias: Alias) {
      const contract = contracts.get(`${alias.method} ${alias.fullPath}`);
      if (!contract) throw new Error(`no contract for ${alias.method} ${alias.fullPath}`);
      req.$contract = contract;
      const body = contract.body ? await readJsonBody(req, config().MAX_BODY_BYTES) : {};
      const params = buildParams(contract, { path: req.$params.params ?? {}, query: req.query, body, headers: req.headers });
      req.$params = req.$orgId ? { ...params, org_id: req.$orgId } : params;
      ctx.meta.$statusCode = contract.status;
    },

    sendErrorEnvelope(req: GatewayRequest, res: ServerResponse, err: unknown) {
      const e = err as { name?: string; code?: unknown; type?: string; data?: { rateLimit?: RateLimitState } };
      let mapped = toHttpError(err);
      if (e?.name === "NotFoundError" && e.code === 404 && e.type === "NOT_FOUND") {
        mapped = routeMiss(req, res);
      } else if (e?.name === "BadRequestError" && e.code === 400) {
        // moleculer-web's own refusals (e.g. a path parameter it cannot decode): the client's request, not our fault.
        mapped = { status: 400, body: envelope("invalid_request", "Malformed request: the request path or query could not be decoded.") };
      }
      if (mapped.unexpected) {
        rootLogger().error({ req_id: req.$ctx?.requestID, err: mapped.unexpected, method: req.method, path: pathOf(req) }, "request failed");
      }
      if (res.headersSent) return void res.end();
      if (e?.type === "rate_limit_exceeded" && e.data?.rateLimit) {
        for (const [name, value] of Object.entries(rateLimitHeaders(e.data.rateLimit))) res.setHeader(name, value);
        res.setHeader("retry-after", String(e.data.rateLimit.retryAfter));
      }
      if (mapped.status === 401) res.setHeader("www-authenticate", 'Bearer realm="api"');
      // Nothing changed (docs/failure-semantics.md): say when to come back.
      if (mapped.status === 503) res.setHeader("retry-after", String(RETRY_AFTER_S));
      const payload = JSON.stringify(mapped.body);
      res.writeHead(mapped.status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(payload) });
      res.end(payload);
    },
  },
};

/** Seconds a client is told to wait after a 503: about the time a lost node takes to be noticed and replaced. */
const RETRY_AFTER_S = 2;

function pathOf(req: GatewayRequest): string {
  return (req.originalUrl ?? req.url ?? "/").split("?")[0];
}

/** No route matched: 405 when the path exists for other methods, 404 otherwise. */
function routeMiss(req: GatewayRequest, res: ServerResponse) {
  const path = pathOf(req);
  const allowed = methodsAt(path.length > 1 ? path.replace(/\/$/, "") : path);
  if (allowed.length) {
    res.setHeader("allow", allowed.join(", "));
    return { status: 405, body: envelope("method_not_allowed", `Method ${req.method} is not allowed on ${path}. Allowed: ${allowed.join(", ")}.`) };
  }
  return { status: 404, body: envelope("not_found", `No route for ${req.method} ${path}.`) };
}

export default GatewayServiceSchema;
