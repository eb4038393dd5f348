import pino from "pino";
import type { Context, LoggerConfig } from "moleculer";
import { isExpectedUnavailability } from "./errors";

/** Fields that must never reach a log line, at the top level or one object down. */
const SECRET_FIELDS = ["authorization", "key", "api_key", "apiKey", "token", "admin_token", "secret", "password", "key_hash"];
export const REDACT_PATHS = [
  ...SECRET_FIELDS,
  ...SECRET_FIELDS.map((f) => `*.${f}`),
  "headers.authorization",
  "req.headers.authorization",
  "*.headers.authorization",
];

export interface LoggerSettings {
  level: string;
  pretty?: boolean;
}

let root: pino.Logger | undefined;

/** An error as logged: with its stack when it is unexpected; an expected unavailability (a service down, a node lost) by its type and message. */
export function serializeError(err: unknown): unknown {
  if (isExpectedUnavailability(err)) {
    const e = err as { name: string; message?: unknown };
    return { type: e.name, message: String(e.message ?? "") };
  }
  return err instanceof Error ? pino.stdSerializers.err(err) : err;
}

/** The process's one pino instance; Moleculer's loggers are children of it. */
export function initLogger(settings: LoggerSettings): pino.Logger {
  const pretty = settings.pretty ?? Boolean(process.stdout.isTTY);
  root = pino({
    level: settings.level,
    base: { pid: process.pid },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError },
    timestamp: pino.stdTimeFunctions.isoTime,
    ...(pretty ? { transport: { target: "pino-pretty", options: { colorize: true, singleLine: true } } } : {}),
  });
  return root;
}

export function rootLogger(): pino.Logger {
  return root ?? initLogger({ level: process.env.LOG_LEVEL ?? "info", pretty: false });
}

/** Moleculer's logger option, routing every broker and service log through the root pino. */
export function moleculerLogger(level: string): LoggerConfig {
  return {
    type: "Pino",
    options: {
      level,
      createLogger: (lvl: string, bindings: { mod?: string; nodeID?: string }) => {
        const child = rootLogger().child({ mod: bindings.mod, node: bindings.nodeID }, { level: lvl });
        return bindings.mod === "broker" ? withoutPerCallUnavailability(child) : child;
      },
    },
  } as LoggerConfig;
}

/** The broker's warning on every call to a service with no live instance: counted per outage instead (shared/runtime/unavailability-log.ts). */
const PER_CALL_UNAVAILABLE = /^Service '[^']+' is not (available|registered|found on '[^']+' node)\.$/;

function withoutPerCallUnavailability(logger: pino.Logger): pino.Logger {
  const filtered = Object.create(logger) as pino.Logger;
  filtered.warn = ((...args: unknown[]) => {
    if (typeof args[0] === "string" && PER_CALL_UNAVAILABLE.test(args[0])) return;
    (logger.warn as (...a: unknown[]) => void)(...args);
  }) as pino.LogFn;
  return filtered;
}

interface RequestScope {
  org_id?: string;
  job_id?: string;
}

/** A logger carrying the request id and, where known, the organization and job. */
export function logFor(ctx: Pick<Context, "requestID">, scope: RequestScope = {}): pino.Logger {
  return rootLogger().child({ req_id: ctx.requestID ?? undefined, ...scope });
}
