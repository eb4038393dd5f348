import type { IncomingMessage, ServerResponse } from "node:http";
import getRawBody from "raw-body";
import { ApiError, ValidationError } from "../../../shared/errors";
import type { Html } from "./html";

/** An action's answer, or null when it refused with `not_found` (an absent thing the page handles); any other failure stays one. */
export const nullIfNotFound = <T>(answer: Promise<T>): Promise<T | null> =>
  answer.catch((err: unknown) => {
    if ((err as { type?: string }).type === "not_found") return null;
    throw err;
  });

/**
 * Every dashboard response carries a strict policy: scripts, styles, images and requests from
 * this origin only, no inline script or style, forms posting only here, never framed.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": DASHBOARD_CSP,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // Sign-in links carry their token in the query: never leak a dashboard URL to another site.
  // ("no-referrer" would also make the browser send `Origin: null` on the dashboard's own forms.)
  "referrer-policy": "same-origin",
  "cross-origin-opener-policy": "same-origin",
};

export function sendHtml(res: ServerResponse, status: number, page: Html, headers: Record<string, string | string[]> = {}): void {
  const bytes = Buffer.from(page.text);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    "content-type": "text/html; charset=utf-8",
    "content-length": bytes.length,
    "cache-control": "no-store",
    ...headers,
  });
  res.end(bytes);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8", "content-length": bytes.length, "cache-control": "no-store" });
  res.end(bytes);
}

/** 303 See Other: after a form post, the browser loads `location` with GET. */
export function redirect(res: ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(303, { ...SECURITY_HEADERS, location, "content-length": 0, "cache-control": "no-store", ...headers });
  res.end();
}

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;
const MAX_FORM_BYTES = 64 * 1024;

/** Reads an urlencoded form (what the dashboard's forms post), within 64 KiB. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const type = req.headers["content-type"];
  if (!type || !FORM_TYPE.test(type)) throw new ApiError("unsupported_media_type", "Dashboard forms post application/x-www-form-urlencoded.");
  try {
    return new URLSearchParams(await getRawBody(req, { limit: MAX_FORM_BYTES, encoding: "utf-8", length: req.headers["content-length"] }));
  } catch (err) {
    if ((err as { type?: string }).type === "entity.too.large") throw new ApiError("payload_too_large", `Form exceeds ${MAX_FORM_BYTES} bytes.`);
    throw new ValidationError("form: could not be read");
  }
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, part.slice(eq + 1).trim());
  }
  return out;
}
