import OpenAI from "openai";
import { reportingTimeout } from "./attempt-timeout";

export interface GeneratedImageBytes {
  bytes: Buffer;
  mediaType: "image/png" | "image/jpeg" | "image/webp";
  width: number;
  height: number;
  /** GPT image models report token usage; DALL·E models report none (0). */
  tokensIn: number;
  tokensOut: number;
}

/** An image-model call, injected so that callers run against any OpenAI-compatible images endpoint or a fake. */
export type GenerateImageFn = (prompt: string) => Promise<GeneratedImageBytes>;

export interface OpenAICompatibleImagesOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  /** 1024x1024 is the one size every OpenAI image model (and most compatible servers) accepts. */
  size?: "1024x1024";
}

/**
 * `POST {baseURL}/images/generations` with `response_format: "b64_json"`: the bytes come back in the answer, no
 * second fetch. One HTTP attempt per call; `from-config.ts` adds the retries and the process's scheduler.
 */
export function openAICompatibleImages(options: OpenAICompatibleImagesOptions): GenerateImageFn {
  const timeout = options.timeoutMs ?? 120_000;
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey, timeout, maxRetries: 0 });
  const size = options.size ?? "1024x1024";
  const [requestedWidth, requestedHeight] = size.split("x").map(Number);
  return async (prompt) => {
    const response = await reportingTimeout(timeout, () => client.images.generate({ model: options.model, prompt, n: 1, size, response_format: "b64_json" }));
    const b64 = response.data?.[0]?.b64_json;
    if (!b64) throw new Error("the images endpoint returned no image data");
    const bytes = Buffer.from(b64, "base64");
    const sniffed = sniffImage(bytes);
    if (!sniffed) throw new Error("the images endpoint returned bytes that are not a PNG, JPEG or WebP image");
    const usage = (response as { usage?: { input_tokens?: number; output_tokens?: number } }).usage;
    return {
      bytes,
      mediaType: sniffed.mediaType,
      width: sniffed.width ?? requestedWidth,
      height: sniffed.height ?? requestedHeight,
      tokensIn: usage?.input_tokens ?? 0,
      tokensOut: usage?.output_tokens ?? 0,
    };
  };
}

/** Media type from the magic bytes, and the pixel size where the header states it (PNG IHDR, JPEG SOFn, WebP VP8/VP8L/VP8X). */
export function sniffImage(bytes: Buffer): { mediaType: GeneratedImageBytes["mediaType"]; width?: number; height?: number } | null {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { mediaType: "image/png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return { mediaType: "image/jpeg", ...jpegSize(bytes) };
  if (bytes.length >= 30 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") {
    return { mediaType: "image/webp", ...webpSize(bytes) };
  }
  return null;
}

function jpegSize(bytes: Buffer): { width?: number; height?: number } {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return {};
    const marker = bytes[offset + 1];
    const length = bytes.readUInt16BE(offset + 2);
    // SOF0–SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return {};
}

function webpSize(bytes: Buffer): { width?: number; height?: number } {
  const chunk = bytes.toString("latin1", 12, 16);
  if (chunk === "VP8X") return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  if (chunk === "VP8 ") return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return {};
}
