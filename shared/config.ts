import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";

/** Model calls: retries per call and calls one process has in flight (docs/article-pipeline.md, "Scheduling, fairness and retries"). */
export const DEFAULT_LLM_MAX_RETRIES = 3;
export const DEFAULT_LLM_CONCURRENCY = 16;

export const ALL_SERVICES = ["gateway", "auth", "billing", "articles", "brand-knowledge", "pipeline", "webhooks"] as const;
export type ServiceName = (typeof ALL_SERVICES)[number];

const port = z
  .string()
  .regex(/^\d+$/, "must be a port number")
  .transform(Number)
  .pipe(z.number().int().min(0).max(65535));

const positiveInt = z
  .string()
  .regex(/^\d+$/, "must be a whole number")
  .transform(Number)
  .pipe(z.number().int().positive());

/** A hosted API's key, sent in a header: printable ASCII without spaces (a trailing newline from a secrets file is trimmed). The message never quotes the value. */
const apiKey = z
  .string()
  .trim()
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces");

/** A hosted API's base address (tests point it at a local fake), without its trailing slash. */
const httpBase = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, "must be an http(s) URL")
  .pipe(z.string().url("must be an http(s) URL"))
  .transform((v) => v.replace(/\/+$/, ""));

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** `id:base64key,…`: 32-byte AES keys, each named so a ciphertext can say which key sealed it. */
const encryptionKeys = z
  .string()
  .transform((v, ctx) => {
    const keys = v.split(",").map((part) => part.trim()).filter(Boolean).map((part) => {
      const [id, b64, ...rest] = part.split(":");
      const key = Buffer.from(b64 ?? "", "base64");
      if (rest.length || !id || !/^[A-Za-z0-9_-]{1,32}$/.test(id) || key.length !== 32) {
        ctx.addIssue({ code: "custom", message: "must be a comma list of id:key, each key 32 bytes in base64 (openssl rand -base64 32)" });
        return z.NEVER;
      }
      return { id, key };
    });
    if (keys.length === 0) ctx.addIssue({ code: "custom", message: "must name at least one key" });
    if (new Set(keys.map((k) => k.id)).size !== keys.length) ctx.addIssue({ code: "custom", message: "key ids must be distinct" });
    return keys as { id: string; key: Buffer }[];
  });

const serviceList = z
  .string()
  .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
  .pipe(z.array(z.enum(ALL_SERVICES, { message: `must list services among ${ALL_SERVICES.join(", ")}` })).min(1));

/** Every environment variable the platform reads; the README's configuration table mirrors it. */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  /** The address the gateway and the health server listen on: loopback unless a deployment opens it (containers: 0.0.0.0). */
  BIND_HOST: z
    .string()
    .refine((v) => isIP(v) !== 0, "must be an IP address such as 127.0.0.1, 0.0.0.0 or ::")
    .default("127.0.0.1"),
  HEALTH_PORT: port.default(0),
  SERVICES: serviceList.default([...ALL_SERVICES]),
  NODE_ID: z.string().min(1).max(100).optional(),
  NATS_URL: z.string().regex(/^(nats|tls):\/\/[^\s]+$/, "must be a nats:// or tls:// URL").optional(),
  MONGO_URL: z.string().regex(/^mongodb(\+srv)?:\/\/[^\s]+$/, "must be a mongodb:// or mongodb+srv:// URL").optional(),
  MONGO_DB_PREFIX: z.string().regex(/^[A-Za-z0-9_-]{0,32}$/, "letters, digits, _ and - only, at most 32").default("platform_"),
  DATA_DIR: z.string().min(1).default("./data"),
  EMBEDDED_MONGO_PORT: port.default(0),
  EMBEDDED_MONGO_IN_MEMORY: bool.default(false),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_PRETTY: bool.optional(),
  ADMIN_TOKEN: z.string().min(24, "must be at least 24 characters").optional(),
  MAX_BODY_BYTES: positiveInt.default(2 * 1024 * 1024),
  REQUEST_TIMEOUT_MS: positiveInt.default(30000),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(5000),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(20000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(5000),
  HTTP_MAX_CONNECTIONS_PER_CLIENT: positiveInt.default(256),
  USAGE_FLUSH_MS: positiveInt.default(1000),
  USAGE_CACHE_TTL_MS: z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(0).max(2000, "must be at most 2000")).default(1000),
  JOB_EVENTS_HEARTBEAT_MS: positiveInt.default(15000),
  JOB_EVENTS_MAX_STREAMS_PER_KEY: positiveInt.default(10),
  JOB_EVENTS_RESYNC_MS: positiveInt.default(30000),
  PIPELINE_CONCURRENCY: z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(0).max(64)).default(2),
  JOB_LEASE_MS: positiveInt.default(30000),
  JOB_MAX_ATTEMPTS: positiveInt.default(3),
  JOB_POLL_MS: positiveInt.default(1000),
  JOB_STAGE_TIMEOUT_MS: positiveInt.default(15 * 60 * 1000),
  OUTBOUND_ALLOW_LOOPBACK: bool.optional(),
  LLM_BASE_URL: z.string().url("must be a URL").optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_BASE_URL: z.string().url("must be a URL").optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_DIMENSIONS: positiveInt.optional(),
  CRAWL_MAX_PAGES: positiveInt.default(50),
  CRAWL_MAX_DEPTH: positiveInt.default(3),
  CRAWL_TIMEOUT_MS: positiveInt.default(60000),
  CRAWL_PAGE_TIMEOUT_MS: positiveInt.default(10000),
  LLM_TIMEOUT_MS: positiveInt.default(60000),
  LLM_MAX_RETRIES: z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(0).max(10)).default(DEFAULT_LLM_MAX_RETRIES),
  // Model calls in flight at once per process, shared round-robin between jobs (docs/article-pipeline.md, "Model calls").
  LLM_CONCURRENCY: positiveInt.default(DEFAULT_LLM_CONCURRENCY),
  IMAGES_BASE_URL: z.string().url("must be a URL").optional(),
  IMAGES_API_KEY: z.string().min(1).optional(),
  IMAGES_MODEL: z.string().min(1).optional(),
  SEARCH_PROVIDER: z.enum(["none", "searxng", "tavily", "brave"], { message: "must be none, searxng, tavily or brave" }).default("none"),
  SEARXNG_URL: z.string().url("must be a URL").optional(),
  TAVILY_API_KEY: apiKey.optional(),
  TAVILY_BASE_URL: httpBase.default("https://api.tavily.com"),
  BRAVE_SEARCH_API_KEY: apiKey.optional(),
  BRAVE_SEARCH_BASE_URL: httpBase.default("https://api.search.brave.com"),
  PUBLIC_BASE_URL: z.string().url("must be a URL").optional(),
  IDEMPOTENCY_TTL_HOURS: positiveInt.default(24),
  WEBHOOK_TIMEOUT_MS: positiveInt.default(10000),
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, "must be comma-separated whole milliseconds")
    .transform((v) => v.split(",").map(Number))
    .default([30000, 300000]),
  WEBHOOK_CONCURRENCY: positiveInt.default(16),
  WEBHOOK_PER_ENDPOINT_CONCURRENCY: positiveInt.default(2),
  WEBHOOK_POLL_MS: positiveInt.default(500),
  INTEGRATIONS_ENCRYPTION_KEYS: encryptionKeys.optional(),
  PUBLISH_REQUEST_TIMEOUT_MS: positiveInt.default(10000),
  /** Unset: 25 s, or less when REQUEST_TIMEOUT_MS is shorter (see publishDeadlineMs). */
  PUBLISH_DEADLINE_MS: positiveInt.optional(),
  PUBLISH_MAX_RETRIES: z.string().regex(/^\d+$/, "must be a whole number").transform(Number).pipe(z.number().int().min(0).max(10)).default(3),
  CONTENTFUL_API_BASE_URL: z.string().url("must be a URL").transform((v) => v.replace(/\/+$/, "")).default("https://api.contentful.com"),
  CONTENTFUL_UPLOAD_BASE_URL: z.string().url("must be a URL").transform((v) => v.replace(/\/+$/, "")).default("https://upload.contentful.com"),
  SANITY_API_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, "must be an http(s) URL, {project_id} standing for the project")
    .default("https://{project_id}.api.sanity.io"),
});

/** The names of every variable the platform reads. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export type Config = Readonly<z.output<typeof envSchema>> & {
  /** Whether the embedded MongoDB-compatible server is used (no MONGO_URL). */
  readonly embeddedMongo: boolean;
  readonly dataDir: string;
};

function fail(problem: string): never {
  throw new ConfigError(`Invalid configuration: ${problem}`);
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Parses the environment once. A bad value throws a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(envSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") input[key] = value;
  }
  const parsed = envSchema.safeParse(input);
  if (parsed.success) {
    const d = parsed.data;
    if (d.LLM_BASE_URL && !d.LLM_MODEL) return fail("LLM_MODEL: is required when LLM_BASE_URL is set");
    if (d.EMBEDDINGS_BASE_URL && !d.EMBEDDINGS_MODEL) return fail("EMBEDDINGS_MODEL: is required when EMBEDDINGS_BASE_URL is set");
    if (d.SEARCH_PROVIDER === "searxng" && !d.SEARXNG_URL) return fail("SEARXNG_URL: is required when SEARCH_PROVIDER is searxng");
    if (d.SEARCH_PROVIDER === "tavily" && !d.TAVILY_API_KEY) return fail("TAVILY_API_KEY: is required when SEARCH_PROVIDER is tavily");
    if (d.SEARCH_PROVIDER === "brave" && !d.BRAVE_SEARCH_API_KEY) return fail("BRAVE_SEARCH_API_KEY: is required when SEARCH_PROVIDER is brave");
    if (d.IMAGES_BASE_URL && !d.IMAGES_MODEL) return fail("IMAGES_MODEL: is required when IMAGES_BASE_URL is set");
    if (d.PUBLISH_DEADLINE_MS !== undefined && d.PUBLISH_DEADLINE_MS >= d.REQUEST_TIMEOUT_MS) return fail("PUBLISH_DEADLINE_MS: must be below REQUEST_TIMEOUT_MS (the gateway waits that long for a publish)");
    if (d.HTTP_HEADERS_TIMEOUT_MS > d.HTTP_REQUEST_TIMEOUT_MS) return fail("HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS");
    if (d.EMBEDDINGS_BASE_URL && !d.EMBEDDINGS_DIMENSIONS) return fail("EMBEDDINGS_DIMENSIONS: is required when EMBEDDINGS_BASE_URL is set");
  }
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new ConfigError(`Invalid configuration: ${problems}`);
  }
  return Object.freeze({
    ...parsed.data,
    embeddedMongo: parsed.data.MONGO_URL === undefined,
    dataDir: path.resolve(parsed.data.DATA_DIR),
  });
}

/** A whole publish's deadline: PUBLISH_DEADLINE_MS, else 25 s kept 5 s below the gateway's REQUEST_TIMEOUT_MS. */
export function publishDeadlineMs(cfg: Pick<Config, "PUBLISH_DEADLINE_MS" | "REQUEST_TIMEOUT_MS">): number {
  return cfg.PUBLISH_DEADLINE_MS ?? Math.max(1000, Math.min(25_000, cfg.REQUEST_TIMEOUT_MS - 5000));
}

let current: Config | undefined;

/** The process's configuration: what the runner installed, or the environment parsed on first use. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}

/** Installs the configuration the runner parsed (or a test built). */
export function useConfig(cfg: Config): Config {
  current = cfg;
  return cfg;
}
