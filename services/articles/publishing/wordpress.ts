import type { IntegrationInputOf } from "../../../shared/schemas/publishing";
import type { CmsClient, PreviousEntry, PublishContent, PublishRequest } from "./content";
import { UpstreamError, type Send } from "./http";

/**
 * WordPress REST API v2 (`/wp-json/wp/v2`), authenticated with an application password over HTTP
 * Basic. Plain HTTP through the URL guard: the site address is user-supplied. Posts get title,
 * HTML content, excerpt, slug, status (`publish` or `draft`), tags and the cover as featured media.
 * WordPress refuses SVG uploads by default, so an SVG cover is not sent (docs/publishing.md).
 */

export type WordPressIntegration = IntegrationInputOf<"wordpress">;

/** WordPress's error body: `{code, message, data: {status}}`. */
export const readWordPressError = (d: any): string | undefined =>
  typeof d?.message === "string" ? (typeof d.code === "string" ? `${d.code}: ${d.message}` : d.message) : undefined;

export function wordpressClient(settings: WordPressIntegration, send: Send): CmsClient {
  const api = `${settings.site_url}/wp-json/wp/v2`;
  const auth = { authorization: `Basic ${Buffer.from(`${settings.username}:${settings.application_password}`).toString("base64")}` };

  async function tagIds(names: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const name of names) {
      const found = await send({ method: "GET", url: `${api}/tags?search=${encodeURIComponent(name)}&per_page=100`, headers: auth });
      const match = Array.isArray(found.data) ? found.data.find((t: any) => String(t?.name).toLowerCase() === name.toLowerCase()) : undefined;
      if (match) {
        ids.push(Number(match.id));
        continue;
      }
      const created = await send({ method: "POST", url: `${api}/tags`, headers: auth, json: { name }, allow: [400] });
      // Created meanwhile (or matched by slug): WordPress names the existing term.
      const id = created.status === 400 ? created.data?.data?.term_id : created.data?.id;
      if (typeof id !== "number") throw new UpstreamError(created.status, `tag ${name}: answered without a tag id`);
      ids.push(id);
    }
    return ids;
  }

  async function featuredMedia(content: PublishContent, previous: PreviousEntry | null): Promise<number | undefined> {
    const cover = content.cover;
    if (!cover || cover.mediaType === "image/svg+xml") return undefined;
    if (previous?.vendor.cover_key === cover.key && typeof previous.vendor.cover_media_id === "number") {
      const existing = await send({ method: "GET", url: `${api}/media/${previous.vendor.cover_media_id}?context=edit`, headers: auth, allow: [404, 410] });
      if (existing.status === 200) return previous.vendor.cover_media_id;
    }
    const uploaded = await send({
      method: "POST",
      url: `${api}/media?alt_text=${encodeURIComponent(cover.alt)}`,
      headers: { ...auth, "content-disposition": `attachment; filename="${cover.filename}"` },
      body: cover.bytes,
      contentType: cover.mediaType,
    });
    return Number(uploaded.data?.id);
  }

  return {
    async check() {
      const me = await send({ method: "GET", url: `${api}/users/me?context=edit`, headers: auth });
      return `authenticated as ${me.data?.slug ?? me.data?.name ?? settings.username}`;
    },

    async publish({ content, previous, asDraft, onCreated }: PublishRequest) {
      const media = await featuredMedia(content, previous);
      const post = {
        // WordPress stores title and excerpt as HTML, and a user with unfiltered_html (an administrator's
        // application password) gets it unsanitized: the article's text goes in as text.
        title: asHtmlText(content.title),
        content: content.html,
        excerpt: asHtmlText(content.excerpt),
        slug: content.slug,
        status: asDraft ? "draft" : "publish",
        tags: await tagIds(content.tags),
        featured_media: media ?? 0,
      };
      const vendor: PreviousEntry["vendor"] = media !== undefined && content.cover ? { cover_media_id: media, cover_key: content.cover.key } : {};
      let saved = previous ? await send({ method: "POST", url: `${api}/posts/${encodeURIComponent(previous.external_id)}`, headers: auth, json: post, allow: [404, 410] }) : undefined;
      if (!saved || saved.status === 404 || saved.status === 410) {
        saved = await send({ method: "POST", url: `${api}/posts`, headers: auth, json: post });
        await onCreated({ external_id: String(saved.data?.id), vendor });
      }
      const id = saved.data?.id;
      if (id === undefined) throw new UpstreamError(saved.status, "answered without a post id");
      return { external_id: String(id), external_url: String(saved.data?.link ?? `${settings.site_url}/?p=${id}`), vendor };
    },
  };
}

/** Text as HTML text: its markup characters as entities, so a title reading "<script>" shows as written. */
function asHtmlText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
