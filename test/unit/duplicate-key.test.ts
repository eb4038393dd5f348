import { MongoServerError } from "mongodb";
import { isDuplicateKeyError } from "../../shared/db/duplicate-key";

describe("the duplicate-key check", () => {
  it("recognizes a write refused by a unique index, and nothing else", () => {
    expect(isDuplicateKeyError(new MongoServerError({ code: 11000, errmsg: "E11000 duplicate key error" }))).toBe(true);
    expect(isDuplicateKeyError({ code: 11000 })).toBe(true);
    expect(isDuplicateKeyError(new MongoServerError({ code: 112, errmsg: "WriteConflict" }))).toBe(false);
    expect(isDuplicateKeyError(new Error("E11000 in a message only"))).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });
});
