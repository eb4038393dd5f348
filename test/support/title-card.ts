import { paletteFor, titleCardSvg } from "../../services/pipeline/article/media/cover-image";
import { renderTitleCardPng } from "../../services/pipeline/article/media/title-card-png";

/** The offline cover of the shared article fixture, as the pipeline makes it: a 1200 × 630 PNG title card. */
export const TITLE_CARD_PNG = renderTitleCardPng(titleCardSvg("Home Composting: A Practical Guide", "Compost Co", paletteFor("compost.example")));
export const TITLE_CARD_IMAGE = { alt: "Title card reading “Home Composting: A Practical Guide”", media_type: "image/png" as const, data_base64: TITLE_CARD_PNG.toString("base64"), width: 1200, height: 630 };
