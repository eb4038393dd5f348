import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

/** Raw HTML in markdown is shown as text, never passed through: the sanitizer below is the second fence, not the only one. */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

const EXTERNAL_REL = "noopener noreferrer nofollow";

/** What an article's HTML may contain: the elements markdown produces, and nothing that runs, styles or frames. */
const ARTICLE_HTML_POLICY: sanitizeHtml.IOptions = {
  allowedTags: [
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote",
    "ul", "ol", "li", "strong", "em", "s", "del", "code", "pre", "a", "img",
    "table", "thead", "tbody", "tr", "th", "td", "sup", "sub",
  ],
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title"],
    ol: ["start"],
    th: ["style"],
    td: ["style"],
    code: ["class"],
  },
  allowedClasses: { code: ["language-*"] },
  // Table cell alignment is the only inline style markdown produces.
  allowedStyles: { th: { "text-align": [/^(left|right|center)$/] }, td: { "text-align": [/^(left|right|center)$/] } },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  // `//host/path` is an external link without a scheme: refused rather than guessed.
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: isExternal(attribs.href) ? { ...attribs, rel: EXTERNAL_REL } : attribs }),
  },
  // An image whose source was refused has nothing left to show.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

function isExternal(href: string | undefined): boolean {
  return href !== undefined && /^https?:/i.test(href.trim());
}

/** Keeps only what the article policy allows of an HTML fragment. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, ARTICLE_HTML_POLICY);
}

/** Renders an article's markdown to the HTML clients may embed as is. */
export function renderArticleHtml(markdownText: string): string {
  return sanitizeArticleHtml(markdown.render(markdownText));
}
