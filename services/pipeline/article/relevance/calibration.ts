/**
 * The relevance model's fitted numbers, in one table. They are FIT, not chosen: `npm run bench relevance`
 * builds labelled (request, sentence) pairs from the structure of Debian's debian-reference manuals (en, fr,
 * de, es: a section's heading is a request, its sentences are relevant, sentences of unrelated chapters are
 * not) plus hand-labelled natural requests on knowledge bases of different size, fits the logistic model below
 * on the calibration half (odd chapters, half the natural requests, the coffee facts' labels for `poolUbiquity`)
 * and reports precision, recall and refusal rates on the held-out half. The bench prints this table; paste it here when the model's features change
 * (docs/relevance.md has the last fit's numbers).
 *
 * P(relevant) = σ(bias + own·w_own + context·w_context + neighbour·w_neighbour + elsewhere·w_elsewhere), the first
 * three the share of the request subject stated by the sentence's own words, its passage's headings or page title,
 * and the strips just before and after it, the fourth 1 when the passage's headings state none of it (`features.ts`).
 */
export const CALIBRATION = {
  /** Share of a profile's chunks at and above which a term is ubiquitous (what the profile is about). */
  ubiquity: 0.1,
  /** What a ubiquitous term keeps of its idf. */
  ubiquitousDamping: 0.15,
  /** The same share of a small pool's sentences (a profile too small to count over chunks, `subjectFromPool`), fit on the coffee facts' labels. */
  poolUbiquity: 0.3,
  /**
   * In a subject all of whose terms are ubiquitous (a focused guide's "archivo", "debian", "control"), the share of
   * its heaviest term's weight under which a term is background: alone it states none of the subject. Fit on the
   * calibration half of a reader's labels on a focused book (the structure's requests seldom have such subjects).
   */
  backgroundShare: 0.2,
  /**
   * Mean occurrences per chunk under which a term of the request, counted over the profile, is generic: a word of
   * its phrasing, weighed as a ubiquitous one (`WeightedTerm.generic`). Fit on the natural calibration requests'
   * verdicts, then the readers' calibration requests of the focused book (0: no term is generic).
   */
  burstiness: 1.1,
  /**
   * The logistic model's weights. Bias, own, context and neighbour are fit on the structure's calibration chapters;
   * `elsewhere` (a sentence under headings that state none of the subject), which the structure cannot weigh, on
   * the readers' calibration requests of the focused book (best F1 at `relevant`), among the weights that give no
   * more wrong verdicts on the natural calibration requests (the gate fit again).
   */
  coefficients: { bias: -1.37, own: 3.71, context: 3.73, neighbour: 2.72, elsewhere: -1 },
  /** P at and above which a sentence is relevant (the calibration half's best F1 with precision ≥ 0.85). */
  relevant: 0.8,
  /** P at and above which a sentence is ambiguous (recall 0.95 on the calibration half): ranked, never quoted as on topic. */
  ambiguous: 0.2,
  /** A German compound of the request is split into two words the sources use when it is counted at most this share of their geometric mean count (`splitCompounds`), fit on the calibration half's German requests. */
  compoundSplit: 0.2,
  /** Share of the subject's weight the in-language pool must state for the topic to be covered at all. */
  poolFloor: 0.65,
  /**
   * Relevant sentences in the article's language under which a job is refused before writing (the evidence
   * gate, `writers/draft.ts`), fit with `poolFloor` on the calibration half's natural requests: the fewest wrong
   * verdicts, then the fewest uncovered requests written, then the largest minimum.
   */
  minTopicSentences: 4,
} as const;
