import { z } from "zod";

/**
 * `Idempotency-Key` (rule: a repeated key with the same body replays the first answer), as the gateway
 * hands it to a creating action: the client's, or the one the gateway assigned (docs/failure-semantics.md#idempotency-keys).
 */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/, "must be 1 to 255 printable ASCII characters");
