import { Errors, ServiceBroker } from "moleculer";
import { serializeError } from "../../shared/logger";
import { UnavailabilityLog, serviceOf, unavailabilityLogMiddleware } from "../../shared/runtime/unavailability-log";

/** An outage is two warn lines (start, end with a count), whatever the number of calls refused in between. */
describe("the unavailability log", () => {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  const warn = (obj: Record<string, unknown>, msg: string) => void lines.push({ obj, msg });
  beforeEach(() => (lines.length = 0));

  it("logs the start once and the end once with the count and duration", () => {
    let now = 1000;
    const log = new UnavailabilityLog(() => now, warn);
    for (let i = 0; i < 500; i++) log.refused("pipeline", "ServiceNotAvailableError");
    expect(lines).toHaveLength(1);
    expect(lines[0].obj).toEqual({ service: "pipeline", reason: "ServiceNotAvailableError" });
    now = 4000;
    log.served("pipeline");
    log.served("pipeline");
    expect(lines).toHaveLength(2);
    expect(lines[1].obj).toEqual({ service: "pipeline", reason: "ServiceNotAvailableError", refused: 500, down_ms: 3000 });
    expect(log.outages()).toEqual([]);
  });

  it("ends an outage when the registry has the service again", () => {
    const log = new UnavailabilityLog(Date.now, warn);
    log.refused("pipeline", "RequestRejectedError");
    log.refused("billing", "ServiceNotFoundError");
    log.recheck((s) => s === "billing");
    expect(log.outages()).toEqual(["pipeline"]);
  });

  it("names the service of an action", () => {
    expect(serviceOf("pipeline.get")).toBe("pipeline");
    expect(serviceOf("brand-knowledge.getProfile")).toBe("brand-knowledge");
  });

  it("counts a broker's calls: expected failures only, a success ends the outage", async () => {
    const log = new UnavailabilityLog(Date.now, warn);
    const broker = new ServiceBroker({ logger: false, middlewares: [unavailabilityLogMiddleware(log)] });
    let fail: Error | null = null;
    broker.createService({ name: "echo", actions: { say: () => { if (fail) throw fail; return "ok"; } } });
    await broker.start();
    try {
      await expect(broker.call("nothing.here")).rejects.toThrow();
      expect(log.outages()).toEqual(["nothing"]);
      fail = new Error("a bug");
      await expect(broker.call("echo.say")).rejects.toThrow("a bug");
      expect(log.outages()).toEqual(["nothing"]);
      fail = new Errors.RequestTimeoutError({ action: "echo.say", nodeID: "x" });
      await expect(broker.call("echo.say")).rejects.toThrow();
      expect(log.outages()).toEqual(["nothing", "echo"]);
      fail = null;
      await broker.call("echo.say");
      expect(log.outages()).toEqual(["nothing"]);
    } finally {
      await broker.stop();
    }
  });
});

describe("logged errors", () => {
  it("carry a stack only when unexpected", () => {
    expect(serializeError(new Errors.ServiceNotAvailableError({ action: "pipeline.get" }))).toEqual({ type: "ServiceNotAvailableError", message: "Service 'pipeline.get' is not available." });
    expect(serializeError(new Error("a bug"))).toMatchObject({ type: "Error", message: "a bug", stack: expect.stringContaining("a bug") });
  });
});
