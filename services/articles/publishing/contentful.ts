import type { IntegrationInputOf } from "../../../shared/schemas/publishing";
import type { CmsClient, PreviousEntry, PublishContent, PublishRequest } from "./content";
import { UpstreamError, type Send } from "./http";
import { markdownToRichText } from "./markdown-to-rich-text";

/**
 * Contentful Content Management API (`application/vnd.contentful.management.v1+json`, Bearer
 * management token). Entries are written per locale into the mapped fields; every update names
 * the version it replaces (`X-Contentful-Version`); publishing is `PUT …/published`, a draft is an
 * unpublished entry. The cover goes through the Upload API, becomes an asset that is processed and
 * published, and is linked from the entry. Plain HTTP through the URL guard rather than
 * contentful-management (axios, its own retry loop): one transport, one deadline, and tests point
 * CONTENTFUL_API_BASE_URL and CONTENTFUL_UPLOAD_BASE_URL at a local fake.
 */

export type ContentfulIntegration = IntegrationInputOf<"contentful">;

export interface ContentfulHosts {
  api: string;
  upload: string;
  /** The web app, for the external URL a person opens. */
  app: string;
}

export const CONTENTFUL_TYPE = "application/vnd.contentful.management.v1+json";

/** `{sys: {type: "Error", id}, message, details: {errors: [{name, path, details}]}}`. */
export const readContentfulError = (d: any): string | undefined => {
  if (d?.sys?.type !== "Error") return undefined;
  const first = Array.isArray(d.details?.errors) ? d.details.errors[0] : undefined;
  const detail = first ? ` (${[Array.isArray(first.path) ? first.path.join(".") : undefined, first.details ?? first.name].filter(Boolean).join(": ")})` : "";
  return `${d.sys.id}: ${d.message ?? ""}${detail}`;
};

const ASSET_POLLS = 20;
const ASSET_POLL_MS = 250;

export function contentfulClient(settings: ContentfulIntegration, hosts: ContentfulHosts, send: Send): CmsClient {
  const space = encodeURIComponent(settings.space_id);
  const env = `${hosts.api}/spaces/${space}/environments/${encodeURIComponent(settings.environment_id)}`;
  const auth = { authorization: `Bearer ${settings.management_token}` };
  const loc = settings.locale;
  const f = settings.fields;
  const json = (body: unknown) => ({ json: body, jsonType: CONTENTFUL_TYPE });
  const versioned = (version: number) => ({ ...auth, "x-contentful-version": String(version) });

  async function uploadCover(content: PublishContent, previous: PreviousEntry | null): Promise<string | undefined> {
    const cover = content.cover;
    if (!cover || !f.cover_image) return undefined;
    if (previous?.vendor.cover_key === cover.key && typeof previous.vendor.cover_asset_id === "string") {
      const existing = await send({ method: "GET", url: `${env}/assets/${encodeURIComponent(previous.vendor.cover_asset_id)}`, headers: auth, allow: [404] });
      if (existing.status === 200) return previous.vendor.cover_asset_id;
    }
    const upload = await send({ method: "POST", url: `${hosts.upload}/spaces/${space}/uploads`, headers: auth, body: cover.bytes, contentType: "application/octet-stream" });
    const uploadId = upload.data?.sys?.id;
    if (typeof uploadId !== "string") throw new UpstreamError(upload.status, "upload answered without an id");
    const asset = await send({
      method: "POST",
      url: `${env}/assets`,
      headers: auth,
      ...json({
        fields: {
          title: { [loc]: cover.alt || content.title },
          description: { [loc]: cover.alt },
          file: { [loc]: { contentType: cover.mediaType, fileName: cover.filename, uploadFrom: { sys: { type: "Link", linkType: "Upload", id: uploadId } } } },
        },
      }),
    });
    const assetId = asset.data?.sys?.id;
    if (typeof assetId !== "string") throw new UpstreamError(asset.status, "asset creation answered without an id");
    await send({ method: "PUT", url: `${env}/assets/${assetId}/files/${encodeURIComponent(loc)}/process`, headers: versioned(asset.data.sys.version) });
    for (let i = 0; i < ASSET_POLLS; i++) {
      const current = await send({ method: "GET", url: `${env}/assets/${assetId}`, headers: auth });
      if (current.data?.fields?.file?.[loc]?.url) {
        await send({ method: "PUT", url: `${env}/assets/${assetId}/published`, headers: versioned(current.data.sys.version) });
        return assetId;
      }
      await new Promise((r) => setTimeout(r, ASSET_POLL_MS));
    }
    throw new UpstreamError(null, "the cover asset was not processed in time");
  }

  async function entryFields(content: PublishContent, assetId: string | undefined): Promise<Record<string, Record<string, unknown>>> {
    const fields: Record<string, Record<string, unknown>> = {
      [f.title]: { [loc]: content.title },
      [f.body]: { [loc]: settings.body_format === "rich_text" ? await markdownToRichText(content.markdown) : content.markdown },
    };
    if (f.slug) fields[f.slug] = { [loc]: content.slug };
    if (f.excerpt) fields[f.excerpt] = { [loc]: content.excerpt };
    if (f.meta_title) fields[f.meta_title] = { [loc]: content.metaTitle };
    if (f.meta_description) fields[f.meta_description] = { [loc]: content.metaDescription };
    if (f.tags) fields[f.tags] = { [loc]: content.tags };
    if (f.cover_image && assetId) fields[f.cover_image] = { [loc]: { sys: { type: "Link", linkType: "Asset", id: assetId } } };
    return fields;
  }

  return {
    async check() {
      const type = await send({ method: "GET", url: `${env}/content_types/${encodeURIComponent(settings.content_type_id)}`, headers: auth });
      return `content type ${type.data?.name ?? settings.content_type_id} is readable`;
    },

    async publish({ content, previous, asDraft, onCreated }: PublishRequest) {
      const assetId = await uploadCover(content, previous);
      const fields = await entryFields(content, assetId);
      const vendor: PreviousEntry["vendor"] = assetId && content.cover ? { cover_asset_id: assetId, cover_key: content.cover.key } : {};
      let saved;
      if (previous) {
        const current = await send({ method: "GET", url: `${env}/entries/${encodeURIComponent(previous.external_id)}`, headers: auth, allow: [404] });
        if (current.status === 200) {
          saved = await send({ method: "PUT", url: `${env}/entries/${encodeURIComponent(previous.external_id)}`, headers: versioned(current.data.sys.version), ...json({ fields }) });
        }
      }
      if (!saved) {
        saved = await send({ method: "POST", url: `${env}/entries`, headers: { ...auth, "x-contentful-content-type": settings.content_type_id }, ...json({ fields }) });
        if (typeof saved.data?.sys?.id === "string") await onCreated({ external_id: saved.data.sys.id, vendor });
      }
      const sys = saved.data?.sys;
      if (typeof sys?.id !== "string" || typeof sys.version !== "number") throw new UpstreamError(saved.status, "answered without an entry id and version");
      const entryUrl = `${env}/entries/${encodeURIComponent(sys.id)}`;
      if (!asDraft) await send({ method: "PUT", url: `${entryUrl}/published`, headers: versioned(sys.version) });
      else if (sys.publishedVersion) await send({ method: "DELETE", url: `${entryUrl}/published`, headers: auth });
      return {
        external_id: sys.id,
        external_url: `${hosts.app}/spaces/${space}/environments/${encodeURIComponent(settings.environment_id)}/entries/${encodeURIComponent(sys.id)}`,
        vendor,
      };
    },
  };
}
