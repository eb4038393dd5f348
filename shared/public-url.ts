/** The base of every address the platform hands out (media, pasted sources): PUBLIC_BASE_URL, else the gateway on localhost. */
export function publicBaseUrl(cfg: { PUBLIC_BASE_URL?: string; PORT: number }): string {
  return (cfg.PUBLIC_BASE_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, "");
}

/**
 * How a citation names a pasted source that has no public address: `urn:uuid:<source id>` (RFC 4122's URN
 * namespace). It is an identifier, not a link: a reader of a published article could not open the API's
 * source route (it needs the organization's key), so the article cites such a source by its title and links
 * nothing; an API client resolves the id with `GET /v1/brand-profiles/{id}/sources/{source_id}`.
 */
export const sourceReference = (sourceId: string): string => `urn:uuid:${sourceId}`;
