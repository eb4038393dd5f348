import path from "node:path";
import { Resvg } from "@resvg/resvg-js";

/**
 * The title card rasterized: resvg (Rust, prebuilt per platform inside the `@resvg/resvg-js` npm
 * packages) draws the SVG with the Inter faces shipped by `@expo-google-fonts/inter` (OFL TTFs), so a
 * fresh `npm ci` is all it needs. System fonts are never loaded: the same SVG gives the same PNG bytes
 * on every machine, whatever fonts it has.
 */

/** The family the card names; every text of the card is set in it. */
export const CARD_FONT_FAMILY = "Inter";

const INTER_DIR = path.dirname(require.resolve("@expo-google-fonts/inter/package.json"));
/** Regular for the brand line, Bold for the title. */
const FONT_FILES = [path.join(INTER_DIR, "400Regular", "Inter_400Regular.ttf"), path.join(INTER_DIR, "700Bold", "Inter_700Bold.ttf")];

/** A PNG of `svg` at its own size (the card is 1200 × 630), text in the bundled Inter only. */
export function renderTitleCardPng(svg: string): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "original" },
    font: { loadSystemFonts: false, fontFiles: FONT_FILES, defaultFontFamily: CARD_FONT_FAMILY },
  });
  return resvg.render().asPng();
}
