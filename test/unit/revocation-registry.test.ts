import { RegistryWatch } from "../../services/auth/revocation";
import { KEY_CACHE_TTL_MS } from "../../shared/schemas/gateway";

describe("whether a revocation can trust the registry's list of gateways", () => {
  beforeEach(() => jest.useFakeTimers({ now: Date.parse("2026-11-24T10:00:00Z") }));
  afterEach(() => jest.useRealTimers());

  it("in one process there is no other gateway to miss", () => {
    expect(new RegistryWatch(false).stable()).toBe(true);
  });

  it("over a transport: not while new, nor for a cache TTL after any node came, went or changed", () => {
    const watch = new RegistryWatch(true);
    expect(watch.stable()).toBe(false);
    jest.advanceTimersByTime(KEY_CACHE_TTL_MS + 1);
    expect(watch.stable()).toBe(true);
    watch.changed(); // e.g. a gateway that missed heartbeats was dropped: it may still hold records
    expect(watch.stable()).toBe(false);
    jest.advanceTimersByTime(KEY_CACHE_TTL_MS);
    expect(watch.stable()).toBe(false);
    jest.advanceTimersByTime(1);
    expect(watch.stable()).toBe(true);
  });
});
