import jwt from "jsonwebtoken";
import { extensionTypeOf, formParts, imageTypeOf, startFakeServer, type FakeReply, type FakeServer } from "./server";

/**
 * Ghost Admin API as a fake (ghost.org/docs/admin-api): `Authorization: Ghost <JWT>` where the JWT is
 * HS256 with the hex-decoded secret, header `kid` = the key id, `aud` = `/admin/`, at most 5 minutes
 * (`exp - iat ≤ 300`), else 401 `UnauthorizedError`; `Accept-Version` required. `POST /posts/?source=html`
 * (201 `{posts: [post]}`), `GET /posts/{id}/`, `PUT /posts/{id}/?source=html` with the current
 * `updated_at` (else 409 `UpdateCollisionError`), unknown id 404 `NotFoundError`, `POST /images/upload/`
 * multipart `file` (201 `{images: [{url, ref}]}`). Errors are `{errors: [{message, context, type}]}`.
 */

export interface FakeGhost extends FakeServer {
  posts: Map<string, any>;
  images: Map<string, { bytes: Buffer; mediaType: string }>;
  keyId: string;
  secret: string;
  adminApiKey: string;
}

const err = (status: number, type: string, message: string, context: string | null = null): FakeReply => ({ status, body: { errors: [{ message, context, type }] } });
const hexId = () => [...Array(24)].map(() => Math.floor(Math.random() * 16).toString(16)).join("");

export async function startFakeGhost(): Promise<FakeGhost> {
  const keyId = hexId();
  const secret = [...Array(64)].map(() => Math.floor(Math.random() * 16).toString(16)).join("");
  const posts = new Map<string, any>();
  const images = new Map<string, { bytes: Buffer; mediaType: string }>();
  let base = "";
  const admin = "/ghost/api/admin";

  const authenticate = (header: string | undefined): FakeReply | undefined => {
    const m = /^Ghost (.+)$/.exec(header ?? "");
    if (!m) return err(401, "UnauthorizedError", "Authorization header format is \"Authorization: Ghost [token]\"");
    const decoded = jwt.decode(m[1], { complete: true });
    if (!decoded || decoded.header.kid !== keyId) return err(401, "UnauthorizedError", "Unknown Admin API Key");
    try {
      const payload = jwt.verify(m[1], Buffer.from(secret, "hex"), { algorithms: ["HS256"], audience: "/admin/" }) as jwt.JwtPayload;
      if (typeof payload.iat !== "number" || typeof payload.exp !== "number" || payload.exp - payload.iat > 300) return err(401, "UnauthorizedError", "Invalid token: token expires too far in the future");
    } catch (e) {
      return err(401, "UnauthorizedError", `Invalid token: ${(e as Error).message}`);
    }
    return undefined;
  };

  const server = await startFakeServer(async (req) => {
    if (!req.path.startsWith(admin)) return err(404, "NotFoundError", "Resource not found");
    const denied = authenticate(req.headers.authorization as string | undefined);
    if (denied) return denied;
    if (!req.headers["accept-version"]) return err(400, "BadRequestError", "Accept-Version header is required");
    const route = req.path.slice(admin.length);

    if (route === "/images/upload/" && req.method === "POST") {
      const form = await formParts(req);
      const file = form.get("file");
      if (!(file instanceof Blob)) return err(422, "ValidationError", "Please select an image.", "file");
      const name = (file as File).name;
      const bytes = Buffer.from(await file.arrayBuffer());
      // Ghost's upload validation: an image extension, and a file that is the image it says.
      if (!extensionTypeOf(name) || imageTypeOf(bytes) !== file.type) return err(415, "UnsupportedMediaTypeError", "Please select a valid image file.", "file");
      images.set(name, { bytes, mediaType: file.type });
      return { status: 201, body: { images: [{ url: `${base}/content/images/${name}`, ref: form.get("ref") }] } };
    }
    const validate = (post: any): FakeReply | undefined => {
      if (!post) return err(422, "ValidationError", "No root key ('posts') provided.");
      if (post.html !== undefined && req.query.get("source") !== "html") return err(422, "ValidationError", "html is only read with ?source=html");
      if (post.status && !["published", "draft", "scheduled"].includes(post.status)) return err(422, "ValidationError", "Validation (isIn) failed for status", "status");
      if (post.custom_excerpt && post.custom_excerpt.length > 300) return err(422, "ValidationError", "Validation (isLength) failed for custom_excerpt", "custom_excerpt");
      if (post.meta_title && post.meta_title.length > 300) return err(422, "ValidationError", "Validation (isLength) failed for meta_title", "meta_title");
      return undefined;
    };
    const resource = (id: string) => ({ id, uuid: `uuid-${id}`, url: `${base}/${posts.get(id).slug}/`, ...posts.get(id) });
    if (route === "/posts/" && req.method === "GET") return { status: 200, body: { posts: [...posts.keys()].slice(0, 1).map(resource), meta: { pagination: {} } } };
    if (route === "/posts/" && req.method === "POST") {
      const post = req.json?.posts?.[0];
      const problem = validate(post);
      if (problem) return problem;
      if (!post.title) return err(422, "ValidationError", "Value in [posts.title] cannot be blank.", "title");
      const id = hexId();
      posts.set(id, { status: "draft", ...post, tags: (post.tags ?? []).map((t: any) => ({ name: t.name })), updated_at: new Date().toISOString() });
      return { status: 201, body: { posts: [resource(id)] } };
    }
    const m = /^\/posts\/([0-9a-f]{24})\/$/.exec(route);
    if (m) {
      const id = m[1];
      if (!posts.has(id)) return err(404, "NotFoundError", "Post not found.");
      if (req.method === "GET") return { status: 200, body: { posts: [resource(id)] } };
      if (req.method === "PUT") {
        const post = req.json?.posts?.[0];
        const problem = validate(post);
        if (problem) return problem;
        if (!post.updated_at) return err(422, "ValidationError", "Validation error, cannot edit post.", "updated_at is required");
        if (post.updated_at !== posts.get(id).updated_at) return err(409, "UpdateCollisionError", "Saving failed! Someone else is editing this post.");
        await new Promise((r) => setTimeout(r, 2)); // a new updated_at
        posts.set(id, { ...posts.get(id), ...post, updated_at: new Date().toISOString() });
        return { status: 200, body: { posts: [resource(id)] } };
      }
      if (req.method === "DELETE") {
        posts.delete(id);
        return { status: 204 };
      }
    }
    return err(404, "NotFoundError", "Resource not found");
  });
  base = server.url;
  return Object.assign(server, { posts, images, keyId, secret, adminApiKey: `${keyId}:${secret}` });
}
