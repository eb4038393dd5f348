/** A command failure with MongoDB's numeric code and codeName, answered as `{ok: 0, ...}`. */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }

  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  /** The shape of one entry of a write command's `writeErrors`. */
  toWriteError(index: number): Record<string, unknown> {
    return { index, code: this.code, ...this.extra, errmsg: this.message };
  }
}

export const badValue = (msg: string) => new CommandError(2, "BadValue", msg);
export const failedToParse = (msg: string) => new CommandError(9, "FailedToParse", msg);
export const typeMismatch = (msg: string) => new CommandError(14, "TypeMismatch", msg);
export const nsNotFound = (msg: string) => new CommandError(26, "NamespaceNotFound", msg);
export const invalidNamespace = (msg: string) => new CommandError(73, "InvalidNamespace", msg);

/** Maps anything thrown while executing a command (mingo included) to a MongoDB-shaped error. */
export function toCommandError(err: unknown): CommandError {
  if (err instanceof CommandError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  return badValue(msg);
}
