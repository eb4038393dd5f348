import { request } from "./http";

/** Creates an organization and one API key through the admin API. */
export async function createOrgWithKey(baseUrl: string, adminToken: string, opts: { credits?: number; rate_limit_rpm?: number; name?: string } = {}) {
  const org = await request(baseUrl, "/admin/orgs", { method: "POST", token: adminToken, body: { name: opts.name ?? "Test org", credits: opts.credits ?? 100 } });
  if (org.status !== 201) throw new Error(`create org: ${org.status} ${org.text}`);
  const key = await request(baseUrl, `/admin/orgs/${org.body.id}/keys`, {
    method: "POST",
    token: adminToken,
    body: { mode: "test", rate_limit_rpm: opts.rate_limit_rpm ?? 1000 },
  });
  if (key.status !== 201) throw new Error(`create key: ${key.status} ${key.text}`);
  return { orgId: org.body.id as string, key: key.body.key as string, keyId: key.body.id as string };
}
