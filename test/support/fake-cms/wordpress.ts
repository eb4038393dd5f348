import { extensionTypeOf, imageTypeOf, startFakeServer, type FakeReply, type FakeServer } from "./server";


/**
 * WordPress REST API v2 as a fake (developer.wordpress.org/rest-api/reference): `/wp-json/wp/v2/posts`
 * (create 201, update by `POST /posts/{id}` 200, unknown id 404 `rest_post_invalid_id`), `/tags`
 * (search, create 201, `term_exists` 400), `/media` (raw bytes with Content-Disposition, 201),
 * `/users/me`. Every request needs HTTP Basic with the configured user and application password,
 * else 401 `{code: "incorrect_password" | "rest_not_logged_in", message, data: {status: 401}}`.
 */

export interface FakeWordPress extends FakeServer {
  posts: Map<number, any>;
  media: Map<number, { bytes: Buffer; mediaType: string; filename: string; alt: string }>;
  tags: Map<number, string>;
}

const error = (status: number, code: string, message: string): FakeReply => ({ status, body: { code, message, data: { status } } });

export async function startFakeWordPress(opts: { username: string; applicationPassword: string }): Promise<FakeWordPress> {
  const posts = new Map<number, any>();
  const media = new Map<number, { bytes: Buffer; mediaType: string; filename: string; alt: string }>();
  const tags = new Map<number, string>();
  let nextId = 100;
  const expected = `Basic ${Buffer.from(`${opts.username}:${opts.applicationPassword}`).toString("base64")}`;
  let base = "";

  const postResource = (id: number) => ({ id, link: `${base}/${posts.get(id).slug}/`, status: posts.get(id).status, ...posts.get(id), title: { raw: posts.get(id).title, rendered: posts.get(id).title } });

  const server = await startFakeServer((req) => {
    if (!req.path.startsWith("/wp-json/wp/v2/")) return error(404, "rest_no_route", "No route was found matching the URL and request method.");
    const auth = req.headers.authorization;
    if (!auth) return error(401, "rest_not_logged_in", "You are not currently logged in.");
    if (auth !== expected) return error(401, "incorrect_password", "The provided password is an invalid application password.");
    const route = req.path.slice("/wp-json/wp/v2".length);
    if (req.method === "GET" && route === "/users/me") return { status: 200, body: { id: 1, name: opts.username, slug: opts.username } };

    if (route === "/tags" && req.method === "GET") {
      const search = (req.query.get("search") ?? "").toLowerCase();
      return { status: 200, body: [...tags].filter(([, n]) => n.toLowerCase().includes(search)).map(([id, name]) => ({ id, name })) };
    }
    if (route === "/tags" && req.method === "POST") {
      if (!req.json?.name) return error(400, "rest_missing_callback_param", "Missing parameter(s): name");
      const existing = [...tags].find(([, n]) => n.toLowerCase() === String(req.json.name).toLowerCase());
      if (existing) return { status: 400, body: { code: "term_exists", message: "A term with the name provided already exists.", data: { status: 400, term_id: existing[0] } } };
      const id = nextId++;
      tags.set(id, req.json.name);
      return { status: 201, body: { id, name: req.json.name } };
    }

    if (route === "/media" && req.method === "POST") {
      const disposition = String(req.headers["content-disposition"] ?? "");
      const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1];
      if (!filename) return error(400, "rest_upload_no_content_disposition", "No Content-Disposition supplied.");
      if (req.body.length === 0) return error(400, "rest_upload_no_data", "No data supplied.");
      const mediaType = String(req.headers["content-type"] ?? "");
      // wp_check_filetype_and_ext: the name's extension and the bytes must agree on an allowed type (SVG is not one).
      if (!/^image\/(png|jpeg|gif|webp)$/.test(mediaType) || imageTypeOf(req.body) !== mediaType || extensionTypeOf(filename) !== mediaType) {
        return error(500, "rest_upload_sideload_error", "Sorry, you are not allowed to upload this file type.");
      }
      const id = nextId++;
      media.set(id, { bytes: req.body, mediaType, filename, alt: req.query.get("alt_text") ?? "" });
      return { status: 201, body: { id, source_url: `${base}/wp-content/uploads/${filename}`, alt_text: req.query.get("alt_text") ?? "" } };
    }
    const mediaMatch = /^\/media\/(\d+)$/.exec(route);
    if (mediaMatch && req.method === "GET") {
      const id = Number(mediaMatch[1]);
      return media.has(id) ? { status: 200, body: { id } } : error(404, "rest_post_invalid_id", "Invalid post ID.");
    }

    const validate = (body: any, creating: boolean): FakeReply | undefined => {
      if (!body || typeof body !== "object") return error(400, "rest_invalid_json", "Invalid JSON body passed.");
      if (creating && !body.title && !body.content) return error(400, "empty_content", "Content, title, and excerpt are empty.");
      if (body.status !== undefined && !["publish", "draft", "pending", "private", "future"].includes(body.status)) return error(400, "rest_invalid_param", "Invalid parameter(s): status");
      if (body.featured_media && !media.has(body.featured_media)) return error(400, "rest_invalid_featured_media", "Invalid featured media ID.");
      if (body.tags && (!Array.isArray(body.tags) || body.tags.some((t: number) => !tags.has(t)))) return error(400, "rest_invalid_param", "Invalid parameter(s): tags");
      return undefined;
    };
    if (route === "/posts" && req.method === "POST") {
      const problem = validate(req.json, true);
      if (problem) return problem;
      const id = nextId++;
      posts.set(id, { status: "draft", ...req.json });
      return { status: 201, body: postResource(id) };
    }
    const postMatch = /^\/posts\/(\d+)$/.exec(route);
    if (postMatch) {
      const id = Number(postMatch[1]);
      if (!posts.has(id)) return error(404, "rest_post_invalid_id", "Invalid post ID.");
      if (req.method === "GET") return { status: 200, body: postResource(id) };
      if (req.method === "POST" || req.method === "PUT") {
        const problem = validate(req.json, false);
        if (problem) return problem;
        posts.set(id, { ...posts.get(id), ...req.json });
        return { status: 200, body: postResource(id) };
      }
      if (req.method === "DELETE") {
        posts.delete(id);
        return { status: 200, body: { deleted: true } };
      }
    }
    return error(404, "rest_no_route", "No route was found matching the URL and request method.");
  });
  base = server.url;
  return Object.assign(server, { posts, media, tags });
}
