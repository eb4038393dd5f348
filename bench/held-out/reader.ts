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
  /**
   * Labelled sentences that read in their place: standing alone, or right after the sentence they follow in their
   * source (`SourceText.follows`), whose "It …" or "This option …" the reader then has. Readers label each sentence
   * without the one before it, which is strict: an article keeps a sentence with what it leans on.
   */
  in_place: number;
}

/** The text of the documents a profile was made of, read as a browser's text (no pipeline code): what follows what. */
export interface SourceText {
  /** Whether `sentence` comes right after `before` somewhere in the documents (a connective the writer put before it aside). */
  follows(before: string, sentence: string): boolean;
}

/** Text as compared: as labels are looked up (`normalizeText`), with every double quote alike and footnote marks out. */
const flat = (text: string) => normalizeText(text.replace(/[\u201c\u201d\u201e«»]/g, '"').replace(/\[\d{1,3}\]/g, " "));

/** The source text of a profile's documents (pages' text, pasted notes), each a string. */
export function sourceText(documents: readonly string[]): SourceText {
  const texts = documents.map(flat);
  // The writer opens some paragraphs with a connective ("In addition, ", « De plus, », "Zudem gilt: "): the source
  // has the sentence from its next word, whose capital the writer lowered.
  const cores = (sentence: string) => {
    const s = flat(sentence);
    const cut = /^[^,:]{2,30}[,:] (.+)$/.exec(s);
    return cut ? [s, cut[1]] : [s];
  };
  return {
    follows(before, sentence) {
      const tail = flat(before).slice(-40);
      if (tail.length < 10) return false;
      for (const core of cores(sentence)) {
        const head = core.slice(0, 60);
        for (const text of texts) {
          for (let at = text.indexOf(head); at >= 0; at = text.indexOf(head, at + 1)) {
            if (text.slice(Math.max(0, at - tail.length - 12), at).includes(tail)) return true;
          }
        }
      }
      return false;
    },
  };
}

const byRequest = new Map(Object.entries(labels.articles as Record<string, Label[]>).map(([request, list]) => [request, new Map(list.map((l) => [normalizeText(l.text), l]))]));

/** The introduction's and body's sentences as a reader reads them (`parseArticleMarkdown`), each looked up in the labels. */
export function judgeArticle(request: string, markdown: string, lang: string, faqQuestions: string[], source?: SourceText): ReaderJudgement {
  const known = byRequest.get(request) ?? new Map<string, Label>();
  const sentences = parseArticleMarkdown(markdown, lang, faqQuestions)
    .filter((s) => s.kind === "intro" || s.kind === "body")
    .flatMap((s) => s.sentences);
  const found = sentences.flatMap((s, i) => {
    const label = known.get(normalizeText(s.text));
    if (!label) return [];
    // In its place when it stands alone, or its paragraph's sentence before it is its source's.
    const before = !s.first ? sentences[i - 1] : undefined;
    return [{ label, inPlace: label.standalone || Boolean(before && source?.follows(before.text, s.text)) }];
  });
  return {
    sentences: sentences.length,
    labelled: found.length,
    on_topic: found.filter((f) => f.label.on_topic).length,
    standalone: found.filter((f) => f.label.standalone).length,
    in_place: found.filter((f) => f.inPlace).length,
  };
}
