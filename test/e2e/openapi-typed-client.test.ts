import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { createOrgWithKey } from "../support/admin";
import { ADMIN_TOKEN } from "../support/cluster";
import { pageAsMarkdown, ROUTE_PLANNING_PAGES } from "../support/fake-searxng";
import { request } from "../support/http";
import { spawnPlatform, tempDir, type PlatformProcess } from "../support/platform";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const DIR = path.join(ROOT, "test/typed-client");
const GENERATED = path.join(DIR, "generated");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
const OPENAPI_TS = path.join(ROOT, "node_modules/openapi-typescript/bin/cli.js");

/**
 * A typed client generated from the served document (openapi-typescript → `paths`/`components`, called
 * through openapi-fetch) and a small program written against it (test/typed-client/program.ts): the program
 * must type-check against the generated client, then run against the platform, checking every answer
 * against the document's schema for its operation and status.
 */
describe("a typed client generated from GET /v1/openapi.json", () => {
  let platform: PlatformProcess;

  beforeAll(async () => {
    platform = await spawnPlatform({ env: { ADMIN_TOKEN, DATA_DIR: tempDir("e2e-typed-client"), EMBEDDED_MONGO_IN_MEMORY: "true", JOB_POLL_MS: "200" } });
    fs.rmSync(GENERATED, { recursive: true, force: true });
    fs.mkdirSync(GENERATED, { recursive: true });
  });
  afterAll(async () => {
    await platform?.stop();
    fs.rmSync(GENERATED, { recursive: true, force: true });
  });

  it("generates, type-checks a program using it, and runs it: profile, source, article, job, article read, each answer valid", async () => {
    const doc = await request(platform.url, "/v1/openapi.json");
    expect(doc.status).toBe(200);
    fs.writeFileSync(path.join(GENERATED, "openapi.json"), doc.text);
    await run(process.execPath, [OPENAPI_TS, path.join(GENERATED, "openapi.json"), "-o", path.join(GENERATED, "api.ts")], { cwd: ROOT });
    const generated = fs.readFileSync(path.join(GENERATED, "api.ts"), "utf8");
    expect(generated).toContain('"/v1/articles/{id}"');
    expect(generated).toMatch(/Article: \{/);

    // The program type-checks (and compiles) against the generated client only.
    await run(process.execPath, [TSC, "-p", path.join(DIR, "tsconfig.json")], { cwd: ROOT });

    // ...and the generated types are precise: a wrong use is a type error, not `any`.
    fs.writeFileSync(
      path.join(GENERATED, "misuse.ts"),
      'import type { components } from "./api";\nexport const title: components["schemas"]["Article"]["title"] = 42;\nexport const status: components["schemas"]["Job"]["status"] = "done";\n',
    );
    const misuse = await run(process.execPath, [TSC, "--noEmit", "--strict", "--skipLibCheck", path.join(GENERATED, "misuse.ts")], { cwd: ROOT }).then(
      () => "",
      (err: { stdout: string }) => err.stdout,
    );
    expect(misuse).toContain("Type 'number' is not assignable to type 'string'");
    expect(misuse).toContain(`Type '"done"' is not assignable`);

    const { key } = await createOrgWithKey(platform.url, ADMIN_TOKEN, { credits: 100 });
    const input = {
      baseUrl: platform.url,
      apiKey: key,
      topic: "Route planning for field service teams",
      targetKeyword: "route planning",
      sources: [
        { title: "Route planning and arrival windows", content: ROUTE_PLANNING_PAGES.slice(0, 3).map(pageAsMarkdown).join("\n\n") },
        { title: "Emergencies, metrics and mobile tools", content: ROUTE_PLANNING_PAGES.slice(3).map(pageAsMarkdown).join("\n\n") },
      ],
    };
    fs.writeFileSync(path.join(GENERATED, "input.json"), JSON.stringify(input));
    const { stdout } = await run(process.execPath, [path.join(GENERATED, "out/program.js"), path.join(GENERATED, "input.json")], { cwd: ROOT, timeout: 120_000 });
    const summary = JSON.parse(stdout);
    expect(new Set(summary.checked)).toEqual(
      new Set([
        "POST /v1/brand-profiles 201",
        "POST /v1/brand-profiles/{id}/sources 202",
        "GET /v1/jobs/{id} 200",
        "POST /v1/articles 202",
        "GET /v1/articles/{id} 200",
        "GET /v1/articles 200",
        "PATCH /v1/articles/{id} 200",
      ]),
    );
    expect(summary.ingested).toEqual(["succeeded", "succeeded"]);
    expect(summary.job).toEqual({ status: "succeeded", stages: ["recon", "plan", "research", "draft", "edit", "seo", "score", "image"] });
    expect(summary.article).toMatchObject({ status: "draft", image: { media_type: "image/png", width: 1200, height: 630 } });
    expect(summary.article.citations).toBeGreaterThan(0);
    expect(summary.article.json_ld["@graph"].find((node: { "@type": string }) => node["@type"] === "Article").image).toMatchObject({
      "@type": "ImageObject",
      url: summary.article.image.url,
    });
    expect(summary.reviewed).toBe("in_review");
    expect(summary.listed).toEqual([summary.article.id]);
  });
});
