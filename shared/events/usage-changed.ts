import { z } from "zod";

/**
 * The broadcast billing sends after every write that can change what `GET /v1/usage` shows (a credit
 * movement, an opened account, tokens or request counts), once the write is committed and before the
 * action replies. Every gateway drops its cached usage of these organizations (docs/request-path.md#edge-read-cache).
 */
export const USAGE_CHANGED_EVENT = "billing.usageChanged";

export const UsageChangedPayload = z.strictObject({
  org_ids: z.array(z.string().min(1)).min(1),
});
export type UsageChangedPayload = z.infer<typeof UsageChangedPayload>;
