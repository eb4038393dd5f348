import jwt from "jsonwebtoken";
import type { IntegrationInputOf } from "../../../shared/schemas/publishing";
import type { CmsClient, PublishContent, PublishRequest } from "./content";
import { multipart, UpstreamError, type Send } from "./http";

/**
 * Ghost Admin API (`/ghost/api/admin`, Accept-Version v5.0). Each request carries a fresh token:
 * a JWT signed HS256 with the hex-decoded secret of the Admin API key, `kid` = the key id,
 * audience `/admin/`, valid five minutes (jsonwebtoken signs it). Plain HTTP through the URL guard
 * rather than @tryghost/admin-api, whose axios transport would bypass the guard for a
 * user-supplied address. Posts are sent as HTML (`?source=html`); an update carries the
 * `updated_at` read just before (Ghost's collision check).
 */

export type GhostIntegration = IntegrationInputOf<"ghost">;

export const GHOST_ACCEPT_VERSION = "v5.0";

/** `{errors: [{message, context, type}]}`. */
export const readGhostError = (d: any): string | undefined => {
  const e = Array.isArray(d?.errors) ? d.errors[0] : undefined;
  if (!e || typeof e.message !== "string") return undefined;
  return [e.type ? `${e.type}: ` : "", e.message, e.context ? ` (${e.context})` : ""].join("");
};

/** The Admin API token for one request. */
export function ghostToken(adminApiKey: string): string {
  const [id, secret] = adminApiKey.split(":");
  return jwt.sign({}, Buffer.from(secret, "hex"), { keyid: id, algorithm: "HS256", expiresIn: "5m", audience: "/admin/" });
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function ghostClient(settings: GhostIntegration, send: Send): CmsClient {
  const api = `${settings.site_url}/ghost/api/admin`;
  const headers = () => ({ authorization: `Ghost ${ghostToken(settings.admin_api_key)}`, "accept-version": GHOST_ACCEPT_VERSION });

  async function uploadCover(content: PublishContent): Promise<string | undefined> {
    if (!content.cover) return undefined;
    const form = await multipart({
      file: { bytes: content.cover.bytes, filename: content.cover.filename, contentType: content.cover.mediaType },
      purpose: "image",
      ref: content.cover.filename,
    });
    const res = await send({ method: "POST", url: `${api}/images/upload/`, headers: headers(), body: form.body, contentType: form.contentType });
    const url = res.data?.images?.[0]?.url;
    if (typeof url !== "string") throw new UpstreamError(res.status, "image upload answered without an image url");
    return url;
  }

  return {
    async check() {
      await send({ method: "GET", url: `${api}/posts/?limit=1&fields=id`, headers: headers() });
      return "authenticated with the Admin API key";
    },

    async publish({ content, previous, asDraft, onCreated }: PublishRequest) {
      const featureImage = await uploadCover(content);
      const post = {
        title: content.title,
        html: content.html,
        slug: content.slug,
        status: asDraft ? "draft" : "published",
        custom_excerpt: clip(content.excerpt, 300),
        meta_title: clip(content.metaTitle, 300),
        meta_description: clip(content.metaDescription, 500),
        feature_image: featureImage ?? null,
        feature_image_alt: featureImage && content.cover ? clip(content.cover.alt, 191) : null,
        tags: content.tags.map((name) => ({ name })),
      };
      let saved;
      if (previous) {
        const current = await send({ method: "GET", url: `${api}/posts/${encodeURIComponent(previous.external_id)}/?fields=id,updated_at`, headers: headers(), allow: [404] });
        const updatedAt = current.data?.posts?.[0]?.updated_at;
        if (current.status === 200 && updatedAt) {
          saved = await send({ method: "PUT", url: `${api}/posts/${encodeURIComponent(previous.external_id)}/?source=html`, headers: headers(), json: { posts: [{ ...post, updated_at: updatedAt }] } });
        }
      }
      if (!saved) {
        saved = await send({ method: "POST", url: `${api}/posts/?source=html`, headers: headers(), json: { posts: [post] } });
        const created = saved.data?.posts?.[0];
        if (typeof created?.id === "string") await onCreated({ external_id: created.id, vendor: {} });
      }
      const result = saved.data?.posts?.[0];
      if (typeof result?.id !== "string") throw new UpstreamError(saved.status, "answered without a post id");
      return { external_id: result.id, external_url: String(result.url ?? `${settings.site_url}/p/${result.uuid ?? result.id}/`), vendor: {} };
    },
  };
}
