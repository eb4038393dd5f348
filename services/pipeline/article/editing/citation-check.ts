import { z } from "zod";
import type { MeteredModel } from "../model/metered-model";
import { sentencesOf } from "../../../../shared/text/segment";
import { containment, figuresOf, termSet } from "../evidence/similarity";
import type { Evidence } from "../types";

/**
 * Offline support rule: a claim is supported by its quotes when at least 70% of its content terms (stemmed,
 * stopwords out) occur in them and every figure it states (numbers, percentages, years) occurs in them.
 * The extractive writer's sentences are quotes (containment 1); a paraphrase that keeps the facts passes;
 * an invented figure or a claim about something else does not.
 */
export const SUPPORT_CONTAINMENT = 0.7;
/** At this containment (and with its figures) a claim is the quote itself: no model is asked about it. */
export const VERBATIM_CONTAINMENT = 0.9;
/** A cite whose quote holds less than this share of the claim's terms contributes nothing and is dropped. */
const CONTRIBUTING_CONTAINMENT = 0.3;
const MIN_CLAIM_TERMS = 2;
/**
 * A paraphrase the model calls supported must still share half of its content terms, and every figure, with the
 * quotes it cites: entailment is the model's judgement, support is checked against the source text.
 */
export const MODEL_CORROBORATION = 0.5;
const ENTAILMENT_BATCH = 8;

export interface OfflineSupport {
  supported: boolean;
  containment: number;
  missingFigures: string[];
}

export function offlineSupport(claim: string, quotes: readonly string[], lang: string): OfflineSupport {
  const claimTerms = termSet(claim, lang);
  const quoteTerms = new Set(quotes.flatMap((q) => [...termSet(q, lang)]));
  const share = containment(claimTerms, quoteTerms);
  const quoteFigures = figuresOf(quotes.join(" "));
  const missingFigures = [...figuresOf(claim)].filter((f) => !quoteFigures.has(f));
  return { supported: claimTerms.size >= MIN_CLAIM_TERMS && share >= SUPPORT_CONTAINMENT && missingFigures.length === 0, containment: share, missingFigures };
}

export interface CitedClaim {
  claim: string;
  cites: string[];
}

export interface SupportVerdict {
  supported: boolean;
  /** The cites kept: those whose quotes carry part of the claim. */
  cites: string[];
  by: "offline" | "model";
}

const EntailmentAnswer = z.object({
  verdicts: z.array(z.object({ id: z.number().int(), supported: z.boolean() })),
});

/**
 * Checks each claim against the quotes of the evidence it cites. Offline, by `offlineSupport`. With a model,
 * claims that are not near-verbatim are sent in concurrent batches of eight pairs (each batch lists its passages
 * once, each pair names the ids it cites) for an entailment verdict in JSON; a pair the model leaves out, or a
 * batch whose answer does not parse, is judged offline.
 */
export async function checkCitationSupport(
  claims: readonly CitedClaim[],
  evidence: ReadonlyMap<string, Evidence>,
  lang: string,
  model?: MeteredModel,
): Promise<SupportVerdict[]> {
  const quotesOf = (ids: readonly string[]) => ids.flatMap((id) => (evidence.has(id) ? [evidence.get(id)!.quote] : []));
  const verdicts: (SupportVerdict | undefined)[] = claims.map((c) => {
    const cites = c.cites.filter((id) => evidence.has(id));
    if (!cites.length) return { supported: false, cites: [], by: "offline" };
    const offline = offlineSupport(c.claim, quotesOf(cites), lang);
    const contributing = cites.filter((id) => containment(termSet(c.claim, lang), termSet(evidence.get(id)!.quote, lang)) >= CONTRIBUTING_CONTAINMENT);
    const kept = contributing.length ? contributing : cites;
    if (!model || (offline.supported && offline.containment >= VERBATIM_CONTAINMENT)) return { supported: offline.supported, cites: kept, by: "offline" };
    return undefined;
  });

  // Claims citing the same passages go in the same batch, so a passage is sent once per call that needs it;
  // the batches are asked at once (one round trip however long the article).
  const pending = claims
    .map((c, i) => ({ c, i, cites: c.cites.filter((id) => evidence.has(id)) }))
    .filter(({ i }) => verdicts[i] === undefined)
    .sort((x, y) => x.cites.join().localeCompare(y.cites.join()) || x.i - y.i);
  const batches: (typeof pending)[] = [];
  for (let start = 0; start < pending.length; start += ENTAILMENT_BATCH) batches.push(pending.slice(start, start + ENTAILMENT_BATCH));
  await Promise.all(
    batches.map(async (batch) => {
      const passages = [...new Set(batch.flatMap((p) => p.cites))];
      const prompt = [
        "PASSAGES:",
        ...passages.map((id) => `[${id}] ${evidence.get(id)!.quote.replace(/\s+/g, " ").trim()}`),
        "",
        ...batch.map(({ c, cites }, n) => `Pair ${n + 1}\nCLAIM: ${c.claim}\nCITES: ${cites.join(" ")}`),
      ].join("\n");
      const answer = await model!.json(
        [
          {
            role: "system",
            content:
              "You check citations. For each pair, decide whether the passages the claim cites state or directly imply everything the claim says " +
              "(figures, names and qualifiers included). Anything those passages do not say makes the claim unsupported. " +
              'Answer with JSON only: {"verdicts": [{"id": <pair number>, "supported": true|false}]}.',
          },
          { role: "user", content: prompt },
        ],
        EntailmentAnswer,
        { maxTokens: 40 + batch.length * 20 },
      );
      const byPair = new Map((answer?.verdicts ?? []).map((v) => [v.id, v.supported]));
      batch.forEach(({ c, i, cites }, n) => {
        const said = byPair.get(n + 1);
        const offline = offlineSupport(c.claim, quotesOf(cites), lang);
        // The model's "supported" is never enough on its own: the quotes must hold the claim's figures and most of its terms.
        const corroborated = offline.missingFigures.length === 0 && offline.containment >= MODEL_CORROBORATION;
        verdicts[i] = said === undefined ? { supported: offline.supported, cites, by: "offline" } : { supported: said && corroborated, cites, by: "model" };
      });
    }),
  );
  return verdicts.map((v) => v!);
}

/**
 * The exact passage of a quote a claim rests on: the run of one to three consecutive sentences of the quote
 * that holds the most of the claim's content terms (the shorter run on a tie). It is shown with each citation
 * so a reader can check the claim without opening the source.
 */
export function supportingPassage(claim: string, quote: string, lang: string): string {
  const sentences = sentencesOf(quote, lang);
  if (sentences.length <= 1) return quote.trim();
  const claimTerms = termSet(claim, lang);
  let best = { text: sentences[0], share: -1 };
  for (let size = 1; size <= 3; size++) {
    for (let start = 0; start + size <= sentences.length; start++) {
      const text = sentences.slice(start, start + size).join(" ");
      const share = containment(claimTerms, termSet(text, lang));
      if (share > best.share + 1e-9) best = { text, share };
    }
  }
  return best.text;
}
