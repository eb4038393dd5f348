import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { request } from "../support/http";
import { spawnPlatform, tempDir } from "../support/platform";
import { waitFor } from "../support/wait";

/** What a new user sees on `npm start` with nothing configured: a token, a demo organization, a key that works. */
describe("first start on the embedded defaults", () => {
  const dataDir = tempDir("e2e-first-start");

  it("generates an admin token, creates a demo organization with a test key, and keeps both across restarts", async () => {
    const first = await spawnPlatform({ env: { DATA_DIR: dataDir } });
    let token: string;
    let key: string;
    let integrationId: string;
    const orgId = () => JSON.parse(fs.readFileSync(path.join(dataDir, "demo-bootstrap.json"), "utf8")).org_id as string;
    const wordpress = { kind: "wordpress", name: "Blog", site_url: "http://127.0.0.1:9", username: "editor", application_password: "abcd efgh ijkl mnop" };
    try {
      // The banner follows readiness by a moment (it is printed once the demo organization exists).
      const out = await waitFor(() => (/svc_test_/.test(first.output()) ? first.output() : undefined), "the welcome banner");
      token = /Admin token \(generated, kept in [^)]+\): (\S+)/.exec(out)![1];
      key = /^\s+(svc_test_[A-Za-z0-9_-]{43})$/m.exec(out)![1];
      expect(fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim()).toBe(token);
      // The banner names the address the gateway really listens on: loopback by default.
      expect(out).toContain(`Article platform listening on ${first.url}\n`);
      expect(out).toContain(`Try: curl -H "Authorization: Bearer ${key}" ${first.url}/v1/usage?days=7`);
      const external = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal);
      if (external) expect(await connects(external.address, Number(new URL(first.url).port))).toBe(false);
      expect((fs.statSync(path.join(dataDir, "admin-token")).mode & 0o777).toString(8)).toBe("600");

      const usage = await request(first.url, "/v1/usage?days=1", { token: key });
      expect(usage.status).toBe(200);
      expect(usage.body.credit_balance).toBe(1000);
      expect((await request(first.url, "/admin/orgs", { method: "POST", token, body: { name: "Mine" } })).status).toBe(201);

      // Integration credentials: a key generated once and kept (0600) under DATA_DIR.
      const created = await request(first.url, `/admin/orgs/${orgId()}/integrations`, { method: "POST", token, body: wordpress });
      expect(created.status).toBe(201);
      integrationId = created.body.id;
      expect(fs.readFileSync(path.join(dataDir, "integrations-key"), "utf8").trim()).toMatch(/^local[0-9a-f]{6}:[A-Za-z0-9+/]{43}=$/);
      expect((fs.statSync(path.join(dataDir, "integrations-key")).mode & 0o777).toString(8)).toBe("600");
    } finally {
      await first.stop();
    }

    const second = await spawnPlatform({ env: { DATA_DIR: dataDir } });
    try {
      await waitFor(() => (second.output().includes("listening on") ? true : undefined), "the second banner");
      expect(second.output()).not.toMatch(/svc_test_/);
      expect(second.output()).not.toContain(token);
      expect((await request(second.url, "/v1/usage?days=1", { token: key })).status).toBe(200);
      expect((await request(second.url, "/admin/orgs", { method: "POST", token, body: { name: "Again" } })).status).toBe(201);
      // The kept key still opens the credentials sealed before the restart: the test reaches the (closed) site.
      const test = await request(second.url, `/admin/integrations/${integrationId}/test`, { method: "POST", token });
      expect(test.body).toEqual({ object: "integration_test", ok: false, status: null, message: expect.stringContaining("connection refused") });
    } finally {
      await second.stop();
    }
  });
});

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

describe("BIND_HOST", () => {
  it("opens every interface only when configured, and the banner says so", async () => {
    const p = await spawnPlatform({ env: { DATA_DIR: tempDir("e2e-bind"), EMBEDDED_MONGO_IN_MEMORY: "true", BIND_HOST: "0.0.0.0" } });
    try {
      const port = new URL(p.url).port;
      const out = await waitFor(() => (p.output().includes("Article platform listening on") ? p.output() : undefined), "the banner");
      expect(out).toContain(`Article platform listening on 0.0.0.0:${port} (every interface); from this machine: http://127.0.0.1:${port}`);
      const external = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal);
      if (external) expect(await connects(external.address, Number(port))).toBe(true);
    } finally {
      await p.stop();
    }
  });
});

describe("first start in production", () => {
  it("creates no demo organization and prints no API key; the admin token creates the first organization", async () => {
    const dataDir = tempDir("e2e-first-start-production");
    const p = await spawnPlatform({ env: { DATA_DIR: dataDir, NODE_ENV: "production" } });
    try {
      const out = await waitFor(() => (p.output().includes("Article platform listening on") ? p.output() : undefined), "the banner");
      expect(out).not.toMatch(/svc_(test|live)_/);
      expect(out).not.toContain("Demo organization");
      expect(fs.existsSync(path.join(dataDir, "demo-bootstrap.json"))).toBe(false);
      const token = fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim();
      expect((await request(p.url, "/admin/orgs", { token })).body.data).toEqual([]);
      // What README#first-start tells an operator to do.
      const org = await request(p.url, "/admin/orgs", { method: "POST", token, body: { name: "First", credits: 100 } });
      expect(org.status).toBe(201);
      const key = await request(p.url, `/admin/orgs/${org.body.id}/keys`, { method: "POST", token, body: { mode: "live" } });
      expect(key.status).toBe(201);
      expect((await request(p.url, "/v1/usage?days=1", { token: key.body.key })).body.credit_balance).toBe(100);
    } finally {
      await p.stop();
    }
  });
});
