import { randomBytes } from "node:crypto";
import { bearer, formParts, imageTypeOf, startFakeServer, type FakeReply, type FakeServer } from "./server";

/**
 * Strapi 5 REST API as a fake (docs.strapi.io/cms/api/rest): `Authorization: Bearer <API token>`
 * (else 401 `UnauthorizedError`), `/api/{collection}` with `{data: {…}}` bodies answered
 * `{data: {id, documentId, …, publishedAt}, meta: {}}`; `?status=draft` writes a draft (publishedAt
 * null), without it the document is published; `PUT /api/{collection}/{documentId}`, unknown 404;
 * unknown attributes 400 `ValidationError` ("Invalid key …"); `POST /api/upload` multipart `files`
 * answered `[{id, url, alternativeText}]`. Errors are `{data: null, error: {status, name, message, details}}`.
 */

export interface FakeStrapi extends FakeServer {
  entries: Map<string, any>;
  files: Map<number, { bytes: Buffer; name: string; alternativeText: string }>;
}

const err = (status: number, name: string, message: string, details: unknown = {}): FakeReply => ({ status, body: { data: null, error: { status, name, message, details } } });

export async function startFakeStrapi(opts: { token: string; collection: string; attributes: string[] }): Promise<FakeStrapi> {
  const entries = new Map<string, any>();
  const files = new Map<number, { bytes: Buffer; name: string; alternativeText: string }>();
  let nextId = 1;
  const collection = `/api/${opts.collection}`;

  const server = await startFakeServer(async (req) => {
    if (!req.path.startsWith("/api/")) return err(404, "NotFoundError", "Not Found");
    if (bearer(req) !== opts.token) return err(401, "UnauthorizedError", "Missing or invalid credentials");
    if (req.path === "/api/upload" && req.method === "POST") {
      const form = await formParts(req);
      const file = form.get("files");
      if (!(file instanceof Blob)) return err(400, "ValidationError", "Files are empty");
      const info = JSON.parse(String(form.get("fileInfo") ?? "{}"));
      // The upload plugin reads the image's type from its bytes (for its formats and dimensions).
      if (imageTypeOf(Buffer.from(await file.arrayBuffer())) !== file.type) return err(400, "ValidationError", "File type does not match its content");
      const id = nextId++;
      files.set(id, { bytes: Buffer.from(await file.arrayBuffer()), name: (file as File).name, alternativeText: info.alternativeText ?? "" });
      return { status: 201, body: [{ id, documentId: randomBytes(12).toString("hex"), name: (file as File).name, alternativeText: info.alternativeText ?? null, url: `/uploads/${(file as File).name}` }] };
    }
    const validate = (data: any): FakeReply | undefined => {
      if (!data || typeof data !== "object") return err(400, "ValidationError", "Missing \"data\" payload in the request body");
      for (const key of Object.keys(data)) {
        if (!opts.attributes.includes(key)) return err(400, "ValidationError", `Invalid key ${key}`, { key, path: [key], source: "body" });
      }
      return undefined;
    };
    const status = req.query.get("status");
    const resource = (documentId: string) => ({ data: { ...entries.get(documentId), documentId }, meta: {} });
    if (req.path === collection && req.method === "GET") return { status: 200, body: { data: [...entries.keys()].slice(0, 1).map((k) => resource(k).data), meta: { pagination: { page: 1, pageSize: 1 } } } };
    if (req.path === collection && req.method === "POST") {
      const problem = validate(req.json?.data);
      if (problem) return problem;
      const documentId = randomBytes(12).toString("hex");
      entries.set(documentId, { id: nextId++, ...req.json.data, publishedAt: status === "draft" ? null : new Date().toISOString() });
      return { status: 201, body: resource(documentId) };
    }
    const m = new RegExp(`^${collection}/([0-9a-z]+)$`).exec(req.path);
    if (m) {
      const documentId = m[1];
      if (!entries.has(documentId)) return err(404, "NotFoundError", "Not Found");
      if (req.method === "GET") return { status: 200, body: resource(documentId) };
      if (req.method === "PUT") {
        const problem = validate(req.json?.data);
        if (problem) return problem;
        entries.set(documentId, { ...entries.get(documentId), ...req.json.data, publishedAt: status === "draft" ? null : new Date().toISOString() });
        return { status: 200, body: resource(documentId) };
      }
      if (req.method === "DELETE") {
        entries.delete(documentId);
        return { status: 204 };
      }
    }
    return err(404, "NotFoundError", "Not Found");
  });
  return Object.assign(server, { entries, files });
}
