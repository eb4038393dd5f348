import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { call, serve } from "../../shared/action";
import { bearerToken, isAdminToken } from "../../shared/bearer";
import { systemClock } from "../../shared/clock";
import { config } from "../../shared/config";
import { JOB_CHANGED_EVENT, isJobChangedPayload } from "../../shared/events/job-changed";
import { USAGE_CHANGED_EVENT, UsageChangedPayload } from "../../shared/events/usage-changed";
import { ApiError, httpErrorResponse, INVALID_ADMIN_TOKEN_MESSAGE, InvalidApiKeyError, rateLimitHeaders, writeErrorEnvelope } from "../../shared/errors";
import { rootLogger } from "../../shared/logger";
import { GatewayActions } from "../../shared/schemas/gateway";
import { PipelineActions } from "../../shared/schemas/jobs";
import { KeyAdmission } from "./admission/admission";
import { dashboardHandler } from "./dashboard";
import { contractOf, gatewayRoutes, type Alias, type GatewayRequest, type GatewayService } from "./gateway-routes";
import { closeWithoutReading, createEdgeServer, type Gate } from "./http-edge";
import { bodyUnread, readCallParams, splitTarget } from "./http-input";
import { assignIdempotencyKey, idempotencyKeyOf } from "./idempotency-key";
import { JobEventHub } from "./job-events/hub";
import { JobEventStreams } from "./job-events/sse";
import { gatewayReadCache } from "./read-cache";
import { OPENAPI_PATH } from "./openapi";
import { jsonOf } from "./read-cache/answers";
import { accessLog, requestIdFrom } from "./request-log";
import { methodsAt } from "./routes";

/** Public paths under an authenticated prefix: the API's own description. */
const PUBLIC_TARGETS: ReadonlySet<string> = new Set([`GET ${OPENAPI_PATH}`]);

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
    routes: gatewayRoutes(),
    onError(this: GatewayService, req: GatewayRequest, res: ServerResponse, err: unknown) {
      this.sendErrorEnvelope(req, res, err);
    },
  },

  actions: {
    /** A request of a key this gateway owns, sent by the gateway that received it (docs/request-path.md#ownership). */
    admit: serve(GatewayActions.admit, ({ key_hash }, _ctx, svc: GatewayService) => svc.admission.admit(key_hash)),
    /** The revocation notice: the key's next request is looked up again; the revoke call waits for this answer. */
    forgetKey: serve(GatewayActions.forgetKey, ({ key_hash }, _ctx, svc: GatewayService) => {
      svc.admission.keys.forget(key_hash);
      return { forgotten: true as const };
    }),
  },

  events: {
    /** A job changed somewhere on the network: to this gateway's subscribers of that job. */
    [JOB_CHANGED_EVENT](this: GatewayService, ctx: Context<unknown>) {
      if (isJobChangedPayload(ctx.params)) this.jobEvents.publish(ctx.params.org_id, ctx.params.job);
    },
    /** Billing changed organizations' usage: this gateway's cached usage of them is dropped. */
    [USAGE_CHANGED_EVENT](this: GatewayService, ctx: Context<unknown>) {
      const notice = UsageChangedPayload.safeParse(ctx.params);
      if (notice.success) this.readCache.usage.invalidate(notice.data.org_ids);
    },
  },

  created(this: GatewayService) {
    this.admission = new KeyAdmission(this.broker, systemClock);
  },

  started(this: GatewayService) {
    this.admission.start(config().USAGE_FLUSH_MS);
  },

  /** Runs before moleculer-web's own `stopped` (which waits for open connections): streams end first. */
  async stopped(this: GatewayService) {
    this.jobStreams.closeAll();
    this.jobEvents.closeAll();
    await this.admission.stop();
  },

  methods: {
    /** Replaces moleculer-web's server: slow-client limits and request-target checks before routing (http-edge.ts). */
    createServer(this: GatewayService) {
      if (this.server) return;
      const cfg = config();
      // Built here, not in `created`: moleculer-web's own `created` calls createServer first.
      this.readCache = gatewayReadCache(this.broker, cfg.USAGE_CACHE_TTL_MS);
      const readJob = (org_id: string, id: string) => call(this.broker, PipelineActions.get, { org_id, id });
      this.jobEvents = new JobEventHub((org_id, id) => this.readCache.job(org_id, id, () => readJob(org_id, id), "job-events"), {
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
        {
          publicTargets: PUBLIC_TARGETS,
          admit: (req, res, gate) => this.admitAtEdge(req as GatewayRequest, res, gate),
          refuse: (req, res, err) => {
            res.setHeader("x-request-id", requestIdFrom(req));
            accessLog(req, res, () => undefined);
            closeWithoutReading(req, res);
            this.sendErrorEnvelope(req as GatewayRequest, res, err);
          },
        },
        (req, res) => dashboard(req, res) || this.httpHandler(req, res),
      );
      this.isHTTPS = false;
    },

    /**
     * Every `/v1` and `/admin` request, at the edge, before routing and before any body byte is read
     * (http-edge.ts): the API key is verified and the request counted against its rate window by the
     * gateway that owns the key (docs/request-path.md); the admin token is compared in constant time
     * (an API key never matches it).
     */
    async admitAtEdge(req: GatewayRequest, res: ServerResponse, gate: Gate) {
      assignIdempotencyKey(req, res);
      if (gate === "admin") {
        if (!isAdminToken(bearerToken(req.headers.authorization))) throw new ApiError("invalid_admin_token", INVALID_ADMIN_TOKEN_MESSAGE);
        return;
      }
      const who = await this.admission.admitToken(this.broker, bearerToken(req.headers.authorization));
      for (const [name, value] of Object.entries(rateLimitHeaders(who.rateLimit))) res.setHeader(name, value);
      req.$admitted = who;
    },

    /** `/v1`: the route's view of the key the edge admitted (admitAtEdge). */
    async authenticateApiKey(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest) {
      const who = req.$admitted;
      if (!who) throw new InvalidApiKeyError();
      req.$orgId = who.org_id;
      ctx.meta.org_id = who.org_id;
      return { org_id: who.org_id, key_id: who.key_id };
    },

    /** `/admin`: checked at the edge already (admitAtEdge); checked again here, it costs a comparison. */
    async authenticateAdmin(_ctx: Context, _route: unknown, req: GatewayRequest) {
      if (!isAdminToken(bearerToken(req.headers.authorization))) {
        throw new ApiError("invalid_admin_token", INVALID_ADMIN_TOKEN_MESSAGE);
      }
      return { admin: true };
    },

    /** Reads the body, validates path, query and body against the route's contract, and sets the action's params. */
    async prepareCall(ctx: Context<unknown, Record<string, unknown>>, _route: unknown, req: GatewayRequest, _res: ServerResponse, alias: Alias) {
      const contract = contractOf(alias);
      if (!contract) throw new Error(`no contract for ${alias.method} ${alias.fullPath}`);
      req.$contract = contract;
      const params = await readCallParams(contract, req, req.$params.params ?? {}, config().MAX_BODY_BYTES);
      req.$params = req.$orgId ? { ...params, org_id: req.$orgId } : params;
      ctx.meta.$statusCode = contract.status;
      // moleculer-web calls the action next: from here a write's 5xx may follow a change (sendErrorEnvelope).
      if (contract.method !== "GET") req.$sentTo = contract.action;
    },

    /** moleculer-web's split of the request-target, with short query strings parsed once (http-input.ts). */
    parseQueryString(this: GatewayService, req: IncomingMessage) {
      const parse = (ApiGateway as unknown as { methods: { parseQueryString(this: unknown, r: { url: string }): { query: Record<string, unknown> } } }).methods.parseQueryString;
      return splitTarget(req.url ?? "/", (raw) => parse.call(this, { url: `/?${raw}` }).query);
    },

    /** moleculer-web's JSON encoding of an answer: a cached (frozen) answer's text is made once (read-cache/answers.ts). */
    encodeResponse(_req: GatewayRequest, _res: ServerResponse, data: unknown) {
      return jsonOf(data);
    },

    /** The one error path of every route: the shared errors module maps, the gateway logs and writes. */
    sendErrorEnvelope(req: GatewayRequest, res: ServerResponse, err: unknown) {
      const mapped = httpErrorResponse(err, { method: req.method, path: pathOf(req), methodsAt, sentTo: req.$sentTo, idempotencyKey: idempotencyKeyOf(req) });
      if (mapped.unexpected) {
        rootLogger().error({ req_id: req.$ctx?.requestID, err: mapped.unexpected, method: req.method, path: pathOf(req) }, "request failed");
      }
      if (res.headersSent) return void res.end();
      // An answer before the body was read closes the connection: the rest of the body is not read to keep it alive.
      if (bodyUnread(req)) closeWithoutReading(req, res);
      writeErrorEnvelope(res, mapped.status, mapped.body, mapped.headers);
    },
  },
};

function pathOf(req: GatewayRequest): string {
  return (req.originalUrl ?? req.url ?? "/").split("?")[0];
}

export default GatewayServiceSchema;
