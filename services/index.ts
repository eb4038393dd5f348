import type { ServiceSchema } from "moleculer";
import type { ServiceName } from "../shared/config";

/**
 * Every service by name. Schemas are loaded on demand, after the runner has installed
 * the configuration, because some read it when their module is evaluated.
 */
export const SERVICE_LOADERS: Record<ServiceName, () => ServiceSchema> = {
  gateway: () => require("./gateway/gateway.service").default,
  auth: () => require("./auth/auth.service").default,
  billing: () => require("./billing/billing.service").default,
  articles: () => require("./articles/articles.service").default,
  "brand-knowledge": () => require("./brand-knowledge/brand-knowledge.service").default,
  pipeline: () => require("./pipeline/pipeline.service").default,
  webhooks: () => require("./webhooks/webhooks.service").default,
};
