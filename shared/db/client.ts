import { Db, MongoClient } from "mongodb";

interface DatabaseSettings {
  url: string;
  prefix: string;
}

let settings: DatabaseSettings | undefined;
let client: Promise<MongoClient> | undefined;

/** Set once by the runner (or a test) before any service starts. */
export function configureDatabase(next: DatabaseSettings): void {
  settings = next;
  client = undefined;
}

function connect(): Promise<MongoClient> {
  if (!settings) throw new Error("database not configured: configureDatabase() must run before services start");
  client ??= MongoClient.connect(settings.url, {
    appName: "article-platform",
    serverSelectionTimeoutMS: 10000,
    maxPoolSize: 50,
  });
  return client;
}

/** The database a service owns: `<prefix><service>`. */
export async function databaseFor(service: string): Promise<Db> {
  const c = await connect();
  return c.db(`${settings!.prefix}${service}`.replace(/[^A-Za-z0-9_-]/g, "_"));
}

export async function closeDatabase(): Promise<void> {
  const pending = client;
  client = undefined;
  if (pending) await (await pending).close();
}
