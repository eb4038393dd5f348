import type { ServerResponse } from "node:http";
import type { MediaResponse } from "../../shared/schemas/articles";

/** Streams a media file as `articles.getMedia` returned it: its headers, its bytes. */
export function writeMedia(res: ServerResponse, media: MediaResponse): void {
  const bytes = Buffer.from(media.body_base64, "base64");
  res.writeHead(200, { ...media.headers, "content-length": bytes.length });
  res.end(bytes);
}
