import dns from "node:dns";
import os from "node:os";
import { MongoClient } from "mongodb";
import ipaddr from "ipaddr.js";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN, startCluster, type Cluster } from "../support/cluster";
import { client } from "../support/http";
import type { PlatformProcess } from "../support/platform";

const ALL = "gateway,auth,billing,articles,brand-knowledge,pipeline,webhooks";

/**
 * A name the system resolver maps to loopback without DNS: this machine's host name when the hosts
 * file says so (containers usually do), else `localhost` (which the guard also refuses by name).
 */
async function loopbackName(): Promise<string> {
  try {
    const answers = await dns.promises.lookup(os.hostname(), { all: true });
    if (answers.length && answers.every((a) => ipaddr.parse(a.address).range() === "loopback")) return os.hostname();
  } catch {
    // not resolvable here
  }
  return "localhost";
}

describe("outbound URLs at registration", () => {
  let cluster: Cluster;
  let mongo: MongoClient;
  afterAll(async () => {
    await mongo?.close();
    await cluster?.stop();
  });
  beforeAll(async () => {
    cluster = await startCluster({ PIPELINE_CONCURRENCY: "0" });
    mongo = await MongoClient.connect(cluster.mongo.url);
  });
  const count = (svc: string, coll: string) => mongo.db(`${cluster.mongo.prefix}${svc}`).collection(coll).countDocuments({});

  describe("in production", () => {
    let platform: PlatformProcess;
    let api: ReturnType<typeof client>;
    let profileId: string;
    beforeAll(async () => {
      platform = await cluster.spawn(ALL, { NODE_ENV: "production" });
      const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN);
      api = client(platform.url, key);
      const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Plain brand" } });
      expect(profile.status).toBe(201);
      profileId = profile.body.id;
    });
    afterAll(() => platform?.stop());

    it("refuses a website, a source and a webhook whose host resolves to loopback through the hosts file, before storing anything", async () => {
      const name = await loopbackName();
      const before = { profiles: await count("brand-knowledge", "brand_profiles"), sources: await count("brand-knowledge", "sources"), endpoints: await count("webhooks", "endpoints") };

      const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Acme", website_url: `http://${name}:4900/` } });
      expect(profile.status).toBe(400);
      expect(profile.body.error).toEqual({ code: "invalid_request", message: expect.stringMatching(/^website_url: (resolves to a forbidden address|host name does not resolve)$/) });

      for (const type of ["url", "website"]) {
        const source = await api(`/v1/brand-profiles/${profileId}/sources`, { method: "POST", body: { type, url: `http://${name}:4900/about` } });
        expect(source.status).toBe(400);
        expect(source.body.error.message).toBe("url: resolves to a forbidden address");
      }
      const hook = await api("/v1/webhooks", { method: "POST", body: { url: `https://${name}/hooks` } });
      expect(hook.status).toBe(400);
      expect(hook.body.error.message).toBe("url: resolves to a forbidden address");

      // The parser-confusion URL is judged by the host WHATWG sees (127.0.0.1), not the one after `@`.
      const confused = await api(`/v1/brand-profiles/${profileId}/sources`, { method: "POST", body: { type: "url", url: "http://127.0.0.1:4900\\@10.0.0.1/" } });
      expect(confused.status).toBe(400);
      expect(confused.body.error.message).toBe("url: resolves to a forbidden address");

      expect({ profiles: await count("brand-knowledge", "brand_profiles"), sources: await count("brand-knowledge", "sources"), endpoints: await count("webhooks", "endpoints") }).toEqual(before);
    });
  });

  describe("in development (loopback allowed)", () => {
    let platform: PlatformProcess;
    let api: ReturnType<typeof client>;
    beforeAll(async () => {
      platform = await cluster.spawn(ALL, { NODE_ENV: "development" });
      const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN);
      api = client(platform.url, key);
    });
    afterAll(() => platform?.stop());

    it("stores and shows every URL in its WHATWG serialization, the form the fetch uses", async () => {
      const profile = await api("/v1/brand-profiles", { method: "POST", body: { name: "Acme", website_url: "HTTP://LOCALHOST:80/a/./b/../c", ingest_website: false } });
      expect(profile.status).toBe(201);
      expect(profile.body.website_url).toBe("http://localhost/a/c");

      const source = await api(`/v1/brand-profiles/${profile.body.id}/sources`, { method: "POST", body: { type: "url", url: "http://127.0.0.1:4900\\@10.0.0.1/" } });
      expect(source.status).toBe(202);
      const stored = await mongo.db(`${cluster.mongo.prefix}brand-knowledge`).collection("sources").findOne({ _id: source.body.id });
      expect(stored?.url).toBe("http://127.0.0.1:4900/@10.0.0.1/");
      expect(new URL(stored!.url).hostname).toBe("127.0.0.1");
      const listed = await api(`/v1/brand-profiles/${profile.body.id}/sources`);
      expect(listed.body.data[0].url).toBe("http://127.0.0.1:4900/@10.0.0.1/");

      const hook = await api("/v1/webhooks", { method: "POST", body: { url: "http://127.0.0.1:4901/%7Ehooks/../in?x=1#frag" } });
      expect(hook.status).toBe(201);
      expect(hook.body.url).toBe("http://127.0.0.1:4901/in?x=1#frag");
    });
  });
});
