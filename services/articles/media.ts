import { Binary } from "mongodb";
import type { Clock } from "../../shared/clock";
import { NotFoundError, ValidationError } from "../../shared/errors";
import { newId } from "../../shared/ids";
import type { GeneratedArticle, MediaResponse } from "../../shared/schemas/articles";
import { uuid } from "../../shared/validation";
import { isDuplicateKeyError } from "../../shared/db/duplicate-key";
import { type ArticleCollections, type ArticleImageDoc } from "./store";

/** Where the platform serves media: PUBLIC_BASE_URL when set, else the gateway on localhost. */
export const mediaUrl = (baseUrl: string, mediaId: string): string => `${baseUrl}/media/${mediaId}`;

/**
 * Stores a generated cover image once per job (a repeated save finds the first one) and returns
 * what the article keeps of it.
 */
export async function storeCoverImage(c: ArticleCollections, generated: GeneratedArticle, clock: Clock): Promise<ArticleImageDoc | null> {
  const image = generated.image;
  if (!image) return null;
  const bytes = Buffer.from(image.data_base64, "base64");
  if (bytes.length === 0) throw new ValidationError("image.data_base64: must be base64-encoded image bytes");
  const describe = (mediaId: string): ArticleImageDoc => ({ media_id: mediaId, alt: image.alt, media_type: image.media_type, width: image.width, height: image.height });
  const mediaId = newId();
  try {
    await c.media.insertOne({ _id: mediaId, org_id: generated.org_id, job_id: generated.job_id, media_type: image.media_type, data: new Binary(bytes), created_at: clock.now() });
    return describe(mediaId);
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const existing = await c.media.findOne({ job_id: generated.job_id }, { projection: { _id: 1 } });
    if (!existing) throw err;
    return describe(existing._id);
  }
}

/**
 * Headers every media answer carries: cached forever (the id never names other bytes), never
 * sniffed as another type, and an SVG gets a policy under which it cannot run script or load anything.
 */
export function mediaHeaders(mediaType: string): Record<string, string> {
  return {
    "content-type": mediaType,
    "cache-control": "public, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
    ...(mediaType === "image/svg+xml" ? { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" } : {}),
  };
}


/** The stored bytes of a media id. Anything that is not a stored id is a 404. */
export async function readMedia(c: ArticleCollections, mediaId: string): Promise<MediaResponse> {
  const media = uuid.safeParse(mediaId).success ? await c.media.findOne({ _id: mediaId.toLowerCase() }) : null;
  if (!media) throw new NotFoundError("media");
  return { headers: mediaHeaders(media.media_type), body_base64: Buffer.from(media.data.read(0, media.data.length())).toString("base64") };
}
