import type { Config } from "../config";
import type { UrlPolicy } from "./url-guard";

/**
 * The guard's policy for this deployment: loopback is allowed when OUTBOUND_ALLOW_LOOPBACK says so,
 * by default outside production (so tests and local development can use local servers).
 */
export function outboundPolicy(cfg: Pick<Config, "NODE_ENV" | "OUTBOUND_ALLOW_LOOPBACK">): UrlPolicy {
  return { allowLoopback: cfg.OUTBOUND_ALLOW_LOOPBACK ?? cfg.NODE_ENV !== "production" };
}
