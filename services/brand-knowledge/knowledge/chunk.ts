import { createHash } from "node:crypto";
import { countWords, estimateTokens, splitByWords, splitSentences, tokensForWords, TOKENS_PER_WORD } from "../../../shared/text/segment";
import type { ExtractedDocument } from "../../../shared/text/document";
import type { Chunk } from "./types";
import { headingLine } from "../../../shared/text/heading-line";

export const DEFAULT_CHUNK_TOKENS = 300;
export const DEFAULT_OVERLAP_RATIO = 0.15;

export interface ChunkOptions {
  sourceId: string;
  /** Upper bound of a chunk in estimated tokens (words × 1.3); chunks aim a little below it to come out even. */
  targetTokens?: number;
  /** Share of targetTokens repeated from the end of one chunk at the start of the next, within a section. */
  overlapRatio?: number;
}

/** Stable across runs: the same source, document and position always give the same id. */
export function chunkId(sourceId: string, documentUrl: string, ordinal: number): string {
  return createHash("sha256").update(`${sourceId}\u0000${documentUrl}\u0000${ordinal}`).digest("hex").slice(0, 24);
}

/** A sentence, or the heading line of a subsection; chunks are runs of units. */
interface Unit {
  text: string;
  tokens: number;
  path: string[];
  isHeading: boolean;
  endsParagraph: boolean;
}

const samePath = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

function commonPrefix(paths: string[][]): string[] {
  const [first, ...rest] = paths;
  let n = first.length;
  for (const p of rest) {
    let i = 0;
    while (i < n && i < p.length && p[i] === first[i]) i++;
    n = i;
  }
  return first.slice(0, n);
}

/**
 * Heading-aware chunking. Sections are grouped by their top-level heading and a chunk never spans two groups.
 * Inside a group, sentences are packed up to a balanced size limit (so a section of 1.2× the target gives two
 * even chunks, not a full one and a scrap); a subsection heading starts a new chunk once the current one is half
 * full, otherwise small subsections share a chunk, each introduced by its heading line. Chunks split inside a
 * subsection repeat its last sentences (the overlap); over-long sentences are cut at word boundaries.
 */
export function chunkDocument(doc: ExtractedDocument, options: ChunkOptions): Chunk[] {
  const target = options.targetTokens ?? DEFAULT_CHUNK_TOKENS;
  if (!(target >= 20)) throw new Error("targetTokens must be at least 20");
  const overlapTokens = Math.round(target * Math.min(Math.max(options.overlapRatio ?? DEFAULT_OVERLAP_RATIO, 0), 0.5));
  // Over-long "sentences" (flattened tables, unpunctuated lists) are cut to half a chunk so they still pack evenly.
  const maxSentenceWords = Math.max(1, Math.floor(target / 2 / TOKENS_PER_WORD));

  const groups: { path: string[]; units: Unit[] }[] = [];
  let previousPath: string[] = [];
  for (const section of doc.sections) {
    const top = section.headingPath.slice(0, 1);
    let group = groups[groups.length - 1];
    if (!group || !samePath(group.path, top)) {
      group = { path: top, units: [] };
      groups.push(group);
      previousPath = top;
    }
    if (section.headingPath.length > 1) {
      let common = 0;
      while (common < previousPath.length && previousPath[common] === section.headingPath[common]) common++;
      const from = Math.max(1, common);
      const headings = section.headingPath.slice(from);
      if (headings.length) {
        // Each heading line says its level as markdown does ("### Discounts"): a reader of the chunk (the model
        // writer, the evidence's units) tells a subsection's heading from its sentences, and which it heads.
        const text = headings.map((h, i) => headingLine(h, from + i + 1)).join("\n");
        group.units.push({ text, tokens: tokensForWords(countWords(text, doc.lang)), path: section.headingPath, isHeading: true, endsParagraph: true });
      }
    }
    previousPath = section.headingPath;
    for (const sentence of splitSentences(section.text, doc.lang)) {
      const pieces = splitByWords(sentence.text, maxSentenceWords, doc.lang);
      pieces.forEach((piece, i) => {
        const endsParagraph = i === pieces.length - 1 && sentence.endsParagraph;
        group.units.push({ text: piece, tokens: tokensForWords(countWords(piece, doc.lang)), path: section.headingPath, isHeading: false, endsParagraph });
      });
    }
    const last = group.units[group.units.length - 1];
    if (last) last.endsParagraph = true;
  }

  const runs = groups.flatMap((g) => packGroup(g.units, target, overlapTokens));
  return runs.map((units, ordinal) => {
    const headingPath = commonPrefix(units.map((u) => u.path));
    // A chunk that opens inside a subsection and runs on into the next says which subsection its first sentences
    // are under: its heading path is only what all its sentences share.
    const opening = units[0].isHeading ? [] : units[0].path.slice(headingPath.length).map((h, i) => headingLine(h, headingPath.length + i + 1));
    const text = [...opening, joinUnits(units)].join("\n");
    return {
      id: chunkId(options.sourceId, doc.url, ordinal),
      sourceId: options.sourceId,
      documentUrl: doc.url,
      documentTitle: doc.title,
      headingPath,
      ordinal,
      text,
      tokenCount: estimateTokens(text, doc.lang),
    };
  });
}

function packGroup(units: Unit[], target: number, overlapTokens: number): Unit[][] {
  const total = units.reduce((n, u) => n + u.tokens, 0);
  let limit = target;
  if (total > target) {
    const pieces = 1 + Math.ceil((total - target) / (target - overlapTokens));
    // Even pieces plus 10% slack, so sentence granularity does not spill a scrap into one more chunk.
    limit = Math.min(target, Math.ceil((total + (pieces - 1) * overlapTokens) / pieces) + Math.round(target * 0.1));
  }

  const runs: Unit[][] = [];
  let current: Unit[] = [];
  let tokens = 0;
  let own = 0; // sentences added since the last break; overlap and headings alone never make a chunk
  for (const unit of units) {
    if (own > 0) {
      const full = tokens + unit.tokens > limit;
      const atSubsection = unit.isHeading && tokens >= limit / 2;
      if (full || atSubsection) {
        // A heading never ends a chunk: it moves to the next one with the text it introduces.
        const carried = current[current.length - 1].isHeading ? [current.pop() as Unit] : [];
        runs.push(current);
        current = carried.length || atSubsection ? carried : overlapTail(current, unit, overlapTokens, limit);
        tokens = current.reduce((n, u) => n + u.tokens, 0);
        own = 0;
      }
    }
    current.push(unit);
    tokens += unit.tokens;
    if (!unit.isHeading) own++;
  }
  if (own > 0) runs.push(current);
  return runs;
}

/**
 * The last sentences of a finished chunk, repeated in the next: only from the same (sub)section as the sentence
 * that follows, about overlapTokens long (one sentence of up to twice that when a single one is longer).
 */
function overlapTail(run: Unit[], next: Unit, overlapTokens: number, limit: number): Unit[] {
  const tail: Unit[] = [];
  let tokens = 0;
  for (let i = run.length - 1; i >= 0; i--) {
    const unit = run[i];
    if (unit.isHeading || !samePath(unit.path, next.path)) break;
    const allowed = tail.length === 0 ? overlapTokens * 2 : overlapTokens;
    if (tokens + unit.tokens > allowed) break;
    tail.unshift(unit);
    tokens += unit.tokens;
  }
  return tokens + next.tokens <= limit ? tail : [];
}

function joinUnits(units: Unit[]): string {
  let text = "";
  units.forEach((u, i) => {
    if (i > 0) text += units[i - 1].endsParagraph ? "\n" : " ";
    text += u.text;
  });
  return text;
}
