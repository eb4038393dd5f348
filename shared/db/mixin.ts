import type { Collection, Db, Document, IndexDescription } from "mongodb";
import type { Service, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { databaseFor } from "./client";

export interface CollectionSpec {
  name: string;
  indexes: IndexDescription[];
}

export interface DbService {
  db: Db;
  collection<T extends Document = Document>(name: string): Collection<T>;
}

/**
 * Gives a service its own database and creates its declared indexes at start.
 * A service only ever sees `this.db`, its own database.
 */
export function dbMixin(serviceName: string, collections: CollectionSpec[]): Partial<ServiceSchema> {
  const mixin: Partial<ServiceSchema<ServiceSettingSchema, Service & DbService>> = {
    methods: {
      collection(this: DbService, name: string) {
        if (!collections.some((c) => c.name === name)) throw new Error(`${serviceName} does not own a collection named ${name}`);
        return this.db.collection(name);
      },
    },
    async started(this: DbService) {
      this.db = await databaseFor(serviceName);
      for (const spec of collections) {
        if (spec.indexes.length) await this.db.collection(spec.name).createIndexes(spec.indexes);
      }
    },
  };
  return mixin as unknown as Partial<ServiceSchema>;
}

/** Whether the service's database answers a ping: part of readiness. */
export async function pingDatabase(db: Db | undefined, timeoutMs = 1000): Promise<boolean> {
  if (!db) return false;
  let timer: NodeJS.Timeout | undefined;
  try {
    // A readiness probe answers within its bound: a database that does not answer in time is down for it.
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("ping timed out")), timeoutMs)));
    await Promise.race([db.command({ ping: 1 }), late]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
