import type { IncomingMessage } from "node:http";
import { MAX_PATH_BYTES, pathProblem, rejectionFor } from "../../services/gateway/http-edge";

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

  it("answers 401 on authenticated prefixes without a bearer token, 400 otherwise", () => {
    const req = (url: string, authorization?: string) => ({ url, headers: authorization ? { authorization } : {} }) as IncomingMessage;
    expect(rejectionFor(req("/v1/articles/%zz"), "x")).toMatchObject({ status: 401, code: "invalid_api_key" });
    expect(rejectionFor(req("/admin/orgs/%zz/keys"), "x")).toMatchObject({ status: 401, code: "invalid_admin_token" });
    expect(rejectionFor(req("/v1/articles/%zz", "Bearer k"), "x")).toMatchObject({ status: 400, code: "invalid_request", message: "Malformed request: x." });
    expect(rejectionFor(req("/v1/articles/%zz", "Basic abc"), "x")).toMatchObject({ status: 401 });
    expect(rejectionFor(req("/media/%zz"), "x")).toMatchObject({ status: 400 });
  });
});
