import { newId } from "../../../shared/ids";
import type { IntegrationInputOf } from "../../../shared/schemas/publishing";
import type { CmsClient, PublishContent, PublishRequest } from "./content";
import { UpstreamError, type Send } from "./http";
import { markdownToPortableText } from "./markdown-to-portable-text";

/**
 * Sanity Content Lake HTTP API (`/{apiVersion}/data/mutate/{dataset}`, Bearer token). The document
 * id is chosen here and kept, so every publish is one transaction of `createOrReplace` on it (a
 * document deleted upstream is simply written again, and two writes make one document): the
 * published id, or `drafts.{id}` for a draft, with the other variant deleted in the same
 * transaction. The body is Portable Text converted from markdown; the cover is uploaded to
 * `/assets/images/{dataset}` and referenced from `mainImage`. Field names follow Sanity's blog
 * template (title, slug, excerpt, body, mainImage, publishedAt) plus metaTitle, metaDescription,
 * tags. Plain HTTP through the URL guard rather than @sanity/client: one transport and deadline,
 * and tests point SANITY_API_BASE_URL at a local fake.
 */

export type SanityIntegration = IntegrationInputOf<"sanity">;

/** `{error: {description, type}}` for mutation errors, `{statusCode, error, message}` for HTTP ones. */
export const readSanityError = (d: any): string | undefined => {
  if (typeof d?.error === "object" && d.error && typeof d.error.description === "string") return `${d.error.type ? `${d.error.type}: ` : ""}${d.error.description}`;
  if (typeof d?.message === "string") return `${typeof d.error === "string" ? `${d.error}: ` : ""}${d.message}`;
  return undefined;
};

/** `https://{project_id}.api.sanity.io` with the project filled in. */
export const sanityHost = (template: string, projectId: string) => template.replace("{project_id}", projectId).replace(/\/+$/, "");

export function sanityClient(settings: SanityIntegration, hostTemplate: string, send: Send): CmsClient {
  const base = `${sanityHost(hostTemplate, settings.project_id)}/${settings.api_version}`;
  const dataset = encodeURIComponent(settings.dataset);
  const auth = { authorization: `Bearer ${settings.api_token}` };

  async function uploadCover(content: PublishContent): Promise<string | undefined> {
    const cover = content.cover;
    if (!cover) return undefined;
    const res = await send({ method: "POST", url: `${base}/assets/images/${dataset}?filename=${encodeURIComponent(cover.filename)}`, headers: auth, body: cover.bytes, contentType: cover.mediaType });
    const id = res.data?.document?._id;
    if (typeof id !== "string") throw new UpstreamError(res.status, "image upload answered without an asset id");
    return id;
  }

  return {
    async check() {
      const query = encodeURIComponent("count(*[_type == $type])");
      const res = await send({ method: "GET", url: `${base}/data/query/${dataset}?query=${query}&%24type=${encodeURIComponent(JSON.stringify(settings.document_type))}`, headers: auth });
      return `dataset ${settings.dataset} is readable (${res.data?.result ?? 0} documents of type ${settings.document_type})`;
    },

    async publish({ content, previous, asDraft, onCreated }: PublishRequest) {
      const id = previous?.external_id ?? newId();
      if (!previous) await onCreated({ external_id: id, vendor: {} });
      const assetId = await uploadCover(content);
      const blocks = (await markdownToPortableText(content.markdown)).filter((b) => (b as { _type?: string })._type === "block");
      const doc = {
        _type: settings.document_type,
        title: content.title,
        slug: { _type: "slug", current: content.slug },
        excerpt: content.excerpt,
        metaTitle: content.metaTitle,
        metaDescription: content.metaDescription,
        tags: content.tags,
        body: blocks,
        publishedAt: new Date().toISOString(),
        ...(assetId ? { mainImage: { _type: "image", alt: content.cover?.alt ?? "", asset: { _type: "reference", _ref: assetId } } } : {}),
      };
      const [write, remove] = asDraft ? [`drafts.${id}`, id] : [id, `drafts.${id}`];
      await send({
        method: "POST",
        url: `${base}/data/mutate/${dataset}?returnIds=true&visibility=sync`,
        headers: auth,
        json: { mutations: [{ createOrReplace: { ...doc, _id: write } }, { delete: { id: remove } }] },
      });
      const externalUrl = settings.studio_url
        ? `${settings.studio_url}/intent/edit/id=${encodeURIComponent(id)};type=${encodeURIComponent(settings.document_type)}`
        : `${base}/data/doc/${dataset}/${encodeURIComponent(write)}`;
      return { external_id: id, external_url: externalUrl, vendor: {} };
    },
  };
}
