import { randomBytes } from "node:crypto";
import type { Db } from "mongodb";
import { systemClock } from "../../shared/clock";
import { publishingConfig } from "../../services/articles/publishing/clients";
import { createIntegration, loadIntegration, listIntegrations } from "../../services/articles/publishing/integrations";
import { ARTICLE_COLLECTIONS, articleCollections } from "../../services/articles/store";
import { loadConfig } from "../../shared/config";
import { newId } from "../../shared/ids";
import { CreateIntegrationBody } from "../../shared/schemas/publishing";
import { useServiceDatabase } from "../support/test-database";

/** Integration records on the articles database: what is stored, and key rotation on use. */
describe("integration records", () => {
  let db: Db;
  useServiceDatabase("articles", ARTICLE_COLLECTIONS, (d) => (db = d));

  const oldKey = { id: "old", key: randomBytes(32) };
  const newKey = { id: "new", key: randomBytes(32) };
  const deps = (keys: { id: string; key: Buffer }[]) => ({
    db,
    clock: systemClock,
    keys,
    publishing: publishingConfig(loadConfig({})),
    organizationExists: async () => true,
  });
  const body = CreateIntegrationBody.parse({ kind: "strapi", name: "CMS", site_url: "https://93.184.215.14/cms/", api_token: "token-0123456789abcdef", collection: "posts" });

  it("stores the settings in clear and only the sealed secret and its hint", async () => {
    const orgId = newId();
    const created = await createIntegration(deps([oldKey]), orgId, body);
    const stored = await articleCollections(db).integrations.findOne({ _id: created.id });
    expect(stored!.settings).toEqual({ site_url: "https://93.184.215.14/cms", collection: "posts", strapi_version: 5, fields: expect.any(Object), body_format: "markdown" });
    expect(JSON.stringify(stored)).not.toContain("token-0123456789abcdef");
    expect(stored!.credentials_hint).toBe("••••cdef");
    expect((await listIntegrations(db, orgId)).data).toEqual([created]);
    expect((await listIntegrations(db, newId())).data).toEqual([]);
  });

  it("opens a secret sealed with an older key and seals it again with the current one", async () => {
    const created = await createIntegration(deps([oldKey]), newId(), body);
    const { input } = await loadIntegration(deps([newKey, oldKey]), created.id);
    expect(input).toMatchObject({ kind: "strapi", api_token: "token-0123456789abcdef" });
    const stored = await articleCollections(db).integrations.findOne({ _id: created.id });
    expect(stored!.credentials.kid).toBe("new");
    // The old key can go now.
    expect((await loadIntegration(deps([newKey]), created.id)).input).toMatchObject({ api_token: "token-0123456789abcdef" });
  });

  it("answers 503 naming the missing key, and 404 for another organization's integration", async () => {
    const orgId = newId();
    const created = await createIntegration(deps([oldKey]), orgId, body);
    await expect(loadIntegration(deps([newKey]), created.id)).rejects.toMatchObject({ type: "service_unavailable", message: expect.stringContaining("the key old") });
    await expect(loadIntegration(deps([oldKey]), created.id, newId())).rejects.toMatchObject({ type: "not_found" });
    await expect(createIntegration({ ...deps([]), keys: undefined }, orgId, body)).rejects.toMatchObject({ type: "service_unavailable", message: expect.stringContaining("INTEGRATIONS_ENCRYPTION_KEYS") });
  });
});
