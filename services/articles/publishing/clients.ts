import { publishDeadlineMs, type Config } from "../../../shared/config";
import { outboundPolicy } from "../../../shared/net/policy";
import type { IntegrationInput } from "../../../shared/schemas/publishing";
import type { CmsClient } from "./content";
import { contentfulClient, readContentfulError } from "./contentful";
import { ghostClient, readGhostError } from "./ghost";
import { upstreamClient, type ErrorReader, type UpstreamOptions } from "./http";
import { readSanityError, sanityClient } from "./sanity";
import { readStrapiError, strapiClient } from "./strapi";
import { readWordPressError, wordpressClient } from "./wordpress";

/** What publishing takes from the configuration: guard policy, time bounds, vendor hosts. */
export interface PublishingConfig {
  policy: UpstreamOptions["policy"];
  requestTimeoutMs: number;
  deadlineMs: number;
  maxRetries: number;
  contentful: { api: string; upload: string; app: string };
  sanityHost: string;
}

export function publishingConfig(cfg: Config): PublishingConfig {
  return {
    policy: outboundPolicy(cfg),
    requestTimeoutMs: cfg.PUBLISH_REQUEST_TIMEOUT_MS,
    deadlineMs: publishDeadlineMs(cfg),
    maxRetries: cfg.PUBLISH_MAX_RETRIES,
    contentful: { api: cfg.CONTENTFUL_API_BASE_URL, upload: cfg.CONTENTFUL_UPLOAD_BASE_URL, app: "https://app.contentful.com" },
    sanityHost: cfg.SANITY_API_BASE_URL,
  };
}

export const KIND_LABELS: Record<IntegrationInput["kind"], string> = {
  wordpress: "WordPress",
  ghost: "Ghost",
  contentful: "Contentful",
  sanity: "Sanity",
  strapi: "Strapi",
};

const ERROR_READERS: Record<IntegrationInput["kind"], ErrorReader> = {
  wordpress: readWordPressError,
  ghost: readGhostError,
  contentful: readContentfulError,
  sanity: readSanityError,
  strapi: readStrapiError,
};

/** The client of an integration's kind, every request bounded by one deadline starting now. */
export function clientFor(integration: IntegrationInput, cfg: PublishingConfig, now = Date.now()): CmsClient {
  const send = upstreamClient(
    { policy: cfg.policy, requestTimeoutMs: cfg.requestTimeoutMs, deadlineAt: now + cfg.deadlineMs, maxRetries: cfg.maxRetries },
    ERROR_READERS[integration.kind],
  );
  switch (integration.kind) {
    case "wordpress":
      return wordpressClient(integration, send);
    case "ghost":
      return ghostClient(integration, send);
    case "contentful":
      return contentfulClient(integration, cfg.contentful, send);
    case "sanity":
      return sanityClient(integration, cfg.sanityHost, send);
    case "strapi":
      return strapiClient(integration, send);
  }
}
