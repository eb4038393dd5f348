import { configureDatabase } from "../../shared/db/client";
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
