import { loadConfig } from "../../shared/config";
import { searchProviderFrom } from "../../services/pipeline/article/evidence/search/from-config";
import { BraveSearchProvider } from "../../services/pipeline/article/evidence/search/brave";
import { SearxngProvider } from "../../services/pipeline/article/evidence/search/searxng";
import { TavilyProvider } from "../../services/pipeline/article/evidence/search/tavily";

describe("the search provider SEARCH_PROVIDER names", () => {
  it("is built from the configuration", () => {
    expect(searchProviderFrom(loadConfig({}))).toBeUndefined();
    expect(searchProviderFrom(loadConfig({ SEARCH_PROVIDER: "searxng", SEARXNG_URL: "http://searxng:8080" }))).toBeInstanceOf(SearxngProvider);
    expect(searchProviderFrom(loadConfig({ SEARCH_PROVIDER: "tavily", TAVILY_API_KEY: "tvly-abc" }))).toBeInstanceOf(TavilyProvider);
    expect(searchProviderFrom(loadConfig({ SEARCH_PROVIDER: "brave", BRAVE_SEARCH_API_KEY: "BSAabc" }))).toBeInstanceOf(BraveSearchProvider);
    // Keys of providers not chosen are not used.
    expect(searchProviderFrom(loadConfig({ TAVILY_API_KEY: "tvly-abc", BRAVE_SEARCH_API_KEY: "BSAabc" }))).toBeUndefined();
  });
});
