import { Errors } from "moleculer";
import {
  ApiError,
  ERROR_CATALOG,
  httpErrorResponse,
  InsufficientCreditsError,
  InvalidApiKeyError,
  isTransportError,
  RateLimitError,
  RETRY_AFTER_S,
  toHttpError,
  TRANSPORT_ERRORS,
  ValidationError,
} from "../../shared/errors";

describe("error catalog", () => {
  it("has every code of the spec and of the sibling surfaces with its status", () => {
    expect(ERROR_CATALOG).toMatchObject({
      invalid_request: 400,
      invalid_api_key: 401,
      insufficient_credits: 402,
      not_found: 404,
      rate_limit_exceeded: 429,
      internal_error: 500,
      publish_failed: 502,
      missing_rubric: 400,
      no_eligible_candidates: 400,
      no_cv: 400,
      job_limit: 403,
    });
  });
});

describe("mapping errors to HTTP", () => {
  it("maps platform errors to their status and envelope", () => {
    expect(toHttpError(new ValidationError("topic: is required"))).toEqual({
      status: 400,
      body: { error: { code: "invalid_request", message: "topic: is required" } },
    });
    expect(toHttpError(new InvalidApiKeyError()).status).toBe(401);
    const credits = toHttpError(new InsufficientCreditsError(13, 5));
    expect(credits.status).toBe(402);
    expect(credits.body.error.message).toContain("13");
    expect(credits.body.error.message).toContain("5");
    expect(toHttpError(new RateLimitError({ limit: 1, remaining: 0, reset: 1, retryAfter: 1 })).status).toBe(429);
    expect(toHttpError(new ApiError("job_limit", "plan limit")).status).toBe(403);
  });

  it("maps an error that crossed the transport by its type", () => {
    const remote = Object.assign(new Error("No such job."), { name: "ApiError", type: "not_found", code: 404 });
    expect(toHttpError(remote)).toEqual({ status: 404, body: { error: { code: "not_found", message: "No such job." } } });
  });

  it("never echoes an internal message", () => {
    const mapped = toHttpError(new Error("connection string mongodb://user:pw@host failed"));
    expect(mapped.status).toBe(500);
    expect(mapped.body.error.code).toBe("internal_error");
    expect(JSON.stringify(mapped.body)).not.toContain("mongodb://");
    expect(mapped.unexpected).toBeInstanceOf(Error);
  });

  it("maps an unavailable service to 503", () => {
    expect(toHttpError(new Errors.ServiceNotAvailableError({ action: "auth.authenticate" })).status).toBe(503);
    expect(toHttpError(new Errors.RequestRejectedError({ action: "pipeline.get", nodeID: "gone" })).status).toBe(503);
  });

  it("does not hand an expected unavailability to the error log (it is counted per outage)", () => {
    expect(toHttpError(new Errors.ServiceNotAvailableError({ action: "pipeline.get" })).unexpected).toBeUndefined();
    expect(toHttpError(Object.assign(new Error("lost"), { name: "MongoNetworkError" })).unexpected).toBeUndefined();
  });

  it("maps every way the MongoDB driver says the database went away to 503, by the names its own classes give", async () => {
    // Not exported by the package: the driver raises them from its connection pool (lib/cmap/errors.js).
    const { PoolClearedOnNetworkError, WaitQueueTimeoutError } = jest.requireActual<{
      PoolClearedOnNetworkError: new (pool: unknown) => Error;
      WaitQueueTimeoutError: new (message: string, address: string) => Error;
    }>("mongodb/lib/cmap/errors");
    const { MongoServerClosedError, MongoOperationTimeoutError, MongoNetworkError } = await import("mongodb");
    const pool = { address: "127.0.0.1:27017", serverGeneration: 0, options: { hostAddress: "127.0.0.1:27017" } };
    const raised: Error[] = [
      new PoolClearedOnNetworkError(pool),
      new WaitQueueTimeoutError("timed out", "127.0.0.1:27017"),
      new MongoServerClosedError(),
      new MongoOperationTimeoutError("timed out"),
      new MongoNetworkError("connection reset"),
    ];
    for (const err of raised) expect([err.name, toHttpError(err).status, toHttpError(err).unexpected]).toEqual([err.name, 503, undefined]);
  });
});

describe("the transport-error list", () => {
  // Each member, as the code that raises it builds it: the job waits (no attempt used) and HTTP answers 503.
  const raised: [string, Error][] = [
    ["ServiceNotFoundError", new Errors.ServiceNotFoundError({ action: "pipeline.get" })],
    ["ServiceNotAvailableError", new Errors.ServiceNotAvailableError({ action: "auth.authenticate" })],
    ["RequestTimeoutError", new Errors.RequestTimeoutError({ action: "billing.debit", nodeID: "n1" })],
    ["RequestRejectedError", new Errors.RequestRejectedError({ action: "pipeline.get", nodeID: "gone" })],
    ["RequestSkippedError", new Errors.RequestSkippedError({ action: "articles.create", nodeID: "n1" })],
    ["ServiceUnavailableError", new (require("moleculer-web").Errors.ServiceUnavailableError)()],
  ];

  it("has exactly the members below", () => {
    expect([...TRANSPORT_ERRORS].sort()).toEqual(raised.map(([name]) => name).sort());
  });

  it.each(raised)("%s is a transport error, answered 503 with a retry hint", (name, err) => {
    expect(err.name).toBe(name);
    expect(isTransportError(err)).toBe(true);
    const mapped = httpErrorResponse(err, { method: "GET", path: "/v1/jobs/x", methodsAt: () => [] });
    expect(mapped.status).toBe(503);
    expect(mapped.body.error.code).toBe("service_unavailable");
    expect(mapped.headers["retry-after"]).toBe(String(RETRY_AFTER_S));
  });

  it("does not take an action's own failure for one", () => {
    expect(isTransportError(new Errors.MoleculerError("boom", 500, "SOMETHING"))).toBe(false);
    expect(isTransportError(new ValidationError("x"))).toBe(false);
    expect(isTransportError(null)).toBe(false);
  });
});

describe("the HTTP edge's error responses", () => {
  const routeMiss = Object.assign(new Error("Not found"), { name: "NotFoundError", code: 404, type: "NOT_FOUND" });

  it("answers a route miss 405 with Allow when the path has other methods, else 404", () => {
    const wrongMethod = httpErrorResponse(routeMiss, { method: "DELETE", path: "/v1/usage", methodsAt: (p) => (p === "/v1/usage" ? ["GET"] : []) });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.body.error.code).toBe("method_not_allowed");
    expect(wrongMethod.headers.allow).toBe("GET");
    const none = httpErrorResponse(routeMiss, { method: "GET", path: "/v1/nothing", methodsAt: () => [] });
    expect(none).toEqual({ status: 404, body: { error: { code: "not_found", message: "No route for GET /v1/nothing." } }, headers: {} });
  });

  it("answers the web layer's own bad request 400 invalid_request", () => {
    const bad = Object.assign(new Error("Bad request"), { name: "BadRequestError", code: 400 });
    expect(httpErrorResponse(bad, { method: "GET", path: "/v1/jobs/%zz", methodsAt: () => [] }).body.error.code).toBe("invalid_request");
  });

  it("adds the rate-limit headers to a 429 and the challenge to a 401", () => {
    const limited = httpErrorResponse(new RateLimitError({ limit: 5, remaining: 0, reset: 100, retryAfter: 7 }), { path: "/v1/usage", methodsAt: () => [] });
    expect(limited.headers).toMatchObject({ "x-ratelimit-limit": "5", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "100", "retry-after": "7" });
    expect(httpErrorResponse(new InvalidApiKeyError(), { path: "/v1/usage", methodsAt: () => [] }).headers["www-authenticate"]).toBe('Bearer realm="api"');
  });

  describe("a write's 5xx: not sent, or sent with its outcome unknown", () => {
    const write = { method: "POST", path: "/v1/articles", methodsAt: () => [], sentTo: "articles.create", idempotencyKey: "k-1" };
    const code = (err: unknown, req: Parameters<typeof httpErrorResponse>[1] = write) => httpErrorResponse(err, req).body.error.code;

    it("says nothing changed when the call never left, or the service itself said so", () => {
      expect(code(new Errors.ServiceNotFoundError({ action: "articles.create" }))).toBe("service_unavailable");
      expect(code(new Errors.ServiceNotAvailableError({ action: "articles.create" }))).toBe("service_unavailable");
      expect(code(new ApiError("service_unavailable", "Billing is unreachable; nothing was charged."))).toBe("service_unavailable");
      expect(code(new Errors.RequestRejectedError({ action: "articles.create", nodeID: "n" }), { ...write, sentTo: undefined })).toBe("service_unavailable");
    });

    it("says the outcome is unknown when the call was sent and lost, timed out, or failed further on", () => {
      expect(code(new Errors.RequestRejectedError({ action: "articles.create", nodeID: "n" }))).toBe("outcome_unknown");
      expect(code(new Errors.RequestTimeoutError({ action: "articles.create", nodeID: "n" }))).toBe("outcome_unknown");
      // A service the action called was missing: the action may have written before that.
      expect(code(new Errors.ServiceNotFoundError({ action: "billing.quote" }))).toBe("outcome_unknown");
      expect(code(Object.assign(new Error("lost"), { name: "MongoNetworkError" }))).toBe("outcome_unknown");
      const internal = httpErrorResponse(new Error("bug"), write);
      expect(internal.status).toBe(500);
      expect(internal.body.error.message).toContain("outcome is unknown");
    });

    it("returns the key with the answer and tells to retry with it", () => {
      const lost = httpErrorResponse(new Errors.RequestRejectedError({ action: "articles.create", nodeID: "n" }), write);
      expect(lost.status).toBe(503);
      expect(lost.headers).toMatchObject({ "idempotency-key": "k-1", "retry-after": "2" });
      expect(lost.body.error.message).toContain("Retry with the same Idempotency-Key");
      expect(httpErrorResponse(new Errors.ServiceNotFoundError({ action: "articles.create" }), write).headers["idempotency-key"]).toBe("k-1");
    });
  });
});
