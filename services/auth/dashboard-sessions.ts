import { createHash, randomBytes } from "node:crypto";
import type { Collection, Db } from "mongodb";
import type { Clock } from "../../shared/clock";
import type { CollectionSpec } from "../../shared/db/mixin";
import { NotFoundError } from "../../shared/errors";
import type { DashboardLink, DashboardRole, DashboardSessionView, OpenedDashboardSession } from "../../shared/schemas/dashboard";
import { requireOrganization } from "./organizations";

/**
 * Dashboard sign-in links and sessions (docs/dashboard.md#security-model). Both are random
 * 256-bit secrets handed to a browser; only their SHA-256 digests are stored, so a copy of the
 * database opens nothing. A link is usable once (consumed by one atomic update) within minutes.
 */

export const LINK_TTL_MS = 15 * 60_000;
export const SESSION_TTL_MS = 8 * 3600_000;
export const DASHBOARD_LINK_PATH = "/dashboard/link";

export interface DashboardLinkDoc {
  _id: string; // the token's digest
  org_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface DashboardSessionDoc {
  _id: string; // the session id's digest
  role: DashboardRole;
  org_id: string | null;
  csrf_token: string;
  created_at: Date;
  expires_at: Date;
}

export const DASHBOARD_LINKS = "dashboard_links";
export const DASHBOARD_SESSIONS = "dashboard_sessions";

/** Expired links and sessions are removed by TTL indexes; lookups check `expires_at` themselves anyway. */
export const DASHBOARD_COLLECTIONS: CollectionSpec[] = [
  { name: DASHBOARD_LINKS, indexes: [{ key: { expires_at: 1 }, name: "expiry", expireAfterSeconds: 0 }] },
  { name: DASHBOARD_SESSIONS, indexes: [{ key: { expires_at: 1 }, name: "expiry", expireAfterSeconds: 0 }] },
];

const links = (db: Db): Collection<DashboardLinkDoc> => db.collection<DashboardLinkDoc>(DASHBOARD_LINKS);
const sessions = (db: Db): Collection<DashboardSessionDoc> => db.collection<DashboardSessionDoc>(DASHBOARD_SESSIONS);

const newSecret = (): string => randomBytes(32).toString("base64url");
const digest = (secret: string): string => createHash("sha256").update(secret, "utf8").digest("hex");

/** A one-time sign-in link for the organization's people: the token travels in the URL, only its digest is kept. */
export async function createDashboardLink(db: Db, orgId: string, baseUrl: string, clock: Clock): Promise<DashboardLink> {
  await requireOrganization(db, orgId);
  const token = newSecret();
  const now = clock.now();
  const expires = new Date(now.getTime() + LINK_TTL_MS);
  await links(db).insertOne({ _id: digest(token), org_id: orgId, created_at: now, expires_at: expires, used_at: null });
  return { object: "dashboard_link", org_id: orgId, url: `${baseUrl}${DASHBOARD_LINK_PATH}?token=${token}`, expires_at: expires.toISOString() };
}

/**
 * Consumes a link and opens a session scoped to its organization. One atomic update marks the
 * link used, so of two concurrent redemptions only one succeeds; a used, expired or unknown
 * link is the same 404.
 */
export async function redeemDashboardLink(db: Db, token: string, clock: Clock): Promise<OpenedDashboardSession> {
  const now = clock.now();
  const link = await links(db).findOneAndUpdate(
    { _id: digest(token), used_at: null, expires_at: { $gt: now } },
    { $set: { used_at: now } },
    { returnDocument: "after" },
  );
  if (!link) throw new NotFoundError("sign-in link (it may have expired or been used already)");
  return openSession(db, "org", link.org_id, clock);
}

export async function openSession(db: Db, role: DashboardRole, orgId: string | null, clock: Clock): Promise<OpenedDashboardSession> {
  const session = newSecret();
  const now = clock.now();
  const doc: DashboardSessionDoc = {
    _id: digest(session),
    role,
    org_id: orgId,
    csrf_token: newSecret(),
    created_at: now,
    expires_at: new Date(now.getTime() + SESSION_TTL_MS),
  };
  await sessions(db).insertOne(doc);
  return { session, ...toView(doc) };
}

/** The live session with this id; an unknown or expired one is a 404. */
export async function readSession(db: Db, session: string, clock: Clock): Promise<DashboardSessionView> {
  const doc = await sessions(db).findOne({ _id: digest(session), expires_at: { $gt: clock.now() } });
  if (!doc) throw new NotFoundError("dashboard session");
  return toView(doc);
}

export async function endSession(db: Db, session: string): Promise<{ ended: boolean }> {
  const res = await sessions(db).deleteOne({ _id: digest(session) });
  return { ended: res.deletedCount === 1 };
}

function toView(doc: DashboardSessionDoc): DashboardSessionView {
  return { role: doc.role, org_id: doc.org_id, csrf_token: doc.csrf_token, expires_at: doc.expires_at.toISOString() };
}
