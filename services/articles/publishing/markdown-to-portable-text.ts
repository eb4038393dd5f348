/**
 * An article's markdown as Portable Text blocks (Sanity's rich-text format), converted by
 * @portabletext/markdown, the Portable Text project's maintained converter. It is an ES module:
 * Node 20.19+ loads it from this CommonJS build with `require`, which TypeScript's node16
 * resolution only allows through a dynamic import, kept as such in the output.
 */
export async function markdownToPortableText(markdown: string): Promise<unknown[]> {
  const { markdownToPortableText: convert } = await import("@portabletext/markdown");
  return convert(markdown) as unknown[];
}
