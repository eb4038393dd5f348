import { JSDOM } from "jsdom";
import { imageModelFrom } from "../../shared/llm/from-config";
import { brandSeed, createCoverImage, escapeXml, paletteFor, titleCardSvg, wrapText } from "../../services/pipeline/article/media/cover-image";
import { decideBriefByRules } from "../../services/pipeline/article/brief/recon";
import { renderTitleCardPng } from "../../services/pipeline/article/media/title-card-png";
import { startFakeOpenAI, TINY_PNG } from "../support/fake-openai";

const brief = decideBriefByRules(
  { topic: "Route planning for field service teams", target_keyword: "route planning", mode: "standard", language: "de", target_words: 1000, image: true, derivatives: [] },
  { id: "9b0c7a52-3f0e-4a53-9d59-0d6f7d6b2a11", name: "Dispatch & Co <GmbH>", description: null, website_url: "https://www.dispatch.example/about", voice_profile: null, fact_sheet: null },
);

function parseSvg(svg: string): Document {
  const { window } = new JSDOM("");
  return new window.DOMParser().parseFromString(svg, "image/svg+xml");
}

/** Width and height from a PNG's IHDR chunk (after the 8-byte signature). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  expect(png.subarray(12, 16).toString("ascii")).toBe("IHDR");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe("the offline title card", () => {
  it("is well-formed SVG with every piece of text escaped", () => {
    const title = `Route planning: <script>alert("x")</script> & 'quotes' ${"long words ".repeat(12)}`;
    const svg = titleCardSvg(title, "Dispatch & Co <GmbH>", paletteFor("dispatch.example"));
    const doc = parseSvg(svg);
    expect(doc.getElementsByTagName("parsererror")).toHaveLength(0);
    expect(doc.documentElement.tagName).toBe("svg");
    expect(doc.getElementsByTagName("script")).toHaveLength(0);
    expect(svg).not.toContain("<script>");
    const lines = [...doc.getElementsByTagName("tspan")].map((t) => t.textContent);
    expect(lines.length).toBeLessThanOrEqual(4);
    expect(lines.join(" ")).toContain('<script>alert("x")</script> & \'quotes\'');
    expect(doc.documentElement.getAttribute("aria-label")).toBe(title);
    expect(svg).toContain("Dispatch &amp; Co &lt;GmbH&gt;");
  });

  it("wraps to the line width and marks what it cuts", () => {
    expect(wrapText("one two three four five six", 9)).toEqual(["one two", "three", "four five", "six"]);
    expect(wrapText("a b c d e f g h i j", 3, 2)).toEqual(["a b", "c…"]);
    expect(wrapText("supercalifragilistic", 5)).toEqual(["super", "calif", "ragil", "istic"]);
    expect(escapeXml(`<a href="x">'&'</a>\u0001`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
  });

  it("derives the same palette for the same brand, and another for another", () => {
    expect(brandSeed(brief)).toBe("dispatch.example");
    expect(paletteFor("dispatch.example")).toEqual(paletteFor("Dispatch.Example"));
    expect(paletteFor("dispatch.example")).not.toEqual(paletteFor("kestrelgrove.example"));
    expect(paletteFor("dispatch.example").background).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("becomes the cover when no images model is configured: a 1200 × 630 PNG, alt text in the article's language", async () => {
    const { image, by } = await createCoverImage("Routenplanung: ein Überblick", brief);
    expect(by).toBe("title-card");
    expect(image).toMatchObject({ media_type: "image/png", width: 1200, height: 630, alt: "Titelgrafik mit der Aufschrift „Routenplanung: ein Überblick“" });
    const png = Buffer.from(image.data_base64, "base64");
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
  });

  it("renders the same bytes for the same card (bundled font, no system fonts), and text changes the pixels", () => {
    const palette = paletteFor("dispatch.example");
    const once = renderTitleCardPng(titleCardSvg("Route planning for field teams", "Dispatch", palette));
    expect(renderTitleCardPng(titleCardSvg("Route planning for field teams", "Dispatch", palette)).equals(once)).toBe(true);
    // Without any glyph drawn, two titles would give the same picture.
    expect(renderTitleCardPng(titleCardSvg("Another title entirely", "Dispatch", palette)).equals(once)).toBe(false);
    expect(renderTitleCardPng(titleCardSvg("", null, palette)).length).toBeLessThan(once.length);
  });
});

describe("the images model", () => {
  it("asks an OpenAI-compatible images endpoint for b64_json and reads the PNG's size", async () => {
    const server = await startFakeOpenAI();
    try {
      const generate = imageModelFrom({ IMAGES_BASE_URL: server.baseURL, IMAGES_API_KEY: "sk-img", IMAGES_MODEL: "gpt-image-1", LLM_MAX_RETRIES: 0 })!;
      const { image, by } = await createCoverImage("Route planning", brief, generate);
      expect(by).toBe("model");
      expect(image).toEqual({ alt: "Illustration zum Artikel „Route planning“", media_type: "image/png", data_base64: TINY_PNG.toString("base64"), width: 1, height: 1 });
      const [request] = server.requests;
      expect(request).toMatchObject({ method: "POST", path: "/v1/images/generations", authorization: "Bearer sk-img" });
      expect(request.body).toMatchObject({ model: "gpt-image-1", n: 1, size: "1024x1024", response_format: "b64_json" });
      expect(request.body.prompt).toContain("Route planning");
    } finally {
      await server.close();
    }
  });
});
