import type { Config } from "../../../../../shared/config";
import { BraveSearchProvider } from "./brave";
import type { SearchProvider } from "./provider";
import { SearxngProvider } from "./searxng";
import { TavilyProvider } from "./tavily";

type SearchConfig = Pick<Config, "SEARCH_PROVIDER" | "SEARXNG_URL" | "TAVILY_API_KEY" | "TAVILY_BASE_URL" | "BRAVE_SEARCH_API_KEY" | "BRAVE_SEARCH_BASE_URL">;

/**
 * The web search SEARCH_PROVIDER names, or undefined for none. loadConfig has already refused a provider
 * without its address or key. Each provider's endpoint is the operator's choice (like SEARXNG_URL), so it is
 * called directly; the result pages are not, and go through the URL guard in research.
 */
export function searchProviderFrom(cfg: SearchConfig): SearchProvider | undefined {
  switch (cfg.SEARCH_PROVIDER) {
    case "searxng":
      return cfg.SEARXNG_URL ? new SearxngProvider({ baseUrl: cfg.SEARXNG_URL }) : undefined;
    case "tavily":
      return cfg.TAVILY_API_KEY ? new TavilyProvider({ apiKey: cfg.TAVILY_API_KEY, baseUrl: cfg.TAVILY_BASE_URL }) : undefined;
    case "brave":
      return cfg.BRAVE_SEARCH_API_KEY ? new BraveSearchProvider({ apiKey: cfg.BRAVE_SEARCH_API_KEY, baseUrl: cfg.BRAVE_SEARCH_BASE_URL }) : undefined;
    default:
      return undefined;
  }
}
