/**
 * Where an article's cover is named besides `image`: its JSON-LD (`image`, a schema.org ImageObject)
 * and its HTML (a leading `<figure>`). Added when the article is read, because the cover's address is
 * the serving gateway's (PUBLIC_BASE_URL); content systems get the cover as their own media instead,
 * so the HTML sent to them does not carry it (docs/publishing.md).
 */

export interface CoverReference {
  url: string;
  alt: string;
  media_type: string;
  width: number;
  height: number;
}

const ATTRIBUTE_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const attribute = (text: string) => text.replace(/[&<>"']/g, (c) => ATTRIBUTE_ESCAPES[c]);

/** The JSON-LD with the cover as its `image` (an ImageObject); unchanged without a cover. */
export function jsonLdWithCover(jsonLd: Record<string, unknown>, cover: CoverReference | null): Record<string, unknown> {
  if (!cover) return jsonLd;
  return {
    ...jsonLd,
    image: { "@type": "ImageObject", url: cover.url, contentUrl: cover.url, encodingFormat: cover.media_type, width: cover.width, height: cover.height, caption: cover.alt },
  };
}

/** The HTML opened by the cover as a figure; unchanged without a cover. */
export function htmlWithCover(html: string, cover: CoverReference | null): string {
  if (!cover) return html;
  const img = `<img src="${attribute(cover.url)}" alt="${attribute(cover.alt)}" width="${cover.width}" height="${cover.height}">`;
  return `<figure class="article-cover">${img}</figure>\n${html}`;
}
