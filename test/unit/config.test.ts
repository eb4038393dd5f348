import { CONFIG_VARIABLES, loadConfig } from "../../shared/config";

describe("configuration", () => {
  it("has defaults that run the embedded platform", () => {
    const cfg = loadConfig({});
    expect(cfg.PORT).toBe(3000);
    expect(cfg.SERVICES).toHaveLength(7);
    expect(cfg.embeddedMongo).toBe(true);
    expect(cfg.NATS_URL).toBeUndefined();
  });

  it("parses service subsets and real backends", () => {
    const cfg = loadConfig({ SERVICES: "gateway, auth", NATS_URL: "nats://127.0.0.1:4222", MONGO_URL: "mongodb://db:27017" });
    expect(cfg.SERVICES).toEqual(["gateway", "auth"]);
    expect(cfg.embeddedMongo).toBe(false);
  });

  it.each([
    [{ PORT: "http" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ SERVICES: "gateway,mailer" }, "SERVICES"],
    [{ NATS_URL: "http://x" }, "NATS_URL"],
    [{ MONGO_URL: "postgres://x" }, "MONGO_URL"],
    [{ ADMIN_TOKEN: "short" }, "ADMIN_TOKEN"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
  ])("stops on a bad value and names the variable (%o)", (env, variable) => {
    expect(() => loadConfig(env)).toThrow(variable);
  });
});

describe("README configuration table", () => {
  it("lists every variable the platform reads, and nothing else", () => {
    const readme = require("node:fs").readFileSync(require("node:path").join(__dirname, "../../README.md"), "utf8") as string;
    const table = readme.slice(readme.indexOf("| Variable |"), readme.indexOf("## Architecture"));
    const documented = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    expect([...CONFIG_VARIABLES].sort()).toEqual([...documented].sort());
  });
});
