import type { Db } from "mongodb";
import { closeDatabase, configureDatabase, databaseFor } from "../../shared/db/client";
import type { CollectionSpec } from "../../shared/db/mixin";
import { startEmbeddedMongo } from "../../shared/embedded-mongo";
import { newId } from "../../shared/ids";

/**
 * Points this test process's services at a fresh database prefix on the real MongoDB at MONGO_URL,
 * or on an embedded server in memory; the same cases must pass on both. Returns what stops the server.
 */
export async function openTestDatabase(): Promise<() => Promise<void>> {
  let url = process.env.MONGO_URL;
  let stop = async () => undefined as void;
  if (!url) {
    const server = await startEmbeddedMongo({ port: 0 });
    stop = () => server.close();
    url = server.url;
  }
  configureDatabase({ url, prefix: `t${newId().slice(0, 8)}_` });
  return stop;
}

/**
 * Registers the hooks that give a unit test a service's own database, with its declared indexes
 * as the db mixin creates them, dropped afterwards. `use` receives the database once it is open.
 */
export function useServiceDatabase(service: string, collections: CollectionSpec[], use: (db: Db) => void): void {
  let stop: () => Promise<void> = async () => undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    stop = await openTestDatabase();
    db = await databaseFor(service);
    for (const spec of collections) if (spec.indexes.length) await db.collection(spec.name).createIndexes(spec.indexes);
    use(db);
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await closeDatabase();
    await stop();
  });
}
