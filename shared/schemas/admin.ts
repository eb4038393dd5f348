import { pageQuery } from "./pagination";
import { z } from "zod";
import { contract } from "../action";
import type { RateLimitState } from "../errors";
import { NoFields, uuid } from "../validation";
import type { ListPage } from "./pagination";
import { listOf, listPageOf, resourceId, timestamp } from "./resource";
import { IdempotencyKey } from "./idempotency-key";

/** Admin API contracts (the dashboard's part), shared by the gateway and the owning services. */

export const CreateOrganizationBody = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  credits: z.number().int("must be a whole number").min(0, "must be at least 0").max(10_000_000, "must be at most 10000000").default(0),
});

/** The rate budget of a key created without one: requests per minute. */
export const DEFAULT_RATE_LIMIT_RPM = 60;

export const CreateApiKeyBody = z.strictObject({
  mode: z.enum(["live", "test"], { message: "must be 'live' or 'test'" }),
  rate_limit_rpm: z.number().int("must be a whole number").min(1, "must be at least 1").max(1_000_000, "must be at most 1000000").default(DEFAULT_RATE_LIMIT_RPM),
});

export const GrantCreditsBody = z.strictObject({
  amount: z.number().int("must be a whole number").min(1, "must be at least 1").max(10_000_000, "must be at most 10000000"),
  reason: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
});

export const OrgPath = z.strictObject({ org_id: uuid });
/** `GET /admin/orgs`: newest first, cursor-paged like every list (`limit`, `starting_after`). */
export const ListOrganizationsQuery = z.strictObject({
  ...pageQuery({ defaultLimit: 20, maxLimit: 100 }),
  /** Part of the name, case-insensitive. */
  q: z.string().trim().max(200, "must be at most 200 characters").optional(),
});
/** `auth.listOrganizations`: the query as the gateway parsed it (the dashboard calls it the same way). */
export const ListOrganizationsParams = z.strictObject({
  /** Part of the name, case-insensitive. */
  q: z.string().trim().max(200, "must be at most 200 characters").optional(),
  limit: z.number().int().min(1).max(100).default(50),
  starting_after: uuid.optional(),
});

export const KeyPath = z.strictObject({ key_id: uuid });

export const OrganizationResource = z.strictObject({
  id: resourceId,
  object: z.literal("organization"),
  name: z.string(),
  credit_balance: z.number().int(),
  created_at: timestamp,
});
export type OrganizationResource = z.output<typeof OrganizationResource>;
export const OrganizationList = listPageOf(OrganizationResource);

export const ApiKeyResource = z.strictObject({
  id: resourceId,
  object: z.literal("api_key"),
  /** The key's prefix and last characters, never the key. */
  display: z.string(),
  mode: z.enum(["live", "test"]),
  rate_limit_rpm: z.number().int().min(1),
  created_at: timestamp,
  last_used_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
});
export type ApiKeyResource = z.output<typeof ApiKeyResource>;
export const ApiKeyList = listOf(ApiKeyResource);

// The auth service's actions other services call: params and reply declared once (shared/action.ts `contract`).

/** An API key as services pass it between them: its SHA-256 digest in hex, never the key itself. */
export const KeyHash = z.string().regex(/^[0-9a-f]{64}$/, "must be a SHA-256 digest in hex");
/** Who a valid key belongs to, and its rate window after this request was counted. */
export interface Authenticated {
  org_id: string;
  key_id: string;
  mode: "live" | "test";
  rateLimit: RateLimitState;
}

// Admission (docs/request-path.md): the gateway that owns a key admits its requests against units of
// the key's rate window it reserved from auth; auth keeps the records and the windows' reservations.

export const LookupKeyParams = z.strictObject({ key_hash: KeyHash });
/** What admission needs of a live (unrevoked) key. */
export interface LiveKey {
  _id: string;
  org_id: string;
  key_hash: string;
  mode: "live" | "test";
  rate_limit_rpm: number;
}
export const ReserveUnitsParams = KeyPath;
/**
 * A reservation in the key's current window: its end (ms since the epoch: the window's identity and
 * the `x-ratelimit-reset` every gateway shows), how long it has left by auth's clock (so a gateway
 * whose clock is off still holds it for the right time), the units granted now (0: the window is
 * fully reserved), and all units reserved in it.
 */
export interface UnitGrant {
  ends_at: number;
  ends_in_ms: number;
  granted: number;
  reserved: number;
}
export const ReleaseUnitsParams = KeyPath.extend({ ends_at: z.number().int(), units: z.number().int().min(1) });
/** The latest use of each key a gateway admitted since its last report (`last_used_at`). */
export const RecordKeyUseParams = z.strictObject({ uses: z.array(KeyPath.extend({ at: z.number().int() })).max(100_000) });
export const CreateApiKeyParams = CreateApiKeyBody.extend(OrgPath.shape);
/** The created key: the only response that shows the key itself. */
export const CreatedApiKey = ApiKeyResource.extend({ key: z.string() });
export type CreatedApiKey = z.output<typeof CreatedApiKey>;

/** An organization as the organization list and `auth.getOrganization` show it: without its balance (billing owns that). */
export type OrganizationSummary = Omit<OrganizationResource, "credit_balance">;

export const GrantCreditsParams = GrantCreditsBody.extend({ ...OrgPath.shape, idempotency_key: IdempotencyKey.optional() });
/** `auth.createOrganization`: the body and the request's Idempotency-Key. */
export const CreateOrganizationParams = CreateOrganizationBody.extend({ idempotency_key: IdempotencyKey.optional() });
/** `auth.grantCredits`' reply: the grant and the balance after it. */
export const CreditGrant = z.strictObject({
  object: z.literal("credit_grant"),
  org_id: resourceId,
  amount: z.number().int().min(1),
  credit_balance: z.number().int(),
});
export type CreditGrant = z.output<typeof CreditGrant>;

export const AuthActions = {
  lookupKey: contract<LiveKey | null>()("auth.lookupKey", LookupKeyParams),
  reserveUnits: contract<UnitGrant>()("auth.reserveUnits", ReserveUnitsParams),
  releaseUnits: contract<{ released: number }>()("auth.releaseUnits", ReleaseUnitsParams),
  recordKeyUse: contract<Record<string, never>>()("auth.recordKeyUse", RecordKeyUseParams),
  createOrganization: contract<OrganizationResource>()("auth.createOrganization", CreateOrganizationParams),
  getOrganization: contract<OrganizationSummary>()("auth.getOrganization", OrgPath),
  listOrganizations: contract<ListPage<OrganizationResource>>()("auth.listOrganizations", ListOrganizationsParams),
  countOrganizations: contract<number>()("auth.countOrganizations", NoFields),
  createKey: contract<CreatedApiKey>()("auth.createKey", CreateApiKeyParams),
  listKeys: contract<Omit<ListPage<ApiKeyResource>, "has_more">>()("auth.listKeys", OrgPath),
  revokeKey: contract<ApiKeyResource>()("auth.revokeKey", KeyPath),
  grantCredits: contract<CreditGrant>()("auth.grantCredits", GrantCreditsParams),
};
