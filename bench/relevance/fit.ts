import { relevanceProbability, type RelevanceCoefficients, type RelevanceFeatures } from "../../services/pipeline/article/relevance";

/**
 * Logistic regression by batch gradient descent with a little L2, on three features and a bias. Written out
 * (twenty lines) rather than taken from a library: the npm packages for it (ml-logistic-regression and kin)
 * pull a matrix library for what is four numbers here, and the fit only runs in this bench; the pipeline only
 * evaluates the fitted sigmoid (`relevance/features.ts`). The fourth weight, `elsewhere`, is held at what it is
 * given: the structure cannot weigh it (`RelevanceFeatures.elsewhere`); readers' labels do (`index.ts`).
 */
export type Coefficients = RelevanceCoefficients;

const KEYS = ["own", "context", "neighbour"] as const;

export function predict(c: Coefficients, f: RelevanceFeatures): number {
  return relevanceProbability(f, c);
}

export function fitLogistic(data: readonly { features: RelevanceFeatures; relevant: boolean }[], iterations = 3000, rate = 1, l2 = 1e-3, elsewhere = 0): Coefficients {
  const c: Coefficients = { bias: 0, own: 0, context: 0, neighbour: 0, elsewhere };
  // Both classes weigh the same: the pairs hold about twice as many irrelevant sentences as relevant ones.
  const positives = data.filter((d) => d.relevant).length || 1;
  const negatives = data.length - positives || 1;
  for (let i = 0; i < iterations; i++) {
    const grad = { bias: 0, own: 0, context: 0, neighbour: 0 };
    let total = 0;
    for (const d of data) {
      const w = d.relevant ? 0.5 / positives : 0.5 / negatives;
      const err = (predict(c, d.features) - (d.relevant ? 1 : 0)) * w;
      grad.bias += err;
      for (const k of KEYS) grad[k] += err * d.features[k];
      total += w;
    }
    c.bias -= (rate * grad.bias) / total;
    for (const k of KEYS) c[k] -= rate * (grad[k] / total + l2 * c[k]);
  }
  return c;
}

export interface Confusion {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  accuracy: number;
}

export function confusion(data: readonly { relevant: boolean; p: number }[], threshold: number): Confusion {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (const d of data) {
    const yes = d.p >= threshold;
    if (yes && d.relevant) tp++;
    else if (yes) fp++;
    else if (d.relevant) fn++;
    else tn++;
  }
  const precision = tp / Math.max(1, tp + fp);
  const recall = tp / Math.max(1, tp + fn);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { n: data.length, precision: round(precision), recall: round(recall), f1: round((2 * precision * recall) / Math.max(1e-9, precision + recall)), accuracy: round((tp + tn) / Math.max(1, data.length)) };
}

/** The threshold with the best F1 for precision at least `minPrecision` (or the best F1 when none reaches it). */
export function bestThreshold(data: readonly { relevant: boolean; p: number }[], minPrecision = 0): number {
  let best = { t: 0.5, f1: -1 };
  for (let t = 0.05; t <= 0.951; t += 0.01) {
    const c = confusion(data, t);
    if (c.precision >= minPrecision && c.f1 > best.f1) best = { t: Math.round(t * 100) / 100, f1: c.f1 };
  }
  return best.f1 < 0 ? bestThreshold(data, 0) : best.t;
}

/** The highest threshold that keeps recall at `recall` (the ambiguous grade's floor). */
export function recallThreshold(data: readonly { relevant: boolean; p: number }[], recall: number): number {
  for (let t = 0.95; t >= 0.05; t -= 0.01) if (confusion(data, t).recall >= recall) return Math.round(t * 100) / 100;
  return 0.05;
}
