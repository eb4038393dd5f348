import { sentencesOf } from "../../../../shared/text/segment";
import type { ArticleParagraph, ArticleSentence } from "../types";

const MARKER = /\[\s*(e\d+(?:\s*[,;]\s*e\d+)*)\s*\]/gi;
const LEADING_MARKERS = /^(\s*\[\s*e\d+(?:\s*[,;]\s*e\d+)*\s*\])+/i;
/** Markers after a sentence's full stop: "driving. [e1] The …". */
const MARKERS_AFTER_STOP = /([.!?…])((?:\s*\[\s*e\d+(?:\s*[,;]\s*e\d+)*\s*\])+)/gi;

function idsIn(text: string): string[] {
  return [...text.matchAll(MARKER)].flatMap((m) => m[1].split(/[,;]/).map((id) => id.trim().toLowerCase()));
}

/** Markdown and addresses a writer may add around prose: headings, list bullets, emphasis, links (kept as text), bare URLs (removed). */
function plainProse(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/^\s{0,3}#{1,6}\s.*$/gm, "")
    .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/gm, "")
    .replace(/\[([^\]]+)\]\((?:[^)\s]+)\)/g, (_, label: string) => (/^e\d+/i.test(label) ? `[${label}]` : label))
    .replace(/<?\bhttps?:\/\/[^\s>)\]]+>?/gi, "")
    .replace(/\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`/g, "");
}

/**
 * A writer's prose with `[e12]` markers as sentences with citations. A marker placed after the full stop
 * (read as the start of the next sentence) belongs to the sentence before it. Ids not in `allowed` are
 * dropped and counted: a writer cannot cite what it was not given, nor type an address.
 */
export function parseCitedProse(text: string, allowed: ReadonlySet<string>, lang: string): { paragraphs: ArticleParagraph[]; droppedCitations: number } {
  let dropped = 0;
  const paragraphs: ArticleParagraph[] = [];
  // A marker after the full stop hides the sentence boundary from the segmenter ("[e1]" starts in lower case,
  // UAX #29 rule SB8): it moves before the stop first.
  const prose = plainProse(text).replace(MARKERS_AFTER_STOP, (_, stop: string, markers: string) => ` ${markers.trim()}${stop}`);
  for (const block of prose.split(/\n\s*\n/)) {
    const sentences: ArticleSentence[] = [];
    const attach = (ids: string[], to: ArticleSentence | undefined) => {
      for (const id of ids) {
        if (!allowed.has(id)) dropped++;
        else if (to && !to.cites.includes(id)) to.cites.push(id);
      }
    };
    for (const raw of sentencesOf(block.replace(/\s*\n\s*/g, " "), lang)) {
      const leading = LEADING_MARKERS.exec(raw)?.[0] ?? "";
      if (leading) attach(idsIn(leading), sentences[sentences.length - 1]);
      const rest = raw.slice(leading.length);
      const body = rest
        .replace(MARKER, "")
        .replace(/\s+([.,;:!?…])/g, "$1")
        .replace(/\s{2,}/g, " ")
        .trim();
      if (!/\p{L}/u.test(body)) {
        attach(idsIn(rest), sentences[sentences.length - 1]);
        continue;
      }
      const sentence: ArticleSentence = { text: body, cites: [] };
      attach(idsIn(rest), sentence);
      sentences.push(sentence);
    }
    if (sentences.length) paragraphs.push({ sentences });
  }
  return { paragraphs, droppedCitations: dropped };
}
