import type { Citation } from "../../../../shared/schemas/articles";
import { supportingPassage } from "../editing/citation-check";
import { languagePack } from "../language/phrases";
import type { ArticleBody, ArticleSentence, Evidence, FaqEntry } from "../types";

const isWebAddress = (url: string) => /^https?:\/\//i.test(url);

/** An address safe inside markdown's link parentheses. */
function linkTarget(url: string): string {
  return url.replace(/[()\s<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** Markdown's special characters in text that is not markup. */
function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, "\\$1");
}

export interface RenderedArticle {
  markdown: string;
  citations: Citation[];
  /** Sources in the order of their numbers. */
  sources: { number: number; url: string; title: string }[];
}

/**
 * The article as markdown: the introduction (no heading), `##` sections, the FAQ (`###` per question), and a
 * numbered source list. A cited sentence ends with its source numbers, linked where the source has a web
 * address ("[[2]](https://…)"); knowledge-base texts without one are listed by title. Sources are numbered
 * by first citation; `citations` pairs each cited sentence (the claim) with each
 * source it cites.
 */
export function renderArticle(body: ArticleBody, faq: readonly FaqEntry[], evidence: readonly Evidence[], lang: string): RenderedArticle {
  const pack = languagePack(lang);
  const byId = new Map(evidence.map((e) => [e.id, e]));
  const numbers = new Map<string, number>();
  const sources: RenderedArticle["sources"] = [];
  const citations: Citation[] = [];
  const seenCitations = new Set<string>();

  const cite = (claim: string, ids: readonly string[]): string => {
    const marks: string[] = [];
    for (const id of ids) {
      const e = byId.get(id);
      if (!e) continue;
      let n = numbers.get(e.url);
      if (n === undefined) {
        n = sources.length + 1;
        numbers.set(e.url, n);
        sources.push({ number: n, url: e.url, title: e.title });
      }
      const mark = isWebAddress(e.url) ? `[[${n}]](${linkTarget(e.url)})` : `\\[${n}\\]`;
      if (!marks.includes(mark)) marks.push(mark);
      const key = `${claim}\u0000${e.url}`;
      if (!seenCitations.has(key)) {
        seenCitations.add(key);
        citations.push({ claim, url: e.url, title: e.title, quote: supportingPassage(claim, e.quote, lang) });
      }
    }
    return marks.length ? ` ${marks.join("")}` : "";
  };
  const paragraphText = (sentences: readonly ArticleSentence[]) =>
    sentences.map((s) => escapeMarkdown(s.text) + cite(s.text, s.cites)).join(" ");

  const blocks: string[] = [];
  for (const section of body.sections) {
    if (section.heading) blocks.push(`## ${escapeMarkdown(section.heading)}`);
    for (const paragraph of section.paragraphs) blocks.push(paragraphText(paragraph.sentences));
  }
  if (faq.length) {
    blocks.push(`## ${pack.faqHeading}`);
    for (const item of faq) {
      blocks.push(`### ${escapeMarkdown(item.question)}`);
      blocks.push(escapeMarkdown(item.answer) + cite(item.answer, item.cites));
    }
  }
  if (sources.length) {
    blocks.push(`## ${pack.sourcesHeading}`);
    blocks.push(
      sources
        .map((s) => `${s.number}. ${isWebAddress(s.url) ? `[${escapeMarkdown(s.title)}](${linkTarget(s.url)})` : `${escapeMarkdown(s.title)} (${pack.knowledgeBaseLabel})`}`)
        .join("\n"),
    );
  }
  return { markdown: `${blocks.join("\n\n")}\n`, citations, sources };
}
