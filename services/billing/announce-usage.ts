import type { Context } from "moleculer";
import type { Db } from "mongodb";
import { USAGE_CHANGED_EVENT, type UsageChangedPayload } from "../../shared/events/usage-changed";
import { rootLogger } from "../../shared/logger";

/**
 * Runs a billing write, then tells every gateway that these organizations' usage may have changed
 * (shared/events/usage-changed.ts), before the action replies: a caller that got the reply has had the
 * notice sent ahead of it. Also after a write that threw, since part of it may have committed; a
 * notice for nothing only costs the gateways one read. The notice is best effort (a lost one is
 * bounded by the gateways' USAGE_CACHE_TTL_MS); it never fails the write.
 */
export async function announcingUsage<R>(ctx: Context, orgIds: string[], write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } finally {
    await announceUsageChanged(ctx, orgIds);
  }
}

/** The handler of a write of one organization's usage (`params.org_id`): the write, announced. */
export function announcedWrite<P extends { org_id: string }, R>(write: (db: Db, params: P) => Promise<R>) {
  return (params: P, ctx: Context, svc: { db: Db }): Promise<R> => announcingUsage(ctx, [params.org_id], () => write(svc.db, params));
}

async function announceUsageChanged(ctx: Context, orgIds: string[]): Promise<void> {
  const org_ids = [...new Set(orgIds)];
  if (org_ids.length === 0) return;
  const payload: UsageChangedPayload = { org_ids };
  try {
    await ctx.broadcast(USAGE_CHANGED_EVENT, payload);
  } catch (err) {
    rootLogger().warn({ err, orgs: org_ids.length }, "usage change not announced; gateways' cached usage expires within USAGE_CACHE_TTL_MS");
  }
}
