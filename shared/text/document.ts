/** A fetched page or a pasted text as readable structure: what extraction produces. */

export interface DocumentSection {
  /** Headings above this text, outermost first, e.g. ["Pricing", "Enterprise plan"]; [] before the first heading. */
  headingPath: string[];
  /** Paragraphs (and list items, table rows) separated by "\n": prose only. */
  text: string;
  /** Preformatted blocks of the section (commands, logs, configuration, code), verbatim, kept out of `text`. */
  code?: string[];
}

export interface ExtractedDocument {
  url: string;
  title: string;
  /** BCP 47 tag when the page declares one. */
  lang?: string;
  sections: DocumentSection[];
  /** The whole readable text: headings on their own lines, paragraphs separated by blank lines. */
  text: string;
  /** The first few full sentences of the body: what the document is about, used for offline context. */
  leadSentences: string[];
  wordCount: number;
}
