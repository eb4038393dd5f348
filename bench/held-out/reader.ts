import labels from "./reader-labels.json";
import { normalizeText, parseArticleMarkdown } from "../article-quality/markdown";

interface Label {
  text: string;
  on_topic: boolean;
  standalone: boolean;
}

/** A reader's judgement of one article's introduction and body, from `reader-labels.json` (report only, never fit on). */
export interface ReaderJudgement {
  sentences: number;
  labelled: number;
  on_topic: number;
  standalone: number;
}

const byRequest = new Map(Object.entries(labels.articles as Record<string, Label[]>).map(([request, list]) => [request, new Map(list.map((l) => [normalizeText(l.text), l]))]));

/** The introduction's and body's sentences as a reader reads them (`parseArticleMarkdown`), each looked up in the labels. */
export function judgeArticle(request: string, markdown: string, lang: string, faqQuestions: string[]): ReaderJudgement {
  const known = byRequest.get(request) ?? new Map<string, Label>();
  const sentences = parseArticleMarkdown(markdown, lang, faqQuestions)
    .filter((s) => s.kind === "intro" || s.kind === "body")
    .flatMap((s) => s.sentences.map((x) => x.text));
  const found = sentences.map((t) => known.get(normalizeText(t))).filter((l): l is Label => Boolean(l));
  return { sentences: sentences.length, labelled: found.length, on_topic: found.filter((l) => l.on_topic).length, standalone: found.filter((l) => l.standalone).length };
}
