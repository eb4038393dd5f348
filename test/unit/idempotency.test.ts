import { assertSameRequest, idForKey, requestHash } from "../../shared/idempotency";
import { uuid } from "../../shared/validation";

/** The primitives of keyed creation (shared/idempotency.ts). */
describe("idempotent creation under a key", () => {
  it("derives the same UUID for the same scope, owner and key, and another for any other", () => {
    const id = idForKey("webhooks.endpoint", "org-1", "key-1");
    expect(uuid.safeParse(id).success).toBe(true);
    expect(idForKey("webhooks.endpoint", "org-1", "key-1")).toBe(id);
    expect(new Set([id, idForKey("webhooks.endpoint", "org-2", "key-1"), idForKey("brand-knowledge.profile", "org-1", "key-1"), idForKey("webhooks.endpoint", "org-1", "key-2")]).size).toBe(4);
    // The parts are kept apart: ("a", "bc") is not ("ab", "c").
    expect(idForKey("s", "a", "bc")).not.toBe(idForKey("s", "ab", "c"));
  });

  it("hashes a request whatever its key order, and refuses another request under the same key", () => {
    expect(requestHash({ a: 1, b: { c: [1, 2], d: "x" } })).toBe(requestHash({ b: { d: "x", c: [1, 2] }, a: 1 }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
    expect(() => assertSameRequest(requestHash({ a: 1 }), requestHash({ a: 1 }))).not.toThrow();
    expect(() => assertSameRequest(requestHash({ a: 1 }), requestHash({ a: 2 }))).toThrow("Idempotency-Key: was already used with a different request body");
    // A resource created without a key has no hash: nothing to compare.
    expect(() => assertSameRequest(undefined, requestHash({ a: 2 }))).not.toThrow();
  });
});
