import { Html } from "../html";

/**
 * The article as its readers see it, for the reading page: the sanitized HTML the articles service
 * stores and the publishers send (services/articles/render.ts), with presentation only added:
 * citation marks become numbered footnote references, the trailing source list becomes the
 * footnotes (each with an id the references link to), sentences that cite no source or that the
 * article's score judged off topic are marked, and
 * what the dashboard's policy would refuse is shown another way (`imagesAsLinks`).
 *
 * The input is the service's sanitized output, whose shapes are fixed by its renderer: the regular
 * expressions below only recognise those shapes and insert markup built here from numbers; every
 * byte of the article itself stays as the sanitizer left it.
 */

export interface Footnote {
  number: number;
  /** The source's address when the list links it. */
  url: string | null;
  /** The list item's sanitized inner HTML (a link to the source, or its title). */
  label: string;
}

export interface ReaderHtml {
  body: Html;
  /** The source list's own heading (in the article's language), or null when the article has none. */
  sourcesHeading: string | null;
  footnotes: Footnote[];
  /** Sentences of the text's paragraphs, and those of them that cite no source (marked in `body`). */
  sentences: number;
  uncited: number;
  /** Sentences marked as judged off topic (the job's `score` stage lists them). */
  offTopic: number;
}

/** A sentence as plain words, to match the score stage's sentences against the rendered text. */
const plainWords = (html: string): string =>
  html.replace(/<sup class="fn[^"]*">[\s\S]*?<\/sup>/g, "").replace(/<[^>]+>/g, "").replace(/&[a-z#0-9]+;/gi, " ").replace(/[^\p{L}\p{N}]+/gu, " ").trim().toLowerCase();

const SOURCES_BLOCK = /<h2>([^<]*)<\/h2>\s*<ol>([\s\S]*?)<\/ol>\s*$/;
const LIST_ITEM = /<li>([\s\S]*?)<\/li>/g;
const HREF = /^<a href="([^"]*)"/;
/** `[[n]](url)` rendered: a link whose text is `[n]`; a source without an address is the bare text `[n]`. */
const LINKED_MARK = /<a href="[^"]*"(?: rel="[^"]*")?>\[(\d{1,3})\]<\/a>/g;
const FOOTNOTE_REF = /<sup class="fn[^"]*">[\s\S]*?<\/sup>/;
const PARAGRAPH = /<p>([\s\S]*?)<\/p>/g;
const COVER_FIGURE = /^\s*<figure class="article-cover">[\s\S]*?<\/figure>\s*/;
/** A sentence ends at . ! or ? (then closing quotes or brackets, then its footnote references, spaced or not) before a space and a capital or digit. */
const SENTENCE = /[\s\S]+?(?:[.!?]["”’)]*(?:\s*<sup class="fn[^"]*">[\s\S]*?<\/sup>)*(?=\s+["“(]?[\p{Lu}\d])|$)/gu;

const ref = (n: number): string => `<sup class="fn"><a href="#source-${n}" aria-label="source ${n}">${n}</a></sup>`;

export function readerHtml(contentHtml: string, offTopicSentences: readonly string[] = []): ReaderHtml {
  const offTopicKeys = new Set(offTopicSentences.map(plainWords).filter((k) => k.length >= 12));
  let body = contentHtml;
  let sourcesHeading: string | null = null;
  const footnotes: Footnote[] = [];
  const block = SOURCES_BLOCK.exec(body);
  if (block) {
    sourcesHeading = block[1];
    for (const item of block[2].matchAll(LIST_ITEM)) {
      footnotes.push({ number: footnotes.length + 1, url: HREF.exec(item[1])?.[1] ?? null, label: item[1] });
    }
    body = body.slice(0, block.index);
  }
  const known = (n: string) => Number(n) >= 1 && Number(n) <= footnotes.length;
  body = body.replace(LINKED_MARK, (whole, n: string) => (known(n) ? ref(Number(n)) : whole));
  body = body.replace(/(<sup class="fn">[\s\S]*?<\/sup>)|\[(\d{1,3})\]/g, (whole, sup: string | undefined, n: string | undefined) =>
    sup ? sup : n && known(n) ? ref(Number(n)) : whole,
  );
  // A reference sits on the sentence it ends ("soil.¹"); two in a row read "¹,²".
  body = body.replace(/\s+(<sup class="fn">)/g, "$1").replace(/<\/sup><sup class="fn">/g, '</sup><sup class="fn fn-next">');
  // Images in the text are the article's (publishers send them); the dashboard's policy loads none from
  // other hosts, so each shows as a link to its address instead.
  // The cover the articles service puts first (`htmlWithCover`) is shown by the page itself, from this origin.
  body = body.replace(COVER_FIGURE, "");
  body = imagesAsLinks(body);

  let sentences = 0;
  let uncited = 0;
  let offTopic = 0;
  body = body.replace(PARAGRAPH, (whole, inner: string) => {
    // A paragraph that is one link (an image shown as its link) is no sentence.
    if (/^\s*<a [^>]*>[^<]*<\/a>\s*$/.test(inner)) return whole;
    const marked = inner.replace(SENTENCE, (sentence: string) => {
      const lead = /^\s*/.exec(sentence)![0];
      const text = sentence.slice(lead.length);
      if (!text) return sentence;
      sentences++;
      if (!balanced(text)) return sentence;
      const words = plainWords(text);
      // The score stage's own sentence is the claim: it ends the text.
      if ([...offTopicKeys].some((k) => words === k || words.endsWith(` ${k}`))) {
        offTopic++;
        return `${lead}<span class="flag flag-offtopic" title="judged off topic">${text}</span>`;
      }
      if (FOOTNOTE_REF.test(text)) return sentence;
      uncited++;
      return `${lead}<span class="flag flag-uncited" title="cites no source">${text}</span>`;
    });
    return `<p>${marked}</p>`;
  });
  return { body: new Html(body), sourcesHeading, footnotes, sentences, uncited, offTopic };
}

/** Whether a run of markup opens and closes the same elements (a span may only wrap whole elements). */
function balanced(fragment: string): boolean {
  const stack: string[] = [];
  for (const m of fragment.matchAll(/<(\/?)([a-z0-9]+)[^>]*?(\/?)>/g)) {
    const [, closing, tag, selfClosing] = m;
    if (selfClosing || tag === "br" || tag === "img" || tag === "hr") continue;
    if (!closing) stack.push(tag);
    else if (stack.pop() !== tag) return false;
  }
  return stack.length === 0;
}

/**
 * Sanitized HTML of the articles service as the dashboard's policy lets it show: images of other hosts as
 * links (it loads none), and a table cell's alignment (the one inline style the sanitizer keeps, which a
 * policy without 'unsafe-inline' refuses) as a class.
 */
export function imagesAsLinks(sanitized: string): string {
  return sanitized
    .replace(/<img src="([^"]*)"(?: alt="([^"]*)")?[^>]*>/g, (_w, src: string, alt: string | undefined) => `<a href="${src}" class="image-link">[image${alt ? `: ${alt}` : ""}]</a>`)
    .replace(/<(th|td) style="text-align:\s*(left|right|center);?">/g, '<$1 class="align-$2">');
}

/** Other HTML the articles service rendered and sanitized (a newsletter's body), as it is apart from its images. */
export const serviceHtml = (sanitized: string): Html => new Html(imagesAsLinks(sanitized));
