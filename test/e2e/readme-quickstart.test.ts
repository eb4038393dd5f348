import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { ROOT } from "../support/paths";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";
import { freePort } from "../support/ports";

const run = promisify(execFile);

/**
 * The README's quick start, taken from the README itself (so it cannot drift): its whole first block, run with
 * bash against the platform started as `npm start` starts it. Only the four lines that name the reader's own
 * address, key, admin token and receiver port are replaced. (The publishing block needs a real WordPress.)
 */
function quickStartScript(): string {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start with curl"));
  const block = /```bash\n([\s\S]*?)```/.exec(section)![1];
  return block
    .split("\n")
    .filter((l) => !/^(API|KEY|ADMIN|HOOK_PORT)=/.test(l))
    .join("\n");
}

describe("the README's quick start", () => {
  let platform: PlatformProcess;
  beforeAll(async () => {
    platform = await spawnPlatform({ env: { ADMIN_TOKEN, DATA_DIR: tempDir("e2e-readme"), EMBEDDED_MONGO_IN_MEMORY: "true", JOB_POLL_MS: "200" } });
  });
  afterAll(() => platform?.stop());

  it("ends in a real article when pasted as printed", async () => {
    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 100 });
    const script = `set -euo pipefail\n${quickStartScript()}`;
    const env = { ...process.env, API: platform.url, KEY: key, ADMIN: ADMIN_TOKEN, HOOK_PORT: String(await freePort()) };
    const { stdout } = await run("bash", ["-c", script], { env, timeout: 120_000, maxBuffer: 10 * 1024 * 1024 });
    const results = [...stdout.matchAll(/"status": "(\w+)"/g)].map((m) => m[1]);
    // The ingest job, then the article job: both succeed.
    expect(results.slice(0, 2)).toEqual(["succeeded", "succeeded"]);
    expect(stdout).not.toContain('"error": "');
    expect(stdout).toMatch(/home composting/i);
    expect(stdout).toMatch(/"object":\s*"usage"/);
    // The local receiver got the ingest job's event (delivered before the article was even written).
    expect(stdout).toMatch(/^webhook received: \{"event":"job\.succeeded"/m);
    // The admin part: organizations listed from GET /admin/orgs, the newest one used, its key revoked.
    expect(stdout).toMatch(/^[0-9a-f-]{36} {2}Acme {2}500 credits$/m);
    expect(stdout).toMatch(/"credit_balance":600/);
    expect(stdout).toMatch(/\{"id":"[0-9a-f-]{36}","revoked_at":"\d{4}-/);
    expect(stdout).toMatch(/\{"event":"job\.succeeded","status":"delivered"\}/);
    expect(stdout).not.toMatch(/\bnull\b.*credits$/m);
  });
});
