import fs from "node:fs";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { OPENAPI_PATH } from "./openapi";

/**
 * `GET /docs`: Swagger UI (swagger-ui-dist, from node_modules, never a CDN) rendering `/v1/openapi.json`,
 * under a CSP that allows only this origin's scripts and styles; the init code is a served file, not inline.
 */

export const DOCS_PATH = "/docs";

export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The renderer's files served, by name: only these, never a path taken from the request. */
const VENDOR_ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const INIT_JS = `"use strict";
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(OPENAPI_PATH)},
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
});
`;

const HTML = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Article platform API</title>
    <link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
    <link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PATH}/assets/docs-init.js"></script>
  </body>
</html>
`;

function vendorDir(): string {
  return path.dirname(require.resolve("swagger-ui-dist/package.json"));
}

const assetCache = new Map<string, Buffer>();

function assetBytes(name: string): Buffer | undefined {
  if (name === "docs-init.js") return Buffer.from(INIT_JS);
  if (!Object.prototype.hasOwnProperty.call(VENDOR_ASSETS, name)) return undefined;
  let bytes = assetCache.get(name);
  if (!bytes) {
    bytes = fs.readFileSync(path.join(vendorDir(), name));
    assetCache.set(name, bytes);
  }
  return bytes;
}

function send(res: ServerResponse, type: string, bytes: Buffer, cacheControl: string): void {
  res.writeHead(200, {
    "content-type": type,
    "content-length": bytes.length,
    "content-security-policy": DOCS_CSP,
    "x-content-type-options": "nosniff",
    "cache-control": cacheControl,
  });
  res.end(bytes);
}

export function writeDocsPage(res: ServerResponse): void {
  send(res, "text/html; charset=utf-8", Buffer.from(HTML), "no-cache");
}

/** Serves one asset; false when there is no such asset (the caller answers 404). */
export function writeDocsAsset(res: ServerResponse, name: string): boolean {
  const bytes = assetBytes(name);
  if (!bytes) return false;
  const type = name === "docs-init.js" ? "text/javascript; charset=utf-8" : VENDOR_ASSETS[name];
  send(res, type, bytes, "public, max-age=3600");
  return true;
}

export function writeOpenApi(res: ServerResponse, json: string): void {
  const bytes = Buffer.from(json);
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": bytes.length, "cache-control": "no-cache" });
  res.end(bytes);
}
