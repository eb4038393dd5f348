import { Readability } from "@mozilla/readability";
import { countWords, splitSentences } from "./segment";
import type { DocumentSection, ExtractedDocument } from "./document";
import { parseHtmlDom } from "./html-dom";

export interface FetchedDocument {
  url: string;
  /** The Content-Type header as received; parameters such as charset are ignored (the body is already text). */
  contentType: string;
  body: string;
}

export type ExtractableKind = "html" | "text";

/** Which extractor handles a content type, or null when it carries no readable text (images, PDFs, archives). */
export function extractableKind(contentType: string): ExtractableKind | null {
  const mime = contentType.split(";")[0].trim().toLowerCase();
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "text/plain" || mime === "text/markdown" || mime === "text/x-markdown") return "text";
  return null;
}

/** Readable text and heading structure of a fetched page or text file. Throws on a content type without text. */
export function extractDocument(input: FetchedDocument): ExtractedDocument {
  const kind = extractableKind(input.contentType);
  if (kind === "html") return extractHtml(input.url, input.body);
  if (kind === "text") return extractPlainText({ url: input.url, content: input.body });
  throw new Error(`cannot extract text from content type "${input.contentType}"`);
}

const HEADINGS: Record<string, number> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };
const BLOCKS = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "DD", "DETAILS", "DIV", "DL", "DT", "FIELDSET", "FIGCAPTION", "FIGURE",
  "FOOTER", "FORM", "HEADER", "HR", "LI", "MAIN", "NAV", "OL", "P", "PRE", "SECTION", "SUMMARY", "TABLE", "TBODY",
  "TFOOT", "THEAD", "UL",
]);
const SKIPPED = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "CANVAS", "IFRAME", "BUTTON", "SELECT", "INPUT", "TEXTAREA"]);
/** Preformatted blocks (shell sessions, logs, configuration files, code) are kept apart from prose, never read as sentences. */
const PREFORMATTED = new Set(["PRE", "XMP", "LISTING"]);
/**
 * Menus, modal dialogs (cookie consent, newsletter pop-ups) and the site's own header and footer are never
 * content, but on a short page Readability scores them like text; they go before it runs. A header or footer
 * inside the main content or an article belongs to it and stays.
 */
const NEVER_CONTENT = ["nav", "[role=navigation]", "[role=menu]", "[role=menubar]", "[role=dialog]", "[role=alertdialog]", "[aria-modal=true]", "[role=banner]", "[role=contentinfo]"];
const SITE_CHROME = ["header", "footer"];
/**
 * A page's footnotes: DocBook's `div.footnotes`, docutils' and Sphinx's `aside.footnote-list` (or the older
 * `table.footnote`, `dl.footnote`), Pandoc's and markdown-it's `section.footnotes`, Wikipedia's `ol.references`,
 * and the DPUB-ARIA roles. A footnote comments on a point of the text from the page's foot ("This target is used
 * by dpkg-buildpackage -A."), so taken out of the page it is neither about the page's sections nor readable
 * alone. On the held-out probe's labels (docs/benchmarks.md, sixteenth stop), readers found 35 of 75 footnote
 * sentences on the request's subject and 38 standing alone, against 975 and 886 of the 1,291 others. They are
 * not the page's text. The marks that point to them go too (`dropFootnoteMarks`).
 */
const FOOTNOTES = [
  "div.footnotes", "div.footnote", "aside.footnote-list", "aside.footnote", "table.footnote", "dl.footnote", "section.footnotes",
  "hr.footnotes-sep", "ol.references", "div.reflist", "[role=doc-endnotes]", "[role=doc-footnote]", "[role=doc-endnote]",
];
const CONTENT_ROOTS = "main, article, [role=main]";

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

const HEADING_LABEL = /^(?:chapter|chapitre|kapitel|cap[ií]tulo|appendix|annexe|anhang|ap[ée]ndice|section|part|partie|teil|parte)\s+(\S+?)[.:]?\s+/i;
/** What follows a label when it numbers the heading: digits, one capital letter or a Roman numeral ("Part of …", "Teil der …" are words). */
const LABEL_NUMBER = /^(?:\d+|[A-Z]|[IVXLC]+)$/;

/**
 * A heading as a reader would write it: without the source's numbering ("14.2.2. Moving from iptables to
 * nftables", "Chapter 2. Debian package management", "A.1. …") and without a trailing anchor mark ("¶", "#").
 */
export function cleanHeading(text: string): string {
  const collapsed = collapse(text);
  const label = HEADING_LABEL.exec(collapsed);
  return (label && LABEL_NUMBER.test(label[1]) ? collapsed.slice(label[0].length) : collapsed)
    .replace(/^(?:[A-Z]|\d+)(?:\.\d+)+\.?\s+/, "")
    .replace(/^\d+[.)]\s+/, "")
    .replace(/\s*[¶#§]\s*$/, "")
    .trim();
}

/** Whether a heading still carries what `cleanHeading` strips: a source's numbering, chapter label or trailing mark. */
export function hasSourceNumbering(heading: string): boolean {
  return cleanHeading(heading) !== collapse(heading).trim();
}

function extractHtml(url: string, html: string): ExtractedDocument {
  const { document } = parseHtmlDom(html);
  const pageTitle = collapse(document.title ?? "");
  const firstH1 = cleanHeading(document.querySelector("h1")?.textContent ?? "");
  const declaredLang = document.documentElement.getAttribute("lang")?.trim() || undefined;
  for (const el of document.querySelectorAll(NEVER_CONTENT.join(","))) el.remove();
  for (const el of document.querySelectorAll(SITE_CHROME.join(","))) if (!el.parentElement?.closest(CONTENT_ROOTS)) el.remove();
  // A named anchor (`<a id="x"/>` before a heading's text) is no link, but HTML parsing makes it wrap the
  // heading, and Readability then removes the heading as all-link boilerplate: unwrap it.
  for (const el of document.querySelectorAll("a:not([href])")) el.replaceWith(...Array.from(el.childNodes));
  dropFootnoteMarks(document);
  for (const el of document.querySelectorAll(FOOTNOTES.join(","))) el.remove();

  // Identity serializer: we want Readability's cleaned DOM, not an HTML string to parse again.
  const article = new Readability<Node>(document, { serializer: (node) => node }).parse();
  const title = cleanHeading(article?.title ?? "") || firstH1 || pageTitle || url;
  // Readability turns the page's h1 into an h2; as the first heading it names the page, not a section.
  const sections = article?.content ? sectionsFromDom(article.content, [title, firstH1, pageTitle]) : [];
  const lang = (article?.lang ?? "").trim() || declaredLang;
  return assemble(url, title, lang, sections);
}

/** What a footnote's mark reads: "[42]", "42", "[a]" (a link to the note at the page's foot, or back from it). */
const FOOTNOTE_MARK = /^\[?(?:\d{1,3}|[a-z])\]?$/;

/**
 * A footnote's mark is no part of the sentence it follows: quoted, "… entre las lineas 6 y 7 [35]." and "… with
 * the target name. [42] The dh command …" (DocBook, the Debian manuals) reach an article with a number the reader
 * cannot follow. A link within the page whose text is such a mark goes, with the superscript around it when that
 * holds nothing else: DocBook's `<a class="footnote"><sup>[42]</sup></a>`, Wikipedia's `<sup><a>[1]</a></sup>`,
 * markdown's `<sup><a class="footnote-ref">1</a></sup>`. So does the space before it when punctuation follows.
 */
function dropFootnoteMarks(document: Document): void {
  for (const link of Array.from(document.querySelectorAll('a[href^="#"]'))) {
    if (!FOOTNOTE_MARK.test(collapse(link.textContent ?? ""))) continue;
    const sup = link.closest("sup");
    const mark = sup && FOOTNOTE_MARK.test(collapse(sup.textContent ?? "")) ? sup : link;
    const before = mark.previousSibling;
    const next = mark.nextSibling;
    const after = next?.textContent ?? "";
    if (before?.nodeType === 3 && /^[.,;:!?)]/.test(after)) {
      before.textContent = (before.textContent ?? "").replace(/\s+$/, "");
      // A mark between two full stops ("… hochladen. [83]. Sie können …", the German guide) leaves one.
      if (/[.!?]$/.test(before.textContent) && next!.nodeType === 3 && after.startsWith(".")) next!.textContent = after.slice(1);
    }
    mark.remove();
  }
}

class SectionBuilder {
  readonly sections: DocumentSection[] = [];
  private stack: { level: number; text: string }[] = [];
  private paragraphs: string[] = [];
  private codeBlocks: string[] = [];
  private readonly documentNames: Set<string>;

  /** documentNames: the title and the like; as the very first heading they name the document, not a section. */
  constructor(documentNames: string[]) {
    this.documentNames = new Set(documentNames.filter(Boolean).map((n) => n.toLowerCase()));
  }

  heading(level: number, raw: string): void {
    const text = cleanHeading(raw);
    if (!text) return;
    if (this.stack.length === 0 && this.sections.length === 0 && this.paragraphs.length === 0 && this.documentNames.has(text.toLowerCase())) return;
    this.close();
    while (this.stack.length && this.stack[this.stack.length - 1].level >= level) this.stack.pop();
    this.stack.push({ level, text });
  }

  paragraph(text: string): void {
    if (text) this.paragraphs.push(text);
  }

  /** A preformatted block: kept with its section, apart from the prose. */
  code(text: string): void {
    const trimmed = text.replace(/^\n+|\s+$/g, "");
    if (trimmed) this.codeBlocks.push(trimmed);
  }

  close(): DocumentSection[] {
    if (this.paragraphs.length || this.codeBlocks.length) {
      this.sections.push({
        headingPath: this.stack.map((h) => h.text),
        text: this.paragraphs.join("\n"),
        ...(this.codeBlocks.length ? { code: this.codeBlocks } : {}),
      });
      this.paragraphs = [];
      this.codeBlocks = [];
    }
    return this.sections;
  }
}

/** Longest definition-list term (`<dt>`) that opens its description's first line rather than standing as a line of its own. */
const TERM_MAX_WORDS = 12;

/** Walks the DOM in document order: headings open sections, block elements end paragraphs, inline text accumulates. */
function sectionsFromDom(root: Node, documentNames: string[]): DocumentSection[] {
  const builder = new SectionBuilder(documentNames);
  let lines: string[] = [""];
  // A definition list's term waiting for its description (`term`), then opening the description's first line
  // (`describing`): a manual's "--stacks=<yes|no> [default: no]" above "Specifies whether stack profiling should be
  // done." made a sentence no reader could place; "--stacks=<yes|no> [default: no]: Specifies whether …" says it.
  let term: string | null = null;
  let describing: string | null = null;
  const flush = () => {
    for (const line of lines) {
      let text = collapse(line);
      if (text && describing !== null) {
        text = `${describing}${/[:：]$/.test(describing) ? "" : ":"} ${text}`;
        describing = null;
      }
      builder.paragraph(text);
    }
    lines = [""];
  };
  const termAlone = () => {
    if (term !== null) builder.paragraph(term);
    term = null;
  };
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        lines[lines.length - 1] += child.textContent ?? "";
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      const tag = el.tagName.toUpperCase();
      if (SKIPPED.has(tag)) continue;
      if (tag === "DT" || tag === "DD") {
        flush();
        if (tag === "DT") {
          walk(el);
          const text = collapse(lines.join(" "));
          lines = [""];
          if (!text) continue;
          if (text.split(" ").length > TERM_MAX_WORDS) {
            termAlone();
            builder.paragraph(text);
          } else term = term === null ? text : `${term}, ${text}`;
          continue;
        }
        describing = term;
        term = null;
        walk(el);
        flush();
        if (describing !== null) builder.paragraph(describing);
        describing = null;
        continue;
      }
      // Anything but its description after a term leaves the term a line of its own.
      if (PREFORMATTED.has(tag) || tag in HEADINGS || tag === "TR" || BLOCKS.has(tag)) termAlone();
      if (PREFORMATTED.has(tag)) {
        flush();
        builder.code(el.textContent ?? "");
      } else if (tag in HEADINGS) {
        flush();
        builder.heading(HEADINGS[tag], collapse(el.textContent ?? ""));
      } else if (tag === "BR") {
        lines.push("");
      } else if (tag === "TR") {
        flush();
        // A row stays one line so a price and its plan name land in the same sentence.
        const cells = Array.from(el.children).map((cell) => collapse(cell.textContent ?? "")).filter(Boolean);
        builder.paragraph(cells.join(" | "));
      } else if (BLOCKS.has(tag)) {
        flush();
        walk(el);
        flush();
      } else {
        walk(el);
      }
    }
  };
  walk(root);
  flush();
  termAlone();
  return builder.close();
}

export interface PlainTextInput {
  content: string;
  title?: string;
  /** Where the text came from; empty for pasted text and writing samples. */
  url?: string;
  lang?: string;
}

const MARKDOWN_HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

/** Strips the inline markdown that would otherwise end up in facts and contexts: links, emphasis, code ticks. */
function plainInline(text: string): string {
  return collapse(text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\*\*|__|`/g, ""));
}

/** A line that ends a sentence (or a clause a list goes on from). */
const ENDS_SENTENCE = /[.!?…:;]["”’)»]*$/;
/** Fewer words than this on a line without a full stop make a label or a heading ("Tools", "Chain care"), not an item. */
const ITEM_MIN_WORDS = 4;

/**
 * Notes pasted one per line or as a list often leave out the full stop ("Check tyre pressure once a week"): the
 * line break ends the sentence. Without it no line is a sentence, and notes that plainly cover a topic were
 * refused whole. Such an item gets its full stop; a short label stays as written.
 */
function asItem(line: string): string {
  return ENDS_SENTENCE.test(line) || !/[\p{L}\p{N})"”’»]$/u.test(line) || countWords(line) < ITEM_MIN_WORDS ? line : `${line}.`;
}

/**
 * Lines of one paragraph that are notes, one per line, rather than wrapped prose: at least two, none ending a
 * sentence, each opening in upper case or with a figure (wrapped prose ends its last line with a full stop).
 */
const isLineNotes = (lines: readonly string[]) => lines.length >= 2 && lines.every((l) => !ENDS_SENTENCE.test(l) && /^[\p{Lu}\p{N}]/u.test(l));

/**
 * Text and writing-sample sources: blank lines separate paragraphs, list items stand alone,
 * markdown headings (`#`, `##`, …) become heading paths. A list item or a line of notes without its full
 * stop gets one (`asItem`).
 */
export function extractPlainText(input: PlainTextInput): ExtractedDocument {
  const lines = input.content.replace(/\r\n?/g, "\n").split("\n");
  let title = collapse(input.title ?? "");
  if (!title) {
    const first = lines.find((l) => l.trim());
    const match = first ? MARKDOWN_HEADING.exec(first.trim()) : null;
    if (match && match[1].length === 1) title = plainInline(match[2]);
  }
  if (!title) {
    const firstSentence = splitSentences(input.content, input.lang)[0]?.text ?? "";
    title = plainInline(firstSentence).split(" ").slice(0, 12).join(" ") || "Untitled";
  }

  const builder = new SectionBuilder([title]);
  let paragraph: string[] = [];
  const flush = () => {
    builder.paragraph(plainInline((isLineNotes(paragraph) ? paragraph.map(asItem) : paragraph).join(" ")));
    paragraph = [];
  };
  let fence: string[] | null = null;
  for (const raw of lines) {
    const line = raw.trim();
    // A fenced block (``` or ~~~) is code: kept apart from the prose, verbatim.
    if (/^(```|~~~)/.test(line)) {
      if (fence) {
        builder.code(fence.join("\n"));
        fence = null;
      } else {
        flush();
        fence = [];
      }
      continue;
    }
    if (fence) {
      fence.push(raw);
      continue;
    }
    const heading = MARKDOWN_HEADING.exec(line);
    if (heading) {
      flush();
      builder.heading(heading[1].length, plainInline(heading[2]));
    } else if (!line) {
      flush();
    } else if (LIST_ITEM.test(line)) {
      flush();
      paragraph.push(asItem(line.replace(LIST_ITEM, "")));
      flush();
    } else {
      paragraph.push(line);
    }
  }
  if (fence) builder.code(fence.join("\n"));
  flush();
  return assemble(input.url ?? "", title, input.lang, builder.close());
}

const LEAD_SENTENCES = 3;

/** A document from its sections: its whole text, lead sentences and word count follow from them. */
export function assemble(url: string, title: string, lang: string | undefined, sections: DocumentSection[]): ExtractedDocument {
  const blocks: string[] = [];
  let previous: string[] = [];
  for (const section of sections) {
    let common = 0;
    while (common < previous.length && common < section.headingPath.length && previous[common] === section.headingPath[common]) common++;
    blocks.push(...section.headingPath.slice(common));
    blocks.push(section.text);
    previous = section.headingPath;
  }
  const text = blocks.join("\n\n");

  // Lead sentences are real sentences (terminal punctuation, a few words), not menu-like fragments.
  const sentences = sections.flatMap((s) => splitSentences(s.text, lang).map((x) => x.text));
  const full = sentences.filter((s) => /[.!?…]["”’)]*$/.test(s) && countWords(s, lang) >= 5);
  const leadSentences = (full.length ? full : sentences).slice(0, LEAD_SENTENCES);

  return { url, title, ...(lang ? { lang } : {}), sections, text, leadSentences, wordCount: countWords(text, lang) };
}
