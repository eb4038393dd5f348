import type { IncomingMessage } from "node:http";
import { MAX_PATH_BYTES, pathProblem, rejectionFor, gateOf } from "../../services/gateway/http-edge";

describe("request-target checks at the HTTP edge", () => {
  it("lets ordinary targets through", () => {
    for (const t of ["/", "/v1/articles", "/v1/articles/5f2b6a4e-1111-4111-8111-111111111111?format=markdown", "/v1/usage?days=7&x=%20a+b", "/media/%C3%A9"]) {
      expect(pathProblem(t)).toBeNull();
    }
  });

  it("names what is wrong with a broken target", () => {
    expect(pathProblem("/v1/articles/%zz")).toBe("the request path has malformed percent-encoding");
    expect(pathProblem("/v1/jobs/%E0%A4%A")).toBe("the request path has malformed percent-encoding");
    expect(pathProblem("/v1/jobs/%")).toBe("the request path has malformed percent-encoding");
    expect(pathProblem("/v1/jobs/%C0%AF")).toBe("the request path has malformed percent-encoding");
    expect(pathProblem("/v1/jobs/%00")).toBe("the request path contains control characters");
    expect(pathProblem("/v1/jobs/..")).toBe("the request path contains dot segments or encoded separators");
    expect(pathProblem("/v1/jobs/%2e%2E")).toBe("the request path contains dot segments or encoded separators");
    expect(pathProblem("/v1/jobs/a%2Fb")).toBe("the request path contains dot segments or encoded separators");
    expect(pathProblem("/v1/jobs/a%5Cb")).toBe("the request path contains dot segments or encoded separators");
    expect(pathProblem(`/v1/jobs/${"a".repeat(257)}`)).toBe("a path segment exceeds 256 bytes");
    expect(pathProblem(`/${"a/".repeat(MAX_PATH_BYTES / 2)}`)).toBe(`the request path exceeds ${MAX_PATH_BYTES} bytes`);
    expect(pathProblem("*")).toBe("the request path must start with '/'");
    expect(pathProblem("http://evil.test/v1/usage")).toBe("the request path must start with '/'");
    expect(pathProblem("/v1/usage?days=%zz")).toBe("the query string has malformed percent-encoding");
  });

  it("gates every method and path under /v1 and /admin, known routes or not, except the public ones", () => {
    const req = (method: string, url: string) => ({ method, url, headers: {} }) as IncomingMessage;
    const open = new Set(["GET /v1/openapi.json"]);
    expect(gateOf(req("GET", "/v1/nonexistent"), open)).toBe("api");
    expect(gateOf(req("DELETE", "/v1/articles"), open)).toBe("api");
    expect(gateOf(req("GET", "/v1/jobs/%zz"), open)).toBe("api");
    expect(gateOf(req("GET", "/v1"), open)).toBe("api");
    expect(gateOf(req("POST", "/admin/orgs?x=1"), open)).toBe("admin");
    expect(gateOf(req("GET", "/v1/openapi.json?x"), open)).toBeNull();
    expect(gateOf(req("POST", "/v1/openapi.json"), open)).toBe("api");
    expect(gateOf(req("GET", "/v10/x"), open)).toBeNull();
    expect(gateOf(req("GET", "/media/x"), open)).toBeNull();
    expect(rejectionFor("x")).toEqual({ status: 400, code: "invalid_request", message: "Malformed request: x." });
  });
});
