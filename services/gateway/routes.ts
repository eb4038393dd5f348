import { z } from "zod";
import {
  ApiKeyList,
  ApiKeyResource,
  CreateApiKeyBody,
  CreatedApiKey,
  CreateOrganizationBody,
  CreditGrant,
  GrantCreditsBody,
  ListOrganizationsQuery,
  OrganizationList,
  OrganizationResource,
} from "../../shared/schemas/admin";
import {
  ArticleList,
  ArticleResource,
  CreateArticleBody,
  GetArticleQuery,
  JobAcknowledgement,
  ListArticlesQuery,
  UpdateArticleBody,
} from "../../shared/schemas/articles";
import { UsageQuery, UsageReport } from "../../shared/schemas/billing";
import {
  AcceptedSource,
  BrandProfileList,
  BrandProfileResource,
  CreateBrandProfileBody,
  CreatedBrandProfile,
  CreateSourceBody,
  ListBrandProfilesQuery,
  SourceDetail,
  SourceList,
} from "../../shared/schemas/brand";
import { DashboardLink } from "../../shared/schemas/dashboard";
import { JobResource, LastEventId } from "../../shared/schemas/jobs";
import { CreateIntegrationBody, DeletedIntegration, IntegrationList, IntegrationResource, IntegrationTestResult, PublishArticleBody, PublishResult } from "../../shared/schemas/publishing";
import {
  AdminWebhookEndpointList,
  AdminWebhookEndpointResource,
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveriesQuery,
  SetEndpointActiveBody,
  WebhookDeliveryList,
  WebhookDeliveryResource,
  WebhookEndpointList,
} from "../../shared/schemas/webhooks";
import { IdempotencyKey } from "../../shared/schemas/idempotency-key";
import { NoFields } from "../../shared/validation";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

/**
 * One HTTP contract: the only way an action becomes reachable over HTTP.
 * Path parameters (`:name`) must be UUIDs; `query` and `body` are the shared zod contracts.
 */
export interface RouteContract {
  method: HttpMethod;
  path: string;
  action: string;
  /** Success status; an action may override it through `ctx.meta.$statusCode` (e.g. 200 on replay). */
  status: number;
  query?: z.ZodType;
  body?: z.ZodType;
  /**
   * What the action answers with (success statuses): the resource's zod schema in shared/schemas, whose
   * `z.output` is the type the service returns; the OpenAPI document describes it (openapi.ts). For a
   * stream, what each event's `data` is.
   */
  response: z.ZodType;
  /** For 201: where the created resource is read, `:name` taken from the result, then the params. */
  location?: string;
  /** Request headers passed to the action as params: param name → the header and its contract. */
  headers?: Record<string, HeaderContract>;
  /**
   * The route creates something: it always carries an Idempotency-Key (the client's, or one the gateway
   * assigns), passed to the action as `idempotency_key` and returned on every answer; the action
   * replays the first outcome of a key it has seen (docs/failure-semantics.md#idempotency-keys).
   */
  creates?: true;
  /** The status of a replay when it is not the first answer's (articles: 200 with `replayed: true`, as the spec says); other creating routes replay the first answer as it was. */
  replayStatus?: 200;
  /**
   * A streamed answer served by the gateway itself (`action` is what it reads with): the route's
   * handler in gateway.service.ts, documented with this content type (docs/job-events.md).
   */
  stream?: "text/event-stream";
}

export interface HeaderContract {
  /** As documented (e.g. `Idempotency-Key`); matched case-insensitively and named in validation errors. */
  name: string;
  schema: z.ZodType;
}

/** The `Location` of a created resource, from the contract's template. */
export function locationOf(contract: RouteContract, prefix: string, result: Record<string, unknown>, params: Record<string, unknown>): string | undefined {
  if (!contract.location) return undefined;
  return prefix + contract.location.replace(/:([a-z_]+)/g, (_, name: string) => encodeURIComponent(String(result[name] ?? params[name] ?? "")));
}

/** A creating route's header contract and flag. */
const CREATES = { creates: true, headers: { idempotency_key: { name: "Idempotency-Key", schema: IdempotencyKey } } } as const;

/** `/v1`: authenticated with an API key, scoped to its organization. */
export const API_ROUTES: RouteContract[] = [
  { method: "GET", path: "/usage", action: "billing.usage", status: 200, query: UsageQuery, response: UsageReport },
  { method: "GET", path: "/jobs/:id", action: "pipeline.get", status: 200, query: NoFields, response: JobResource },
  { method: "POST", path: "/jobs/:id/cancel", action: "pipeline.cancel", status: 200, body: NoFields, response: JobResource },
  {
    method: "GET",
    path: "/jobs/:id/events",
    action: "pipeline.get",
    status: 200,
    query: NoFields,
    stream: "text/event-stream",
    response: JobResource,
    headers: { last_event_id: { name: "Last-Event-ID", schema: LastEventId } },
  },
  { method: "POST", path: "/brand-profiles", action: "brand-knowledge.createProfile", status: 201, body: CreateBrandProfileBody, location: "/brand-profiles/:id", response: CreatedBrandProfile, ...CREATES },
  { method: "GET", path: "/brand-profiles", action: "brand-knowledge.listProfiles", status: 200, query: ListBrandProfilesQuery, response: BrandProfileList },
  { method: "GET", path: "/brand-profiles/:id", action: "brand-knowledge.getProfile", status: 200, query: NoFields, response: BrandProfileResource },
  { method: "POST", path: "/brand-profiles/:id/sources", action: "brand-knowledge.addSource", status: 202, body: CreateSourceBody, response: AcceptedSource, ...CREATES },
  { method: "GET", path: "/brand-profiles/:id/sources", action: "brand-knowledge.listSources", status: 200, query: NoFields, response: SourceList },
  { method: "GET", path: "/brand-profiles/:id/sources/:source_id", action: "brand-knowledge.getSource", status: 200, query: NoFields, response: SourceDetail },
  { method: "POST", path: "/webhooks", action: "webhooks.createEndpoint", status: 201, body: CreateWebhookBody, response: CreatedWebhookEndpoint, ...CREATES },
  { method: "GET", path: "/webhooks", action: "webhooks.listEndpoints", status: 200, query: NoFields, response: WebhookEndpointList },
  { method: "POST", path: "/articles", action: "articles.create", status: 202, body: CreateArticleBody, response: JobAcknowledgement, ...CREATES, replayStatus: 200 },
  { method: "GET", path: "/articles", action: "articles.list", status: 200, query: ListArticlesQuery, response: ArticleList },
  { method: "GET", path: "/articles/:id", action: "articles.get", status: 200, query: GetArticleQuery, response: ArticleResource },
  { method: "PATCH", path: "/articles/:id", action: "articles.update", status: 200, body: UpdateArticleBody, response: ArticleResource },
  { method: "POST", path: "/articles/:id/publish", action: "articles.publish", status: 200, body: PublishArticleBody, response: PublishResult },
];

/** `/admin`: the dashboard's part, authenticated with ADMIN_TOKEN. */
export const ADMIN_ROUTES: RouteContract[] = [
  { method: "GET", path: "/orgs", action: "auth.listOrganizations", status: 200, query: ListOrganizationsQuery, response: OrganizationList },
  { method: "POST", path: "/orgs", action: "auth.createOrganization", status: 201, body: CreateOrganizationBody, location: "/orgs/:id/keys", response: OrganizationResource, ...CREATES },
  { method: "POST", path: "/orgs/:org_id/keys", action: "auth.createKey", status: 201, body: CreateApiKeyBody, location: "/orgs/:org_id/keys", response: CreatedApiKey },
  { method: "GET", path: "/orgs/:org_id/keys", action: "auth.listKeys", status: 200, query: NoFields, response: ApiKeyList },
  { method: "DELETE", path: "/keys/:key_id", action: "auth.revokeKey", status: 200, query: NoFields, response: ApiKeyResource },
  { method: "POST", path: "/orgs/:org_id/credits", action: "auth.grantCredits", status: 200, body: GrantCreditsBody, response: CreditGrant, ...CREATES },
  { method: "GET", path: "/orgs/:org_id/webhooks", action: "webhooks.adminListEndpoints", status: 200, query: NoFields, response: AdminWebhookEndpointList },
  { method: "PATCH", path: "/webhooks/:id", action: "webhooks.setEndpointActive", status: 200, body: SetEndpointActiveBody, response: AdminWebhookEndpointResource },
  { method: "GET", path: "/webhooks/:id/deliveries", action: "webhooks.listDeliveries", status: 200, query: DeliveriesQuery, response: WebhookDeliveryList },
  { method: "POST", path: "/deliveries/:id/redeliver", action: "webhooks.redeliver", status: 202, body: NoFields, response: WebhookDeliveryResource },
  { method: "POST", path: "/orgs/:org_id/integrations", action: "articles.createIntegration", status: 201, body: CreateIntegrationBody, location: "/orgs/:org_id/integrations", response: IntegrationResource, ...CREATES },
  { method: "GET", path: "/orgs/:org_id/integrations", action: "articles.listIntegrations", status: 200, query: NoFields, response: IntegrationList },
  { method: "DELETE", path: "/integrations/:id", action: "articles.deleteIntegration", status: 200, query: NoFields, response: DeletedIntegration },
  { method: "POST", path: "/integrations/:id/test", action: "articles.testIntegration", status: 200, body: NoFields, response: IntegrationTestResult },
  { method: "POST", path: "/orgs/:org_id/dashboard-links", action: "auth.createDashboardLink", status: 201, body: NoFields, response: DashboardLink },
];

export const API_PREFIX = "/v1";
export const ADMIN_PREFIX = "/admin";

/** Services the gateway needs to serve its routes: readiness waits for them. */
export function requiredServices(): string[] {
  return [...new Set([...API_ROUTES, ...ADMIN_ROUTES].map((r) => r.action.split(".")[0]))].sort();
}

const templateCache = new Map<string, RegExp>();
function templateRegex(fullPath: string): RegExp {
  let re = templateCache.get(fullPath);
  if (!re) {
    re = new RegExp(`^${fullPath.replace(/:[a-z_]+/g, "[^/]+")}/?$`);
    templateCache.set(fullPath, re);
  }
  return re;
}

const ALL_ROUTES = [
  ...API_ROUTES.map((r) => ({ ...r, full: API_PREFIX + r.path })),
  ...ADMIN_ROUTES.map((r) => ({ ...r, full: ADMIN_PREFIX + r.path })),
];

/** The methods served at a concrete path, for 405 answers to the other ones. */
export function methodsAt(pathname: string): HttpMethod[] {
  return ALL_ROUTES.filter((r) => templateRegex(r.full).test(pathname)).map((r) => r.method);
}

/** The template of the route a request names (`/v1/jobs/:id`), for a request answered before routing (at the edge). */
export function routeTemplateAt(method: string | undefined, pathname: string): string | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  return ALL_ROUTES.find((r) => r.method === method && templateRegex(r.full).test(path))?.full;
}

/** The creating route a request names (method and concrete path), if any. */
export function creatingRouteAt(method: string | undefined, pathname: string): RouteContract | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  return ALL_ROUTES.find((r) => r.creates && r.method === method && templateRegex(r.full).test(path));
}
