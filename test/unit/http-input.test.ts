import { buildParams } from "../../services/gateway/http-input";
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
