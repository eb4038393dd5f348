import { createHash } from "node:crypto";
import { bearer, imageTypeOf, startFakeServer, type FakeReply, type FakeServer } from "./server";

/**
 * Sanity's HTTP API as a fake (sanity.io/docs/http-reference): Bearer token (else 401
 * `{statusCode, error: "Unauthorized", message}`), dated API versions (`/v2021-06-07/…`),
 * `POST /{v}/data/mutate/{dataset}` with `{mutations: [...]}` (create, createOrReplace,
 * createIfNotExists, delete; a document needs `_id` and `_type`, else 400 `{error: {description,
 * type: "mutationError"}}`) answered `{transactionId, results: [{id, operation}]}`,
 * `POST /{v}/assets/images/{dataset}` (raw bytes; `{document: {_id: "image-<sha1>-…", url}}`) and
 * `GET /{v}/data/query/{dataset}`. Tests reach it through SANITY_API_BASE_URL = `<url>/{project_id}`,
 * so the project id is the first path segment.
 */

export interface FakeSanity extends FakeServer {
  documents: Map<string, any>;
  assets: Map<string, { bytes: Buffer; mediaType: string }>;
  /** The SANITY_API_BASE_URL to configure. */
  hostTemplate: string;
}

const unauthorized: FakeReply = { status: 401, body: { statusCode: 401, error: "Unauthorized", message: "Session not found" } };
const mutationError = (description: string): FakeReply => ({ status: 400, body: { error: { description, type: "mutationError" } } });

export async function startFakeSanity(opts: { token: string; projectId: string; dataset: string }): Promise<FakeSanity> {
  const documents = new Map<string, any>();
  const assets = new Map<string, { bytes: Buffer; mediaType: string }>();
  let tx = 0;

  const server = await startFakeServer((req) => {
    const m = /^\/([a-z0-9-]+)\/(v\d{4}-\d{2}-\d{2})\/(.*)$/.exec(req.path);
    if (!m || m[1] !== opts.projectId) return { status: 404, body: { statusCode: 404, error: "Not Found", message: "Project not found" } };
    if (bearer(req) !== opts.token) return unauthorized;
    const route = m[3];
    if (req.method === "GET" && route === `data/query/${opts.dataset}`) {
      const type = JSON.parse(req.query.get("$type") ?? "null");
      return { status: 200, body: { ms: 1, query: req.query.get("query"), result: [...documents.values()].filter((d) => d._type === type).length } };
    }
    if (req.method === "POST" && route === `assets/images/${opts.dataset}`) {
      const mediaType = String(req.headers["content-type"] ?? "");
      if (!mediaType.startsWith("image/") || (mediaType !== "image/svg+xml" && imageTypeOf(req.body) !== mediaType)) {
        return { status: 400, body: { statusCode: 400, error: "Bad Request", message: "Invalid image, could not read metadata" } };
      }
      // Sanity names an image asset by its SHA-1, its pixel size and its format; a PNG's size is in its IHDR.
      const size = req.body.subarray(12, 16).toString("latin1") === "IHDR" ? `${req.body.readUInt32BE(16)}x${req.body.readUInt32BE(20)}` : "1x1";
      const id = `image-${createHash("sha1").update(req.body).digest("hex")}-${size}-${mediaType.split("/")[1].replace("svg+xml", "svg")}`;
      assets.set(id, { bytes: req.body, mediaType });
      return { status: 200, body: { document: { _id: id, _type: "sanity.imageAsset", url: `https://cdn.sanity.test/images/${opts.projectId}/${opts.dataset}/${id}`, mimeType: mediaType } } };
    }
    if (req.method === "POST" && route === `data/mutate/${opts.dataset}`) {
      const mutations = req.json?.mutations;
      if (!Array.isArray(mutations)) return mutationError("The mutations field must be an array");
      const results: { id: string; operation: string }[] = [];
      const next = new Map(documents);
      for (const mutation of mutations) {
        const [op, arg] = Object.entries(mutation)[0] as [string, any];
        if (op === "delete") {
          if (next.delete(arg?.id)) results.push({ id: arg.id, operation: "delete" });
          continue;
        }
        if (!["create", "createOrReplace", "createIfNotExists"].includes(op)) return mutationError(`Unknown mutation type ${op}`);
        if (typeof arg?._id !== "string" || typeof arg?._type !== "string") return mutationError("Document is missing _id or _type");
        if (op === "create" && next.has(arg._id)) return mutationError(`Document by ID "${arg._id}" already exists`);
        if (op === "createIfNotExists" && next.has(arg._id)) continue;
        const ref = arg.mainImage?.asset?._ref;
        if (ref && !assets.has(ref)) return mutationError(`Document references non-existent document "${ref}"`);
        results.push({ id: arg._id, operation: next.has(arg._id) ? "update" : "create" });
        next.set(arg._id, { ...arg, _rev: `rev${++tx}` });
      }
      documents.clear();
      for (const [k, v] of next) documents.set(k, v);
      return { status: 200, body: { transactionId: `tx${tx}`, results } };
    }
    return { status: 404, body: { statusCode: 404, error: "Not Found", message: "Not found" } };
  });
  return Object.assign(server, { documents, assets, hostTemplate: `${server.url}/{project_id}` });
}
