/**
 * The one escaping point of the dashboard: every page is built with the `html` template tag,
 * which escapes each interpolated value unless it is already `Html` (built by this tag).
 * Nothing else writes markup from data.
 */

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "`": "&#96;" };

/** Escapes text for an HTML text node or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => ENTITIES[c]);
}

/** A value as markup: `Html` as is, arrays joined, null/undefined/false as nothing, anything else escaped text. */
function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** JSON for a `data-*` attribute: escaped like any other value by `html`, parsed back by the page script. */
export const jsonAttr = (value: unknown): string => JSON.stringify(value);
