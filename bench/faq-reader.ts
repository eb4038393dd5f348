import labels from "./faq-labels.json";
import { normalizeText } from "./article-quality/markdown";

/**
 * A reader's verdict on FAQ pairs (`faq-labels.json`), for the held-out probe and the article-quality benches:
 * is the question one a reader of the article would ask (a whole, grammatical question in the article's
 * language), and does the answer answer it, read alone? Labelled by helpers that never saw the pipeline's code or
 * its FAQ rules; report only (one shape the pipeline no longer asks was read from them: `faq-labels.json` says which).
 * A pair no reader has read is counted as unlabelled.
 */
interface FaqLabel {
  lang: string;
  question: string;
  answer: string;
  asks: boolean;
  answers: boolean;
  why?: string;
}

export interface FaqJudgement {
  pairs: number;
  labelled: number;
  /** Pairs a reader accepted: a question worth asking, answered. */
  accepted: number;
  /** Pairs a reader turned down, with the reader's reason. */
  rejected: { question: string; why: string }[];
}

const key = (question: string, answer: string) => `${normalizeText(question)}\u0000${normalizeText(answer)}`;
const byPair = new Map((labels.pairs as FaqLabel[]).map((l) => [key(l.question, l.answer), l]));

export function judgeFaq(faq: readonly { question: string; answer: string }[]): FaqJudgement {
  const found = faq.map((f) => ({ f, label: byPair.get(key(f.question, f.answer)) }));
  const labelled = found.filter((x) => x.label);
  const accepted = labelled.filter((x) => x.label!.asks && x.label!.answers);
  return {
    pairs: faq.length,
    labelled: labelled.length,
    accepted: accepted.length,
    rejected: labelled.filter((x) => !(x.label!.asks && x.label!.answers)).map((x) => ({ question: x.f.question, why: x.label!.why ?? "" })),
  };
}

/** Judgements pooled: "accepted of labelled (pairs)". */
export function pooledFaq(judged: readonly FaqJudgement[]): { pairs: number; labelled: number; accepted: number; share: number | null } {
  const sum = (k: "pairs" | "labelled" | "accepted") => judged.reduce((n, j) => n + j[k], 0);
  const labelled = sum("labelled");
  return { pairs: sum("pairs"), labelled, accepted: sum("accepted"), share: labelled ? Math.round((sum("accepted") / labelled) * 1000) / 1000 : null };
}
