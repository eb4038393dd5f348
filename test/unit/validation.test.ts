import { z } from "zod";
import { formatIssues, parseOrThrow, queryInt } from "../../shared/validation";

describe("validation messages", () => {
  const schema = z.strictObject({ name: z.string().min(1, "must not be empty"), n: z.number().int().optional() });

  it("lists every problem as field: problem joined with '; '", () => {
    const result = schema.safeParse({ n: 1.5, extra: 1, other: 2 }, { reportInput: true });
    expect(result.success).toBe(false);
    const message = formatIssues(result.error!.issues);
    expect(message.split("; ")).toEqual(expect.arrayContaining(["name: is required", "extra: unknown field", "other: unknown field"]));
    expect(message).toMatch(/n: /);
    expect(message).not.toContain("n: is required");
  });

  it("tells a wrong type from a missing field", () => {
    expect(() => parseOrThrow(schema, { name: 5 })).toThrow(/name: (?!is required)/);
    expect(() => parseOrThrow(schema, {})).toThrow("name: is required");
  });

  it("throws a 400 with the message", () => {
    expect(() => parseOrThrow(schema, { name: "" })).toThrow("name: must not be empty");
  });

  it("parses query integers strictly, with default and cap", () => {
    const days = z.strictObject({ days: queryInt({ min: 1, max: 90, default: 30, clampToMax: true }) });
    expect(days.parse({})).toEqual({ days: 30 });
    expect(days.parse({ days: "7" })).toEqual({ days: 7 });
    expect(days.parse({ days: "365" })).toEqual({ days: 90 });
    for (const bad of ["0", "-1", "1.5", "abc", "1e3", "0x10", ""]) expect(days.safeParse({ days: bad }).success).toBe(false);
  });
});
