import { createHash } from "node:crypto";
import type { Db } from "mongodb";
import type { Clock } from "../../shared/clock";
import {
  createDashboardLink,
  DASHBOARD_COLLECTIONS,
  DASHBOARD_LINKS,
  DASHBOARD_SESSIONS,
  endSession,
  LINK_TTL_MS,
  openSession,
  readSession,
  redeemDashboardLink,
  SESSION_TTL_MS,
} from "../../services/auth/dashboard-sessions";
import { createOrganization } from "../../services/auth/organizations";
import { AUTH_COLLECTIONS } from "../../services/auth/store";
import { useServiceDatabase } from "../support/test-database";

/** Dashboard sign-in links and sessions in auth's database (docs/dashboard.md#security-model). */

let db: Db;
useServiceDatabase("auth", [...AUTH_COLLECTIONS, ...DASHBOARD_COLLECTIONS], (d) => (db = d));

let now = new Date("2026-03-01T10:00:00Z");
const clock: Clock = { now: () => now };
const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("dashboard sign-in links", () => {
  it("are a 256-bit token in the URL, stored only as its digest, valid for minutes", async () => {
    const org = await createOrganization(db, "Acme", clock);
    const link = await createDashboardLink(db, org._id, "https://platform.example", clock);
    expect(link.url).toMatch(/^https:\/\/platform\.example\/dashboard\/link\?token=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expires_at) - now.getTime()).toBe(LINK_TTL_MS);
    const stored = await db.collection(DASHBOARD_LINKS).find({}).toArray();
    expect(stored.map((d) => d._id)).toContain(sha256(tokenOf(link.url)));
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link.url));
  });

  it("refuses an unknown organization", async () => {
    await expect(createDashboardLink(db, "00000000-0000-4000-8000-000000000000", "https://x", clock)).rejects.toMatchObject({ type: "not_found" });
  });

  it("open one session scoped to the organization, once, even when redeemed concurrently", async () => {
    const org = await createOrganization(db, "Once", clock);
    const token = tokenOf((await createDashboardLink(db, org._id, "https://x", clock)).url);
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => redeemDashboardLink(db, token, clock)));
    const opened = outcomes.filter((o) => o.status === "fulfilled");
    expect(opened).toHaveLength(1);
    expect((opened[0] as PromiseFulfilledResult<{ role: string; org_id: string }>).value).toMatchObject({ role: "org", org_id: org._id });
    for (const o of outcomes.filter((o) => o.status === "rejected")) expect((o as PromiseRejectedResult).reason).toMatchObject({ type: "not_found" });
  });

  it("expire", async () => {
    const org = await createOrganization(db, "Late", clock);
    const token = tokenOf((await createDashboardLink(db, org._id, "https://x", clock)).url);
    now = new Date(now.getTime() + LINK_TTL_MS);
    await expect(redeemDashboardLink(db, token, clock)).rejects.toMatchObject({ type: "not_found" });
  });
});

describe("dashboard sessions", () => {
  it("are found by their id until they expire or end, and store only its digest", async () => {
    const opened = await openSession(db, "operator", null, clock);
    expect(opened.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened.csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await db.collection(DASHBOARD_SESSIONS).findOne({ _id: sha256(opened.session) as never })).not.toBeNull();
    await expect(readSession(db, opened.session, clock)).resolves.toEqual({ role: "operator", org_id: null, csrf_token: opened.csrf_token, expires_at: opened.expires_at });

    const later = { now: () => new Date(now.getTime() + SESSION_TTL_MS) };
    await expect(readSession(db, opened.session, later)).rejects.toMatchObject({ type: "not_found" });

    const other = await openSession(db, "org", "11111111-1111-4111-8111-111111111111", clock);
    expect(other.csrf_token).not.toBe(opened.csrf_token);
    await expect(endSession(db, other.session)).resolves.toEqual({ ended: true });
    await expect(readSession(db, other.session, clock)).rejects.toMatchObject({ type: "not_found" });
  });
});
