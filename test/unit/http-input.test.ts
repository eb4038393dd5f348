import ApiGateway from "moleculer-web";
import { buildParams, splitTarget } from "../../services/gateway/http-input";
import { API_ROUTES } from "../../services/gateway/routes";

const usage = API_ROUTES.find((r) => r.method === "GET" && r.path === "/usage")!;
const params = (rawQuery: string, query: Record<string, string>) => buildParams(usage, { path: {}, query, rawQuery, body: {} });

describe("a route's query, validated once per query string", () => {
  it("answers the same validated params for the same string, as fresh objects a caller may change", () => {
    const first = params("days=7", { days: "7" });
    const again = params("days=7", { days: "7" });
    expect(first).toEqual({ days: 7 });
    expect(again).toEqual({ days: 7 });
    first.days = 1;
    expect(params("days=7", { days: "7" })).toEqual({ days: 7 });
  });

  it("refuses an invalid string every time, and never keeps it", () => {
    for (let i = 0; i < 2; i++) expect(() => params("days=abc", { days: "abc" })).toThrow(/days: must be a whole number/);
    expect(() => params("nope=1", { nope: "1" })).toThrow(/nope/);
  });

  it("validates a string longer than the memo's bound too", () => {
    const long = "x".repeat(300);
    expect(() => params(`days=1&${long}=1`, { days: "1", [long]: "1" })).toThrow(/x{10}/);
  });
});

describe("splitting a request-target, query strings parsed once", () => {
  // moleculer-web's own parser, as the gateway hands it to splitTarget.
  const original = (ApiGateway as unknown as { methods: { parseQueryString(this: unknown, r: { url: string }): { url: string; query: Record<string, unknown> } } }).methods
    .parseQueryString;
  const parse = (raw: string) => original.call({ settings: {} }, { url: `/?${raw}` }).query;

  it("answers what moleculer-web's parser answers", () => {
    for (const target of ["/v1/usage?days=7", "/v1/jobs/abc", "/v1/articles?limit=5&cursor=x%20y", "/?a=1", "/v1/x?a[b]=1&c=2", "/v1/x?", `/v1/x?${"k=v&".repeat(100)}`]) {
      expect(splitTarget(target, parse)).toEqual(original.call({ settings: {} }, { url: target }));
    }
  });

  it("hands every request its own copy of a kept parse", () => {
    const first = splitTarget("/v1/usage?days=7", parse);
    first.query.days = "1";
    expect(splitTarget("/v1/usage?days=7", parse).query).toEqual({ days: "7" });
  });

  it("parses a string once, and never keeps a nested one", () => {
    let calls = 0;
    const counting = (raw: string) => (calls++, parse(raw));
    splitTarget("/v1/usage?days=3", counting);
    splitTarget("/v1/other?days=3", counting);
    expect(calls).toBe(1);
    splitTarget("/v1/x?a[b]=1", counting);
    splitTarget("/v1/x?a[b]=1", counting);
    expect(calls).toBe(3);
  });
});
