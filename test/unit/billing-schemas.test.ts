import { addDays, daysEndingOn } from "../../services/billing/usage";
import { ValidationError } from "../../shared/errors";
import { DebitParams, GrantParams, RecordRequestsParams, UsageParams, UsageQuery } from "../../shared/schemas/billing";
import { parseOrThrow } from "../../shared/validation";

const ORG = "0b6f1c2e-8f4a-4a53-9d2e-3f1d2b7c9a10";

function problem(schema: Parameters<typeof parseOrThrow>[0], input: unknown): string {
  try {
    parseOrThrow(schema, input);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as ValidationError).message;
  }
  throw new Error("expected a validation error");
}

describe("UsageQuery (GET /v1/usage)", () => {
  it("defaults days to 30", () => {
    expect(parseOrThrow(UsageQuery, {})).toEqual({ days: 30 });
  });

  it.each([
    ["1", 1],
    ["7", 7],
    ["90", 90],
    ["91", 90],
    ["365", 90],
    ["000012", 12],
  ])("days=%s is read as %i (capped at 90)", (days, expected) => {
    expect(parseOrThrow(UsageQuery, { days })).toEqual({ days: expected });
  });

  it.each([
    ["0", "days: must be at least 1"],
    ["abc", "days: must be a whole number"],
    ["1.5", "days: must be a whole number"],
    ["-1", "days: must be a whole number"],
    ["", "days: must be a whole number"],
    ["1e3", "days: must be a whole number"],
  ])("days=%j is a 400: %s", (days, message) => {
    expect(problem(UsageQuery, { days })).toBe(message);
  });

  it("rejects a repeated days parameter", () => {
    expect(problem(UsageQuery, { days: ["1", "2"] })).toMatch(/^days: /);
  });

  it("rejects unknown parameters, naming each", () => {
    expect(problem(UsageQuery, { days: "7", limit: "5", from: "x" })).toBe("limit: unknown field; from: unknown field");
  });
});

describe("UsageParams (billing.usage)", () => {
  it("defaults to 30 days and caps at 90", () => {
    expect(parseOrThrow(UsageParams, { org_id: ORG })).toEqual({ org_id: ORG, days: 30 });
    expect(parseOrThrow(UsageParams, { org_id: ORG, days: 400 })).toEqual({ org_id: ORG, days: 90 });
  });

  it("requires an organization UUID", () => {
    expect(problem(UsageParams, { days: 3 })).toBe("org_id: is required");
    expect(problem(UsageParams, { org_id: "acme", days: 3 })).toBe("org_id: must be a UUID");
  });
});

describe("DebitParams and GrantParams", () => {
  it("accepts a well-formed debit", () => {
    const params = { org_id: ORG, amount: 10, reference: "job:1", reason: "article" };
    expect(parseOrThrow(DebitParams, params)).toEqual(params);
  });

  it("lists every problem of a bad debit", () => {
    expect(problem(DebitParams, { org_id: ORG, amount: 0, reference: "", reason: "x", extra: true })).toBe(
      "amount: must be at least 1; reference: must not be empty; extra: unknown field",
    );
  });

  it("bounds a grant and makes its reference optional", () => {
    expect(parseOrThrow(GrantParams, { org_id: ORG, amount: 5, reason: "promo" })).toEqual({ org_id: ORG, amount: 5, reason: "promo" });
    expect(problem(GrantParams, { org_id: ORG, amount: 10_000_001, reason: " " })).toBe(
      "amount: must be at most 10000000; reason: must not be empty",
    );
  });
});

describe("RecordRequestsParams", () => {
  it("accepts calendar days only", () => {
    expect(parseOrThrow(RecordRequestsParams, { counts: [{ org_id: ORG, day: "2024-02-29", requests: 3 }] }).counts).toHaveLength(1);
    expect(problem(RecordRequestsParams, { counts: [{ org_id: ORG, day: "2025-02-29", requests: 3 }] })).toBe("counts.0.day: must be a calendar date");
    expect(problem(RecordRequestsParams, { counts: [{ org_id: ORG, day: "2025-2-1", requests: 3 }] })).toBe("counts.0.day: must be a date YYYY-MM-DD");
  });
});

describe("usage windows", () => {
  it("shifts days across month and year ends", () => {
    expect(addDays("2024-12-31", 1)).toBe("2025-01-01");
    expect(addDays("2024-03-01", -1)).toBe("2024-02-29");
  });

  it("lists the days ending today, oldest first", () => {
    expect(daysEndingOn("2025-01-02", 4)).toEqual(["2024-12-30", "2024-12-31", "2025-01-01", "2025-01-02"]);
    expect(daysEndingOn("2025-01-02", 1)).toEqual(["2025-01-02"]);
    expect(daysEndingOn("2025-06-30", 90)).toHaveLength(90);
  });
});
