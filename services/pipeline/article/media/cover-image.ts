import { createHash } from "node:crypto";
import type { z } from "zod";
import type { GeneratedImage } from "../../../../shared/schemas/articles";
import type { GenerateImageFn } from "../../../../shared/llm/openai-images";
import { fill, languagePack } from "../language/phrases";
import { CARD_FONT_FAMILY, renderTitleCardPng } from "./title-card-png";
import type { ArticleBrief } from "../types";

export type CoverImage = z.output<typeof GeneratedImage>;

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
const MAX_LINES = 4;

export interface Palette {
  background: string;
  accent: string;
  text: string;
}

function hslToHex(h: number, s: number, l: number): string {
  const a = (s / 100) * Math.min(l / 100, 1 - l / 100);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    const value = l / 100 - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(255 * value).toString(16).padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}

/**
 * Brand colours when none are known: a hue from a hash of the brand's website host (or name, or topic), a
 * dark background and a light accent of that hue with white text, so the same brand always gets the same
 * card and the text keeps a contrast well above WCAG's 4.5:1.
 */
export function paletteFor(seed: string): Palette {
  const digest = createHash("sha256").update(seed.toLowerCase()).digest();
  const hue = digest.readUInt16BE(0) % 360;
  const accentHue = (hue + 30 + (digest[2] % 60)) % 360;
  return { background: hslToHex(hue, 55, 18), accent: hslToHex(accentHue, 70, 62), text: "#ffffff" };
}

export function brandSeed(brief: ArticleBrief): string {
  if (brief.brand?.website_url) {
    try {
      return new URL(brief.brand.website_url).hostname.replace(/^www\./, "");
    } catch {
      // An unparsable address still has a name to hash.
    }
  }
  return brief.brand?.name ?? brief.topic;
}

/** Text for XML character data and attribute values: the five predefined entities, control characters out. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** Greedy word wrap to `width` characters per line; a word longer than a line is cut. At most `maxLines`, the last ending in … when cut. */
export function wrapText(text: string, width: number, maxLines = MAX_LINES): string[] {
  const lines: string[] = [];
  let line = "";
  for (const raw of text.split(/\s+/).filter(Boolean)) {
    let word = raw;
    while (word.length > width) {
      if (line) lines.push(line);
      lines.push(word.slice(0, width));
      word = word.slice(width);
      line = "";
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1].replace(/\s*\S*$/, "") || kept[maxLines - 1]}…`;
  return kept;
}

/** The offline cover's drawing: an SVG title card in the brand's palette, the title wrapped and sized to fit, the brand named below. */
export function titleCardSvg(title: string, brandName: string | null, palette: Palette): string {
  const fontSize = title.length > 90 ? 48 : title.length > 50 ? 58 : 68;
  // Inter Bold's glyphs average ~0.6 em: characters per line for the 1040 px text column.
  const perLine = Math.floor(1040 / (fontSize * 0.6));
  const lines = wrapText(title, perLine);
  const lineHeight = Math.round(fontSize * 1.2);
  const top = Math.round((CARD_HEIGHT - lines.length * lineHeight) / 2) + fontSize - 20;
  const tspans = lines.map((l, i) => `<tspan x="80" y="${top + i * lineHeight}">${escapeXml(l)}</tspan>`).join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" viewBox="0 0 ${CARD_WIDTH} ${CARD_HEIGHT}" role="img" aria-label="${escapeXml(title)}">`,
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${palette.background}"/><stop offset="1" stop-color="${palette.accent}" stop-opacity="0.35"/></linearGradient></defs>`,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="${palette.background}"/>`,
    `<rect width="${CARD_WIDTH}" height="${CARD_HEIGHT}" fill="url(#bg)"/>`,
    `<rect x="80" y="72" width="120" height="10" rx="5" fill="${palette.accent}"/>`,
    `<text font-family="${CARD_FONT_FAMILY}, sans-serif" font-size="${fontSize}" font-weight="700" fill="${palette.text}">${tspans}</text>`,
    brandName ? `<text x="80" y="${CARD_HEIGHT - 64}" font-family="${CARD_FONT_FAMILY}, sans-serif" font-size="30" fill="${palette.accent}">${escapeXml(brandName)}</text>` : "",
    `</svg>`,
  ].join("");
}

/**
 * image: the configured images model draws a cover (no text in it); without one, the title card as a
 * PNG (1200 × 630, the social-card size): CMSs refuse SVG uploads and `og:image` readers do not draw SVG.
 */
export async function createCoverImage(title: string, brief: ArticleBrief, generate?: GenerateImageFn): Promise<{ image: CoverImage; by: "model" | "title-card"; tokensIn: number; tokensOut: number }> {
  const pack = languagePack(brief.language);
  if (generate) {
    const prompt =
      `An editorial cover illustration for an article titled "${title}" about ${brief.topic}` +
      (brief.brand ? ` for ${brief.brand.name}` : "") +
      ". Clean, modern, no text, no letters, no logos.";
    const result = await generate(prompt);
    return {
      image: { alt: fill(pack.coverAltModel, { T: title }), media_type: result.mediaType, data_base64: result.bytes.toString("base64"), width: result.width, height: result.height },
      by: "model",
      tokensIn: result.tokensIn,
      tokensOut: result.tokensOut,
    };
  }
  const png = renderTitleCardPng(titleCardSvg(title, brief.brand?.name ?? null, paletteFor(brandSeed(brief))));
  return {
    image: { alt: fill(pack.coverAltCard, { T: title }), media_type: "image/png", data_base64: png.toString("base64"), width: CARD_WIDTH, height: CARD_HEIGHT },
    by: "title-card",
    tokensIn: 0,
    tokensOut: 0,
  };
}
