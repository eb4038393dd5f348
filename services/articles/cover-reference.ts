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

const ARTICLE_TYPES = new Set(["Article", "BlogPosting", "NewsArticle", "TechArticle"]);
const isArticleNode = (node: unknown): boolean => {
  const type = (node as { "@type"?: unknown } | null)?.["@type"];
  return (Array.isArray(type) ? type : [type]).some((t) => typeof t === "string" && ARTICLE_TYPES.has(t));
};

/**
 * The JSON-LD with the cover as its article's `image` (an ImageObject): on the Article node of an `@graph`
 * (the pipeline's shape, services/pipeline/article/seo.ts), else on the top-level node; unchanged without a cover.
 */
export function jsonLdWithCover(jsonLd: Record<string, unknown>, cover: CoverReference | null): Record<string, unknown> {
  if (!cover) return jsonLd;
  const image = { "@type": "ImageObject", url: cover.url, contentUrl: cover.url, encodingFormat: cover.media_type, width: cover.width, height: cover.height, caption: cover.alt };
  const graph = jsonLd["@graph"];
  if (Array.isArray(graph) && graph.some(isArticleNode)) {
    return { ...jsonLd, "@graph": graph.map((node) => (isArticleNode(node) ? { ...(node as Record<string, unknown>), image } : node)) };
  }
  return { ...jsonLd, image };
}

/** The HTML opened by the cover as a figure; unchanged without a cover. */
export function htmlWithCover(html: string, cover: CoverReference | null): string {
  if (!cover) return html;
  const img = `<img src="${attribute(cover.url)}" alt="${attribute(cover.alt)}" width="${cover.width}" height="${cover.height}">`;
  return `<figure class="article-cover">${img}</figure>\n${html}`;
}
