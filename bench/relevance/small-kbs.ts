import { relevanceModel, subjectFromPool, type WeightFit } from "../../services/pipeline/article/relevance";
import { unitsOfPool } from "../../services/pipeline/article/evidence/units";
import { corpusOf, pastedText } from "./corpus";
import { predict, type Coefficients } from "./fit";
import { FACT_LABELS, type FactLabel } from "./fact-labels";
import { SMALL_KNOWLEDGE_BASES } from "./knowledge-bases";

/**
 * Labelled (request, strip) pairs on the small knowledge bases (`fact-labels.ts`), judged the way the pipeline
 * judges a small profile: the whole knowledge base is the pool, and the request is weighed over its sentences
 * (`subjectFromPool`). A strip is relevant when a fact it quotes is labelled so.
 */

export interface ScoredStrip {
  kb: FactLabel["kb"];
  topic: string;
  text: string;
  relevant: boolean;
  p: number;
}

export function smallKbStrips(kb: FactLabel["kb"], fit: WeightFit, c: Coefficients): ScoredStrip[] {
  const { texts, brand } = SMALL_KNOWLEDGE_BASES[kb];
  const facts = texts.flatMap((t) => t.content.split("\n").map((line) => line.trim()).filter(Boolean));
  const pool = corpusOf(texts.map((t) => pastedText(t.url, t.content, t.title)), "en").passages;
  const units = unitsOfPool(pool, "en");
  const out: ScoredStrip[] = [];
  for (const label of FACT_LABELS.filter((l) => l.kb === kb)) {
    const brief = { topic: label.topic, keyword: label.topic, language: "en" };
    const model = relevanceModel(pool, { ...brief, brand, subject: subjectFromPool(pool, { ...brief, brand }, fit) });
    const onTopic = (sentence: string) => {
      const n = facts.findIndex((f) => f.includes(sentence)) + 1;
      return label.relevant === "all" || label.relevant.includes(n);
    };
    for (const u of units) {
      if (!model.coverage.inLanguage(u)) continue;
      out.push({ kb, topic: label.topic, text: u.text, relevant: u.sentences.some(onTopic), p: predict(c, model.features(u)) });
    }
  }
  return out;
}
