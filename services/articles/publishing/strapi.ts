import type { IntegrationInputOf } from "../../../shared/schemas/publishing";
import type { CmsClient, PreviousEntry, PublishContent, PublishRequest } from "./content";
import { multipart, UpstreamError, type Send } from "./http";

/**
 * Strapi REST API (`/api/{collection}`, `{data: …}` bodies, `Authorization: Bearer <API token>`),
 * self-hosted, so plain HTTP through the URL guard. Strapi 5 addresses entries by `documentId` and
 * creates drafts with `?status=draft` (a write without it publishes); Strapi 4 by numeric `id`, and
 * a draft is `publishedAt: null`. The cover goes through the Upload plugin (`POST /api/upload`,
 * multipart `files`) and is attached by its numeric id.
 */

export type StrapiIntegration = IntegrationInputOf<"strapi">;

/** `{data: null, error: {status, name, message, details}}`. */
export const readStrapiError = (d: any): string | undefined => {
  const e = d?.error;
  if (!e || typeof e.message !== "string") return undefined;
  const first = Array.isArray(e.details?.errors) ? e.details.errors[0] : undefined;
  const detail = first?.message ? ` (${Array.isArray(first.path) ? `${first.path.join(".")}: ` : ""}${first.message})` : "";
  return `${e.name ? `${e.name}: ` : ""}${e.message}${detail}`;
};

export function strapiClient(settings: StrapiIntegration, send: Send): CmsClient {
  const api = `${settings.site_url}/api`;
  const collection = `${api}/${settings.collection}`;
  const auth = { authorization: `Bearer ${settings.api_token}` };
  const v5 = settings.strapi_version === 5;
  const f = settings.fields;

  async function uploadCover(content: PublishContent, previous: PreviousEntry | null): Promise<number | undefined> {
    const cover = content.cover;
    if (!cover || !f.cover_image) return undefined;
    if (previous?.vendor.cover_key === cover.key && typeof previous.vendor.cover_file_id === "number") return previous.vendor.cover_file_id;
    const form = await multipart({
      files: { bytes: cover.bytes, filename: cover.filename, contentType: cover.mediaType },
      fileInfo: JSON.stringify({ name: cover.filename, alternativeText: cover.alt }),
    });
    const res = await send({ method: "POST", url: `${api}/upload`, headers: auth, body: form.body, contentType: form.contentType });
    const id = Array.isArray(res.data) ? res.data[0]?.id : undefined;
    if (typeof id !== "number") throw new UpstreamError(res.status, "upload answered without a file id");
    return id;
  }

  /** v5: `{data: {id, documentId, …}}`; v4: `{data: {id, attributes}}`. */
  const entryId = (data: any): string | undefined => {
    const id = v5 ? data?.data?.documentId : data?.data?.id;
    return id === undefined || id === null ? undefined : String(id);
  };

  return {
    async check() {
      await send({ method: "GET", url: `${collection}?pagination[pageSize]=1`, headers: auth });
      return `authenticated; collection ${settings.collection} is readable`;
    },

    async publish({ content, previous, asDraft, onCreated }: PublishRequest) {
      const coverId = await uploadCover(content, previous);
      const data: Record<string, unknown> = { [f.title]: content.title, [f.body]: settings.body_format === "html" ? content.html : content.markdown };
      if (f.slug) data[f.slug] = content.slug;
      if (f.excerpt) data[f.excerpt] = content.excerpt;
      if (f.cover_image && coverId !== undefined) data[f.cover_image] = coverId;
      if (!v5) data.publishedAt = asDraft ? null : new Date().toISOString();
      const query = v5 && asDraft ? "?status=draft" : "";
      const vendor: PreviousEntry["vendor"] = coverId !== undefined && content.cover ? { cover_file_id: coverId, cover_key: content.cover.key } : {};

      let saved = previous ? await send({ method: "PUT", url: `${collection}/${encodeURIComponent(previous.external_id)}${query}`, headers: auth, json: { data }, allow: [404] }) : undefined;
      if (!saved || saved.status === 404) {
        saved = await send({ method: "POST", url: `${collection}${query}`, headers: auth, json: { data } });
        const created = entryId(saved.data);
        if (created) await onCreated({ external_id: created, vendor });
      }
      const id = entryId(saved.data);
      if (!id) throw new UpstreamError(saved.status, `answered without ${v5 ? "a documentId" : "an id"}`);
      return { external_id: id, external_url: `${collection}/${encodeURIComponent(id)}`, vendor };
    },
  };
}
