/** What every content system receives of an article, and what every kind's client does with it. */

export interface CoverImage {
  /** Our media id: the same image is uploaded once per integration entry. */
  key: string;
  bytes: Buffer;
  mediaType: string;
  filename: string;
  alt: string;
  width: number;
  height: number;
}

export interface PublishContent {
  title: string;
  slug: string;
  markdown: string;
  /** The article's sanitized HTML (render.ts). */
  html: string;
  excerpt: string;
  metaTitle: string;
  metaDescription: string;
  /** From the target keyword; written where the system has tags. */
  tags: string[];
  cover: CoverImage | null;
}

/** The entry a previous publish of this article to this integration made. */
export interface PreviousEntry {
  external_id: string;
  /** Kind-specific ids kept beside it (e.g. Strapi's numeric id, the uploaded cover's id). */
  vendor: Record<string, string | number>;
}

export interface PublishedEntry {
  external_id: string;
  external_url: string;
  vendor: Record<string, string | number>;
}

export interface PublishRequest {
  content: PublishContent;
  previous: PreviousEntry | null;
  asDraft: boolean;
  /**
   * Called as soon as an entry exists upstream, before any later step that may fail, so that a
   * retry after a failure updates it instead of creating a second one.
   */
  onCreated(entry: PreviousEntry): Promise<void>;
}

export interface CmsClient {
  /** An authenticated read that proves the settings and credentials work; throws UpstreamError. */
  check(): Promise<string>;
  publish(req: PublishRequest): Promise<PublishedEntry>;
}

/** `cover.png` from the slug and the media type. */
export function coverFilename(slug: string, mediaType: string): string {
  const ext = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif", "image/svg+xml": "svg" }[mediaType] ?? "bin";
  return `${slug || "cover"}.${ext}`;
}
