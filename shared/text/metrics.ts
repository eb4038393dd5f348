import MarkdownIt from "markdown-it";
import { readingLevel } from "./flesch";
import { countWords } from "./segment";

const parser = new MarkdownIt({ html: false });

/** The readable text of markdown: every block's inline text, one block per line, without markup or link targets. */
export function markdownToPlainText(markdown: string): string {
  const lines: string[] = [];
  for (const token of parser.parse(markdown, {})) {
    if (token.type !== "inline" || !token.children) continue;
    const line = token.children
      .filter((c) => c.type === "text" || c.type === "code_inline")
      .map((c) => c.content)
      .join("");
    if (line.trim()) lines.push(line.trim());
  }
  return lines.join("\n");
}

/** Words read per minute by an average adult reader of non-fiction (Brysbaert 2019: ~238). */
export const WORDS_PER_MINUTE = 238;

export interface ArticleMetrics {
  word_count: number;
  read_minutes: number;
  /** Reading ease by the language's own formula where one is implemented (English Flesch, German Amstad). */
  flesch_score: number;
}

/** Word count, reading time and reading ease of an article's markdown. */
export function articleMetrics(markdown: string, language = "en"): ArticleMetrics {
  const text = markdownToPlainText(markdown);
  const words = countWords(text, language);
  return {
    word_count: words,
    read_minutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)),
    flesch_score: words ? Math.round(readingLevel(text, language).fleschReadingEase * 10) / 10 : 0,
  };
}
