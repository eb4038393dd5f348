import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { ROOT } from "../support/paths";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";

const run = promisify(execFile);

/**
 * The README's quick start, taken from the README itself (so it cannot drift), from its first line to the
 * usage report, run with bash against the platform started as `npm start` starts it: it must end in a real
 * article. Only the three lines that name the reader's own address, key and admin token are replaced.
 */
function quickStartScript(): string {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quick start with curl"));
  const block = /```bash\n([\s\S]*?)```/.exec(section)![1];
  const lines = block.split("\n");
  const end = lines.findIndex((l) => l.includes("/v1/usage?days=7"));
  return lines
    .slice(0, end + 1)
    .filter((l) => !/^(API|KEY|ADMIN)=/.test(l))
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
    const { stdout } = await run("bash", ["-c", script], { env: { ...process.env, API: platform.url, KEY: key, ADMIN: ADMIN_TOKEN }, timeout: 120_000, maxBuffer: 10 * 1024 * 1024 });
    const results = [...stdout.matchAll(/"status": "(\w+)"/g)].map((m) => m[1]);
    // The ingest job, then the article job: both succeed.
    expect(results.slice(0, 2)).toEqual(["succeeded", "succeeded"]);
    expect(stdout).not.toContain('"error": "');
    expect(stdout).toMatch(/home composting/i);
    expect(stdout).toMatch(/"object":\s*"usage"/);
  });
});
