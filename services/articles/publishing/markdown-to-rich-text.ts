import { richTextFromMarkdown } from "@contentful/rich-text-from-markdown";

/**
 * An article's markdown as a Contentful Rich Text document, converted by Contentful's own
 * maintained converter. Nodes Rich Text has no place for (inline images, raw HTML) are dropped
 * rather than guessed: the cover image is attached separately.
 */
export async function markdownToRichText(markdown: string): Promise<unknown> {
  return richTextFromMarkdown(markdown, async () => null);
}
