import { z } from "zod";
import { contract } from "../action";
import { KeyHash, type Authenticated } from "./admin";

/**
 * The gateway's own actions (docs/request-path.md): admission of a key's request by the gateway
 * that owns the key, and the revocation notice every gateway acknowledges before a revoke returns.
 */
/** How long a gateway trusts a cached key record without a revocation notice; a revoke waits this long for a gateway that did not acknowledge one. */
export const KEY_CACHE_TTL_MS = 5000;

export const AdmitParams = z.strictObject({ key_hash: KeyHash });
export const ForgetKeyParams = z.strictObject({ key_hash: KeyHash });

export const GatewayActions = {
  admit: contract<Authenticated>()("gateway.admit", AdmitParams),
  forgetKey: contract<{ forgotten: true }>()("gateway.forgetKey", ForgetKeyParams),
};
