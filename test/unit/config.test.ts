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

describe("web search configuration", () => {
  it("names the variable a chosen provider is missing", () => {
    expect(() => loadConfig({ SEARCH_PROVIDER: "searxng" })).toThrow("SEARXNG_URL: is required when SEARCH_PROVIDER is searxng");
    expect(() => loadConfig({ SEARCH_PROVIDER: "tavily" })).toThrow("TAVILY_API_KEY: is required when SEARCH_PROVIDER is tavily");
    expect(() => loadConfig({ SEARCH_PROVIDER: "brave" })).toThrow("BRAVE_SEARCH_API_KEY: is required when SEARCH_PROVIDER is brave");
    expect(() => loadConfig({ SEARCH_PROVIDER: "google" })).toThrow("SEARCH_PROVIDER: must be none, searxng, tavily or brave");
  });

  it("defaults the hosted APIs' addresses and takes overrides without a trailing slash", () => {
    const tavily = loadConfig({ SEARCH_PROVIDER: "tavily", TAVILY_API_KEY: "tvly-abc123\n" });
    expect(tavily).toMatchObject({ SEARCH_PROVIDER: "tavily", TAVILY_API_KEY: "tvly-abc123", TAVILY_BASE_URL: "https://api.tavily.com", BRAVE_SEARCH_BASE_URL: "https://api.search.brave.com" });
    const brave = loadConfig({ SEARCH_PROVIDER: "brave", BRAVE_SEARCH_API_KEY: "BSAabc", BRAVE_SEARCH_BASE_URL: "http://127.0.0.1:4567/" });
    expect(brave).toMatchObject({ BRAVE_SEARCH_API_KEY: "BSAabc", BRAVE_SEARCH_BASE_URL: "http://127.0.0.1:4567" });
    // A key may be set while another provider (or none) is chosen: it is simply unused.
    expect(loadConfig({ TAVILY_API_KEY: "tvly-abc" }).SEARCH_PROVIDER).toBe("none");
  });

  it.each([
    [{ TAVILY_BASE_URL: "ftp://api.tavily.com" }, "TAVILY_BASE_URL: must be an http(s) URL"],
    [{ BRAVE_SEARCH_BASE_URL: "api.search.brave.com" }, "BRAVE_SEARCH_BASE_URL: must be an http(s) URL"],
  ])("refuses a base address that is not http(s) (%o)", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it("refuses a malformed key without quoting it", () => {
    for (const [name, value] of [["TAVILY_API_KEY", "tvly-secret with space"], ["BRAVE_SEARCH_API_KEY", "BSA-secret\u00e9"]]) {
      const error = (() => {
        try {
          loadConfig({ SEARCH_PROVIDER: name === "TAVILY_API_KEY" ? "tavily" : "brave", [name]: value });
        } catch (e) {
          return e as Error;
        }
        throw new Error("accepted");
      })();
      expect(error.message).toContain(`${name}: must be printable ASCII without spaces`);
      expect(error.message).not.toContain("secret");
    }
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
