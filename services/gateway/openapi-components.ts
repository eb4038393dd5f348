import { z } from "zod";
import { ERROR_CATALOG } from "../../shared/errors";
import * as admin from "../../shared/schemas/admin";
import * as articles from "../../shared/schemas/articles";
import * as billing from "../../shared/schemas/billing";
import * as brand from "../../shared/schemas/brand";
import * as dashboard from "../../shared/schemas/dashboard";
import * as jobs from "../../shared/schemas/jobs";
import * as publishing from "../../shared/schemas/publishing";
import * as webhooks from "../../shared/schemas/webhooks";

/**
 * The named schemas of the OpenAPI document (`components.schemas`): the resources the services answer
 * with, from the zod schemas in shared/schemas, as zod 4's own JSON Schema output (`z.toJSONSchema` of a
 * registry, draft 2020-12 = OpenAPI 3.1's dialect). A schema named here is a `$ref` wherever it occurs,
 * in a route's response or inside another named schema; anything else is inlined where it is used.
 */

/** The envelope every error answers with (shared/errors.ts `envelope`), its codes from the one catalog. */
export const ErrorEnvelope = z.strictObject({
  error: z.strictObject({
    code: z.enum(Object.keys(ERROR_CATALOG) as [keyof typeof ERROR_CATALOG, ...(keyof typeof ERROR_CATALOG)[]]),
    message: z.string(),
  }),
});

/** Component name → schema. Every route's `response` must be here (openapi.test.ts checks it). */
export const SCHEMA_COMPONENTS: Record<string, z.ZodType> = {
  ErrorEnvelope,
  // jobs
  Job: jobs.JobResource,
  JobStage: jobs.JobStage,
  JobAcknowledgement: articles.JobAcknowledgement,
  // articles
  Article: articles.ArticleResource,
  ArticleSummary: articles.ArticleSummary,
  ArticleList: articles.ArticleList,
  ArticleImage: articles.ArticleImage,
  ArticlePublication: publishing.ArticlePublication,
  Citation: articles.Citation,
  QualityBreakdown: articles.QualityBreakdown,
  Derivatives: articles.Derivatives,
  PublishResult: publishing.PublishResult,
  // brand knowledge
  BrandProfile: brand.BrandProfileResource,
  BrandProfileSummary: brand.BrandProfileSummary,
  BrandProfileList: brand.BrandProfileList,
  CreatedBrandProfile: brand.CreatedBrandProfile,
  Source: brand.SourceResource,
  SourceDetail: brand.SourceDetail,
  SourceList: brand.SourceList,
  AcceptedSource: brand.AcceptedSource,
  // billing
  UsageReport: billing.UsageReport,
  UsageDay: billing.UsageDay,
  // webhooks
  WebhookEndpoint: webhooks.WebhookEndpointResource,
  WebhookEndpointList: webhooks.WebhookEndpointList,
  CreatedWebhookEndpoint: webhooks.CreatedWebhookEndpoint,
  AdminWebhookEndpoint: webhooks.AdminWebhookEndpointResource,
  AdminWebhookEndpointList: webhooks.AdminWebhookEndpointList,
  WebhookDelivery: webhooks.WebhookDeliveryResource,
  WebhookDeliveryAttempt: webhooks.DeliveryAttemptResource,
  WebhookDeliveryList: webhooks.WebhookDeliveryList,
  // admin
  Organization: admin.OrganizationResource,
  OrganizationList: admin.OrganizationList,
  ApiKey: admin.ApiKeyResource,
  ApiKeyList: admin.ApiKeyList,
  CreatedApiKey: admin.CreatedApiKey,
  CreditGrant: admin.CreditGrant,
  DashboardLink: dashboard.DashboardLink,
  // integrations
  Integration: publishing.IntegrationResource,
  IntegrationList: publishing.IntegrationList,
  IntegrationTestResult: publishing.IntegrationTestResult,
  DeletedIntegration: publishing.DeletedIntegration,
};

export const componentRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const nameOf = new Map<z.ZodType, string>(Object.entries(SCHEMA_COMPONENTS).map(([name, schema]) => [schema, name]));

/** The component name of a schema; throws for one that is not named (every response must be). */
export function componentName(schema: z.ZodType): string {
  const name = nameOf.get(schema);
  if (!name) throw new Error("openapi: a route's response schema is not in SCHEMA_COMPONENTS");
  return name;
}

/** `components.schemas`: every named schema as the services' output (after transforms), nested names as `$ref`s. */
export function componentSchemas(): Record<string, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SCHEMA_COMPONENTS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "output",
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}
