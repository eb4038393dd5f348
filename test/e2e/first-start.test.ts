import fs from "node:fs";
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
    try {
      // The banner follows readiness by a moment (it is printed once the demo organization exists).
      const out = await waitFor(() => (/svc_test_/.test(first.output()) ? first.output() : undefined), "the welcome banner");
      token = /Admin token \(generated, kept in [^)]+\): (\S+)/.exec(out)![1];
      key = /^\s+(svc_test_[A-Za-z0-9_-]{43})$/m.exec(out)![1];
      expect(fs.readFileSync(path.join(dataDir, "admin-token"), "utf8").trim()).toBe(token);
      expect((fs.statSync(path.join(dataDir, "admin-token")).mode & 0o777).toString(8)).toBe("600");

      const usage = await request(first.url, "/v1/usage?days=1", { token: key });
      expect(usage.status).toBe(200);
      expect(usage.body.credit_balance).toBe(1000);
      expect((await request(first.url, "/admin/orgs", { method: "POST", token, body: { name: "Mine" } })).status).toBe(201);
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
    } finally {
      await second.stop();
    }
  });
});
