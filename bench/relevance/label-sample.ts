import { CALIBRATION } from "../../services/pipeline/article/relevance";
import { LANGUAGES } from "../article-quality/sites";
import { corpusOf, debianReference } from "./corpus";
import { labelledPairs, random, structureRequests, type LabelledPair } from "./structure";

/**
 * The sentences a person labels by hand (`reader-labels.json`): sentences of a manual's section that the structure
 * calls relevant to the section's heading, as crawled, drawn at random (seeded) per language, half of them
 * stating none of the request's words themselves (admitted by their heading or neighbours: where structure labels
 * are least reliable), half stating some. Printed as JSON lines with the request and the sentence only, without
 * anything the model computes: the labeller reads what an article's reader would.
 *
 * `node dist/bench/relevance/label-sample.js [per-language] > sample.jsonl`
 */
export function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  const rand = random(seed);
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

export function labelSample(perLanguage: number): Pick<LabelledPair, "lang" | "request" | "chapter" | "text">[] {
  const out: Pick<LabelledPair, "lang" | "request" | "chapter" | "text">[] = [];
  for (const [i, lang] of LANGUAGES.entries()) {
    const corpus = corpusOf(debianReference(lang), lang);
    const pairs = labelledPairs(corpus, structureRequests(corpus), CALIBRATION).filter((p) => p.relevant && !p.headless && p.text.split(/\s+/).length >= 5);
    const unstated = pairs.filter((p) => p.features.own === 0);
    const stated = pairs.filter((p) => p.features.own > 0);
    for (const p of [...sample(unstated, perLanguage / 2, 11 + i), ...sample(stated, perLanguage / 2, 23 + i)]) out.push({ lang: p.lang, request: p.request, chapter: p.chapter, text: p.text });
  }
  return out;
}

if (require.main === module) {
  const rows = labelSample(Number(process.argv[2] ?? 60));
  process.stdout.write(rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
}
