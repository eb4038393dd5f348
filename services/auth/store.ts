import type { CollectionSpec } from "../../shared/db/mixin";
import type { KeyMode } from "./api-key";

export interface OrganizationDoc {
  _id: string;
  /** Created under an Idempotency-Key (its id derives from the key): the hash of that request (shared/idempotency.ts). */
  request_hash?: string;
  name: string;
  created_at: Date;
}

export interface ApiKeyDoc {
  _id: string;
  org_id: string;
  /** SHA-256 hex of the key; the key itself is never stored. */
  key_hash: string;
  display: string;
  mode: KeyMode;
  rate_limit_rpm: number;
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  /** The current fixed rate window: its end and the requests counted in it. */
  window_ends_at: Date | null;
  window_count: number;
}

export const ORGANIZATIONS = "organizations";
export const API_KEYS = "api_keys";

export const AUTH_COLLECTIONS: CollectionSpec[] = [
  { name: ORGANIZATIONS, indexes: [{ key: { created_at: -1 }, name: "created_at" }] },
  {
    name: API_KEYS,
    indexes: [
      { key: { key_hash: 1 }, name: "key_hash_unique", unique: true },
      { key: { org_id: 1, created_at: -1 }, name: "org_created" },
    ],
  },
];
