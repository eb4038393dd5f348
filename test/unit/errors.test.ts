import { Errors } from "moleculer";
import { ApiError, ERROR_CATALOG, InsufficientCreditsError, InvalidApiKeyError, RateLimitError, toHttpError, ValidationError } from "../../shared/errors";

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
});
