import fs from "node:fs";
import path from "node:path";

/** The project root, found from sources (test/support) and from their build (dist/test/support) alike. */
function findRoot(from: string): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

export const ROOT = findRoot(__dirname);
export const MAIN = path.join(ROOT, "dist/main.js");
export const EMBEDDED_MONGO_CLI = path.join(ROOT, "dist/shared/embedded-mongo/cli.js");
