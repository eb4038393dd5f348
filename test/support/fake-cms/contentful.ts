import { randomBytes } from "node:crypto";
import { bearer, startFakeServer, type FakeReply, type FakeServer } from "./server";

/**
 * Contentful's Content Management and Upload APIs as one fake (contentful.com/developers/docs/references/
 * content-management-api): Bearer management token (else 401 `AccessTokenInvalid`); JSON bodies must be
 * `application/vnd.contentful.management.v1+json`; `POST …/entries` needs `X-Contentful-Content-Type`;
 * `PUT …/entries/{id}` and `PUT …/published` need the current `X-Contentful-Version` (else 409
 * `VersionMismatch`); fields must be localized objects keyed by an existing locale and named in the
 * content type (else 422 `ValidationFailed`); `POST /spaces/{space}/uploads` (octet-stream), assets
 * created from an upload link, `PUT …/files/{locale}/process`, published. Errors are
 * `{sys: {type: "Error", id}, message, details, requestId}`.
 */

export interface FakeContentful extends FakeServer {
  entries: Map<string, { sys: any; fields: any }>;
  assets: Map<string, { sys: any; fields: any }>;
  uploads: Map<string, Buffer>;
}

const CMA = "application/vnd.contentful.management.v1+json";
const err = (status: number, id: string, message: string, details?: unknown): FakeReply => ({
  status,
  body: { sys: { type: "Error", id }, message, ...(details ? { details } : {}), requestId: randomBytes(8).toString("hex") },
});

export async function startFakeContentful(opts: { token: string; spaceId: string; environmentId: string; contentTypeId: string; fields: string[]; locale: string }): Promise<FakeContentful> {
  const entries = new Map<string, { sys: any; fields: any }>();
  const assets = new Map<string, { sys: any; fields: any }>();
  const uploads = new Map<string, Buffer>();
  const env = `/spaces/${opts.spaceId}/environments/${opts.environmentId}`;
  const newId = () => randomBytes(11).toString("base64url");

  const server = await startFakeServer((req) => {
    if (bearer(req) !== opts.token) return err(401, "AccessTokenInvalid", "The access token you sent could not be found or is invalid.");
    if (req.body.length > 0 && req.headers["content-type"] !== CMA && !req.path.endsWith("/uploads")) return err(415, "UnsupportedMediaType", `Content-Type must be ${CMA}`);
    const version = Number(req.headers["x-contentful-version"]);

    if (req.method === "POST" && req.path === `/spaces/${opts.spaceId}/uploads`) {
      if (req.headers["content-type"] !== "application/octet-stream") return err(415, "UnsupportedMediaType", "Uploads must be application/octet-stream");
      const id = newId();
      uploads.set(id, req.body);
      return { status: 201, body: { sys: { type: "Upload", id } } };
    }
    if (req.method === "GET" && req.path === `${env}/content_types/${opts.contentTypeId}`) return { status: 200, body: { sys: { id: opts.contentTypeId, type: "ContentType" }, name: "Blog post" } };

    if (req.method === "POST" && req.path === `${env}/assets`) {
      const file = req.json?.fields?.file?.[opts.locale];
      const uploadId = file?.uploadFrom?.sys?.id;
      if (!file?.contentType || !file?.fileName || !uploads.has(uploadId)) return err(422, "ValidationFailed", "Validation error", { errors: [{ name: "required", path: ["fields", "file"] }] });
      const id = newId();
      assets.set(id, { sys: { id, type: "Asset", version: 1 }, fields: req.json.fields });
      return { status: 201, body: assets.get(id) };
    }
    const assetMatch = new RegExp(`^${env}/assets/([^/]+)(/files/([^/]+)/process|/published)?$`).exec(req.path);
    if (assetMatch) {
      const asset = assets.get(assetMatch[1]);
      if (!asset) return err(404, "NotFound", "The resource could not be found.");
      if (req.method === "GET" && !assetMatch[2]) return { status: 200, body: asset };
      if (version !== asset.sys.version) return err(409, "VersionMismatch", "Version mismatch");
      if (req.method === "PUT" && assetMatch[3]) {
        const file = asset.fields.file[decodeURIComponent(assetMatch[3])];
        if (!file) return err(422, "ValidationFailed", "No file for this locale");
        file.url = `//images.ctfassets.test/${opts.spaceId}/${assetMatch[1]}/${file.fileName}`;
        asset.sys.version++;
        return { status: 204 };
      }
      if (req.method === "PUT" && assetMatch[2] === "/published") {
        asset.sys.publishedVersion = asset.sys.version;
        asset.sys.version++;
        return { status: 200, body: asset };
      }
    }

    const validateFields = (fields: any): FakeReply | undefined => {
      if (!fields || typeof fields !== "object") return err(422, "ValidationFailed", "Validation error", { errors: [{ name: "required", path: ["fields"] }] });
      for (const [name, value] of Object.entries(fields)) {
        if (!opts.fields.includes(name)) return err(422, "ValidationFailed", "Validation error", { errors: [{ name: "unknown", path: ["fields", name], details: `The property "${name}" is not defined on the content type` }] });
        const locales = Object.keys(value as object);
        if (locales.length !== 1 || locales[0] !== opts.locale) return err(422, "ValidationFailed", "Validation error", { errors: [{ name: "unknown", path: ["fields", name, locales[0]], details: "locale does not exist" }] });
      }
      return undefined;
    };
    if (req.method === "POST" && req.path === `${env}/entries`) {
      if (req.headers["x-contentful-content-type"] !== opts.contentTypeId) return err(422, "ValidationFailed", "Validation error", { errors: [{ name: "notResolvable", path: ["sys", "contentType"] }] });
      const problem = validateFields(req.json?.fields);
      if (problem) return problem;
      const id = newId();
      entries.set(id, { sys: { id, type: "Entry", version: 1, contentType: { sys: { id: opts.contentTypeId } } }, fields: req.json.fields });
      return { status: 201, body: entries.get(id) };
    }
    const entryMatch = new RegExp(`^${env}/entries/([^/]+)(/published)?$`).exec(req.path);
    if (entryMatch) {
      const entry = entries.get(entryMatch[1]);
      if (!entry) return err(404, "NotFound", "The resource could not be found.");
      if (req.method === "GET" && !entryMatch[2]) return { status: 200, body: entry };
      if (req.method === "DELETE" && entryMatch[2]) {
        delete entry.sys.publishedVersion;
        entry.sys.version++;
        return { status: 200, body: entry };
      }
      if (version !== entry.sys.version) return err(409, "VersionMismatch", "Version mismatch");
      if (req.method === "PUT" && !entryMatch[2]) {
        const problem = validateFields(req.json?.fields);
        if (problem) return problem;
        entry.fields = req.json.fields;
        entry.sys.version++;
        return { status: 200, body: entry };
      }
      if (req.method === "PUT" && entryMatch[2]) {
        entry.sys.publishedVersion = entry.sys.version;
        entry.sys.version++;
        return { status: 200, body: entry };
      }
    }
    return err(404, "NotFound", "The resource could not be found.");
  });
  return Object.assign(server, { entries, assets, uploads });
}
