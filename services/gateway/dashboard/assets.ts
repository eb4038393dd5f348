import fs from "node:fs";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { SECURITY_HEADERS } from "./http";

/**
 * The dashboard's static files, by name only (never a path from the request): its own stylesheet
 * and script from the repository, and uPlot (the chart library) from node_modules. No CDN.
 */

export const ASSETS_PATH = "/dashboard/assets";

/**
 * The dashboard's own files: in the sources when they are there (development, tests), else the
 * copy `npm run build` puts beside this module in dist/ (the Docker image has only dist/).
 */
function ownDir(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    // The repository (or image) root: the one with package.json.
    if (fs.existsSync(path.join(dir, "package.json"))) {
      const source = path.join(dir, "services/gateway/dashboard/assets");
      return fs.existsSync(path.join(source, "dashboard.js")) ? source : path.join(__dirname, "assets");
    }
    if (path.dirname(dir) === dir) return path.join(__dirname, "assets");
  }
}

const OWN = (name: string) => path.join(ownDir(), name);
const UPLOT = (name: string) => path.join(path.dirname(require.resolve("uplot/package.json")), "dist", name);

const ASSETS: Record<string, { file: () => string; type: string }> = {
  "dashboard.css": { file: () => OWN("dashboard.css"), type: "text/css; charset=utf-8" },
  "dashboard.js": { file: () => OWN("dashboard.js"), type: "text/javascript; charset=utf-8" },
  "desk.js": { file: () => OWN("desk.js"), type: "text/javascript; charset=utf-8" },
  "uplot.css": { file: () => UPLOT("uPlot.min.css"), type: "text/css; charset=utf-8" },
  "uplot.js": { file: () => UPLOT("uPlot.iife.min.js"), type: "text/javascript; charset=utf-8" },
};

const cache = new Map<string, Buffer>();

/** Serves one asset; false when there is no such asset. */
export function writeDashboardAsset(res: ServerResponse, name: string): boolean {
  if (!Object.prototype.hasOwnProperty.call(ASSETS, name)) return false;
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = fs.readFileSync(ASSETS[name].file());
    cache.set(name, bytes);
  }
  res.writeHead(200, { ...SECURITY_HEADERS, "content-type": ASSETS[name].type, "content-length": bytes.length, "cache-control": "no-cache" });
  res.end(bytes);
  return true;
}
