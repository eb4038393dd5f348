/** linkedom ships its CommonJS build for require() (what this project compiles to); its typings are ESM-only, hence the local type. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DOMParser } = require("linkedom") as { DOMParser: new () => { parseFromString(markup: string, type: "text/html"): unknown } };

/**
 * An HTML page as a DOM for reading only (text extraction, links): linkedom, a light DOM that
 * Readability supports, instead of jsdom. jsdom builds a full browser window per page (CSS, events,
 * a spec-exact tree), which made extraction the largest share of an ingest's time and memory
 * (docs/benchmarks.md#ingest); nothing here needs more than parsing, selectors and tree edits.
 * Scripts never run and nothing is loaded: linkedom has neither.
 */
export interface HtmlDom {
  document: Document;
}

export function parseHtmlDom(html: string): HtmlDom {
  const document = new DOMParser().parseFromString(html, "text/html") as unknown as Document;
  addImpliedTableBodies(document);
  return { document };
}

/**
 * HTML parsing puts a table's rows in a `<tbody>` when the markup has none; linkedom keeps them
 * directly under `<table>`. Readability weighs tables by their structure, so without this its choice
 * of content on pages with layout tables (DocBook's tips and notes) differs from a browser's.
 */
function addImpliedTableBodies(document: Document): void {
  for (const table of Array.from(document.querySelectorAll("table"))) {
    let body: Element | null = null;
    for (const child of Array.from(table.childNodes)) {
      const tag = child.nodeType === 1 ? (child as Element).tagName.toUpperCase() : "";
      if (tag === "TR") {
        if (!body) {
          body = document.createElement("tbody");
          table.insertBefore(body, child);
        }
        body.appendChild(child);
      } else if (tag) {
        body = null;
      } else if (body && child.nodeType === 3 && !(child.textContent ?? "").trim()) {
        // Whitespace between rows belongs inside the body, as a browser's parser puts it.
        body.appendChild(child);
      }
    }
  }
}
