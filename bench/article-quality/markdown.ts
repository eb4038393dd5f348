import MarkdownIt from "markdown-it";
import { sentencesOf } from "../../shared/text/segment";

/** A heading of the article's markdown and the sentences under it. */
export interface ArticleSection {
  heading: string;
  level: number;
  kind: "intro" | "body" | "faq" | "sources";
  /**
   * Sentences of its paragraphs and list items, citation marks and markup removed, each with its nearest heading
   * and whether a citation mark followed it (an uncited sentence states no fact of a source).
   */
  sentences: { text: string; heading: string; first: boolean; cited: boolean }[];
  /** `###` headings inside the section. */
  subheadings: string[];
  codeBlocks: number;
}

const FAQ_HEADINGS = /^(frequently asked questions|faq|faqs|questions fréquentes|foire aux questions|häufige fragen|häufig gestellte fragen|preguntas frecuentes)$/i;
const SOURCE_HEADINGS = /^(sources?|references|quellen|quellenangaben|fuentes|références|referencias)$/i;

/** A citation mark and the sentence-ending punctuation before it. */
const CITATION_MARKS = /([.!?…]*)(\s*\[\[\d+\]\]\([^)]*\)|\s*\\\[\d+\\\])/g;
/** A private-use sign standing for a citation mark while sentences are split. */
const CITED = "\uE000";

/** Citation marks as the platform writes them ("[[2]](https://…)", "\[2\]"), removed from prose. */
export function stripCitationMarks(text: string): string {
  return text.replace(/\s*\[\[\d+\]\]\([^)]*\)/g, "").replace(/\s*\\\[\d+\\\]/g, "");
}

/** Inline markdown as plain text: citation marks out, links to their text, emphasis and escapes undone. */
export function inlineText(markdown: string): string {
  return stripCitationMarks(markdown)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/\\([\\`*_[\]<>#|!()~-])/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

export const normalizeText = (s: string) => s.normalize("NFKC").toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/\s+/g, " ").trim();

/**
 * The article's markdown as sections, parsed with markdown-it: the introduction (before the first `##`), body
 * sections, the FAQ (a `##` whose `###` headings are the article's FAQ questions, or named so), and the source
 * list (named so, or only a numbered list). Independent of how the pipeline renders: it reads what a reader reads.
 */
export function parseArticleMarkdown(markdown: string, lang: string, faqQuestions: string[]): ArticleSection[] {
  const tokens = new MarkdownIt().parse(markdown, {});
  const sections: ArticleSection[] = [{ heading: "", level: 1, kind: "intro", sentences: [], subheadings: [], codeBlocks: 0 }];
  const listOnly = new Map<ArticleSection, boolean>();
  let current = sections[0];
  let nearestHeading = "";
  let listDepth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === "bullet_list_open" || t.type === "ordered_list_open") listDepth++;
    if (t.type === "bullet_list_close" || t.type === "ordered_list_close") listDepth--;
    if (t.type === "heading_open") {
      const text = inlineText(tokens[i + 1]?.content ?? "");
      const level = Number(t.tag.slice(1));
      if (level <= 2) {
        current = { heading: text, level, kind: "body", sentences: [], subheadings: [], codeBlocks: 0 };
        sections.push(current);
        listOnly.set(current, true);
      } else current.subheadings.push(text);
      nearestHeading = text;
      i += 2;
      continue;
    }
    if (t.type === "fence" || t.type === "code_block") {
      current.codeBlocks++;
      continue;
    }
    if (t.type === "inline") {
      if (listDepth === 0) listOnly.set(current, false);
      // A citation mark leaves a sign before the end of the sentence it follows, so each sentence knows whether it is cited.
      const marked = inlineText(t.content.replace(CITATION_MARKS, `${CITED}$1$2`));
      // A sign the splitter leaves on its own (after a sentence ending in an escaped character) marks the sentence
      // before; so does the stop it leaves alone after a quotation ending on an ellipsis ('… size 4 ...".'), which
      // ends that sentence.
      let n = 0;
      for (const s of sentencesOf(marked, lang)) {
        const text = s.replaceAll(CITED, "").trim();
        const before = current.sentences[current.sentences.length - 1];
        if (!/[\p{L}\p{N}]/u.test(text)) {
          if (before && n > 0) {
            before.text += text;
            if (s.includes(CITED)) before.cited = true;
          }
          continue;
        }
        current.sentences.push({ text, heading: nearestHeading, first: n++ === 0, cited: s.includes(CITED) });
      }
    }
  }
  const questions = new Set(faqQuestions.map((q) => normalizeText(q)));
  for (const s of sections) {
    if (s.kind === "intro") continue;
    if (FAQ_HEADINGS.test(s.heading) || s.subheadings.some((h) => questions.has(normalizeText(h)))) s.kind = "faq";
    else if (SOURCE_HEADINGS.test(s.heading) || (listOnly.get(s) && s.sentences.length > 0 && s.subheadings.length === 0 && sections.indexOf(s) === sections.length - 1)) s.kind = "sources";
  }
  return sections;
}

/** Every web address in a markdown text: link targets, autolinks and bare addresses. */
export function urlsInText(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\]\(\s*<?(https?:\/\/[^)\s>]+)/gi)) found.add(m[1]);
  for (const m of text.matchAll(/<(https?:\/\/[^>\s]+)>/gi)) found.add(m[1]);
  for (const m of text.matchAll(/https?:\/\/[^\s)\]>"'`«»“”‘’]+/gi)) {
    found.add(m[0].replace(/[.,;:!?]+$/, ""));
  }
  return [...found];
}
