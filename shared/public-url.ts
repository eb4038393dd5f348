/** The base of every address the platform hands out (media, pasted sources): PUBLIC_BASE_URL, else the gateway on localhost. */
export function publicBaseUrl(cfg: { PUBLIC_BASE_URL?: string; PORT: number }): string {
  return (cfg.PUBLIC_BASE_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, "");
}

/** Where a pasted (text) source of a brand profile is read through the API: what a citation of it links to. */
export const sourceAddress = (baseUrl: string, profileId: string, sourceId: string): string =>
  `${baseUrl}/v1/brand-profiles/${profileId}/sources/${sourceId}`;
