/**
 * A heading inside a chunk's text, written as a markdown heading of its depth in the heading path ("## Add-ons",
 * "### Team"; 2 for a page's sections, at most 6). Ingestion writes it (`chunkDocument`) and the article pipeline
 * reads it (`evidence/units.ts`): one format on both sides, so a reader of a chunk tells a subsection's heading from
 * its sentences, and which sentences it heads.
 */
export const headingLine = (heading: string, level: number) => `${"#".repeat(Math.min(6, Math.max(2, level)))} ${heading}`;

const HEADING_LINE = /^(#{2,6}) +(\S.*)$/;

/** A line of a chunk's text read back as a heading: its depth and its text; undefined for a line of prose. */
export function parseHeadingLine(line: string): { level: number; heading: string } | undefined {
  const m = HEADING_LINE.exec(line.trim());
  return m ? { level: m[1].length, heading: m[2].trim() } : undefined;
}
