import { dependsOnPrevious, isUsableSentence } from "../../services/pipeline/article/evidence/units";
import type { Coefficients } from "./fit";
import { predict } from "./fit";
import type { Corpus } from "./corpus";
import { labelledPairs, structureRequests, type Fit } from "./structure";
import labels from "./reader-labels.json";

/**
 * A reader's verdict on sentences the manuals' structure calls relevant (`reader-labels.json`: 240 sentences, 60
 * per language drawn by `label-sample.ts`, half of them stating none of the request's words, each labelled by
 * reading the request and the sentence alone, as an article's reader meets it; `why` says what is wrong with an
 * off-topic one). Nothing in the pipeline reads these labels: they measure how far "relevant by structure" and
 * the pipeline's own verdict are from a reader's.
 *
 * A sentence is kept by the pipeline when it is quoted on its own (its own unit: a usable sentence that leans on
 * no other) and the relevance model, in its section's context, puts it at or above the `relevant` threshold.
 * One that now travels with the sentence it leans on is counted apart (the label judged it alone).
 */
export interface ReaderLabel {
  lang: string;
  request: string;
  chapter: number;
  text: string;
  on_topic: boolean;
  why?: string;
  /** Set for a sentence met while reading an article rather than drawn by `label-sample.ts`: kept apart from the sample's figures. */
  from?: string;
}

const ALL_LABELS = labels as ReaderLabel[];
/** The random sample: what the agreement figures are computed on. */
export const READER_LABELS = ALL_LABELS.filter((l) => !l.from);
/** Sentences labelled while reading articles: whether the pipeline would still quote each is reported, nothing more. */
export const READ_IN_ARTICLES = ALL_LABELS.filter((l) => l.from);

export function readerAgreement(corpora: ReadonlyMap<string, Corpus>, fit: Fit, c: Coefficients, relevant: number) {
  const units: { lang: string; request: string; text: string; p: number }[] = [];
  for (const [lang, corpus] of corpora) {
    const wanted = new Set(READER_LABELS.filter((l) => l.lang === lang).map((l) => l.request));
    const requests = structureRequests(corpus).filter((r) => wanted.has(r.request));
    for (const pair of labelledPairs(corpus, requests, fit)) if (!pair.headless) units.push({ lang, request: pair.request, text: pair.text, p: predict(c, pair.features) });
  }
  // A labelled sentence is quoted alone (its own unit), with the sentence it leans on (inside a longer unit: the
  // reader then reads both, and the label, given to the sentence alone, no longer applies), or not at all.
  const rows = READER_LABELS.map((l) => {
    const own = units.find((u) => u.lang === l.lang && u.request === l.request && u.text === l.text);
    const within = units.find((u) => u.lang === l.lang && u.request === l.request && u.text !== l.text && u.text.includes(l.text));
    const joined = !own && Boolean(within) && within!.p >= relevant;
    const kept = Boolean(own) && isUsableSentence(l.text, l.lang) && !dependsOnPrevious(l.text, l.lang) && own!.p >= relevant;
    return { ...l, kept, joined };
  });
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const summary = (all: typeof rows) => {
    const list = all.filter((r) => !r.joined);
    const on = list.filter((r) => r.on_topic);
    const kept = list.filter((r) => r.kept);
    return {
      sentences: all.length,
      joined_to_what_they_lean_on: all.length - list.length,
      reader_on_topic: on.length,
      structure_agrees: round(on.length / Math.max(1, list.length)),
      kept: kept.length,
      precision: round(kept.filter((r) => r.on_topic).length / Math.max(1, kept.length)),
      recall: round(on.filter((r) => r.kept).length / Math.max(1, on.length)),
    };
  };
  const offKept: Record<string, number> = {};
  for (const r of rows.filter((x) => !x.on_topic && x.kept)) offKept[r.why ?? "?"] = (offKept[r.why ?? "?"] ?? 0) + 1;
  return {
    all: summary(rows),
    ...Object.fromEntries([...corpora.keys()].map((lang) => [lang, summary(rows.filter((r) => r.lang === lang))])),
    off_topic_kept_by_why: offKept,
    off_topic_kept: rows.filter((r) => !r.on_topic && r.kept).map((r) => `${r.lang} ${r.text}`),
    read_in_articles: READ_IN_ARTICLES.map((l) => ({ lang: l.lang, text: l.text, on_topic: l.on_topic, quotable: isUsableSentence(l.text, l.lang) && !dependsOnPrevious(l.text, l.lang) })),
    on_topic_dropped: rows.filter((r) => r.on_topic && !r.kept).map((r) => `${r.lang} ${r.text}`),
  };
}
