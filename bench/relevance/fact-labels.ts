/**
 * A reader's labels on the two small knowledge bases: for each request, the facts (numbered from 1 in the
 * order the knowledge base lists them, across its texts) that an article on it may quote as on topic. Each was
 * decided by reading the request and the fact alone, the angle included in what the reader asked ("What can
 * you put in a compost bin?" wants what goes in and what does not, not how long compost takes), but never
 * deciding coverage: a request whose subject is what the whole knowledge base is about ("Composting at home")
 * takes every fact.
 *
 * Both are HELD OUT from the fit (`npm run bench relevance` reports precision and recall on them): the
 * structure of the manuals fits the model, and these say how it does on the other kind of knowledge base, a
 * short list of facts pasted by a customer. A threshold fit on the coffee labels and reported on the
 * composting ones was tried (docs/relevance.md) and not kept.
 */
export interface FactLabel {
  kb: "coffee" | "composting";
  topic: string;
  /** The facts on topic (1-based); every other fact of the knowledge base is off topic. */
  relevant: number[] | "all";
}

export const FACT_LABELS: FactLabel[] = [
  { kb: "coffee", topic: "How to store coffee beans", relevant: [21, 22, 23, 24] },
  { kb: "coffee", topic: "French press brewing tips", relevant: [3, 13, 14, 15, 29] },
  { kb: "coffee", topic: "Choosing the right grind size", relevant: [2, 3, 4, 5, 6, 36] },
  { kb: "coffee", topic: "Why does my coffee taste bitter?", relevant: [4, 8, 15, 25, 26, 36] },
  { kb: "coffee", topic: "Brewing coffee at home", relevant: "all" },
  { kb: "coffee", topic: "Cleaning and descaling a coffee machine", relevant: [28, 29, 30, 31] },
  { kb: "coffee", topic: "Pour-over coffee for beginners", relevant: [6, 16, 17, 18] },
  { kb: "coffee", topic: "The right coffee to water ratio", relevant: [10, 11, 12] },
  { kb: "coffee", topic: "Espresso basics", relevant: [3, 19, 20] },
  { kb: "coffee", topic: "Cold brew coffee", relevant: [32, 33] },
  { kb: "coffee", topic: "Arabica vs robusta beans", relevant: [26, 27] },
  { kb: "coffee", topic: "Water temperature for brewing coffee", relevant: [7, 8] },
  { kb: "coffee", topic: "Making coffee at home for beginners", relevant: "all" },

  { kb: "composting", topic: "How to start composting at home", relevant: "all" },
  { kb: "composting", topic: "What can you put in a compost bin?", relevant: [1, 3, 4, 5, 6, 13, 14, 15, 18, 19, 20, 29] },
  { kb: "composting", topic: "Common composting mistakes to avoid", relevant: [7, 8, 11, 13, 14, 15, 19, 20] },
  { kb: "composting", topic: "Composting at home", relevant: "all" },
  { kb: "composting", topic: "Composting for beginners", relevant: "all" },
  { kb: "composting", topic: "Why does my compost heap smell?", relevant: [7, 10, 11, 12] },
  { kb: "composting", topic: "Green and brown material explained", relevant: [3, 4, 5, 6, 7, 8, 11] },
  { kb: "composting", topic: "Best practices for a healthy compost heap", relevant: [2, 3, 6, 7, 8, 9, 10, 11, 12, 16, 17, 18] },
  { kb: "composting", topic: "Hot vs cold composting", relevant: [22, 23] },
  { kb: "composting", topic: "How to use finished compost in the garden", relevant: [24, 25, 26, 27] },
  { kb: "composting", topic: "Tips for composting in a small flat", relevant: [28, 29] },
  { kb: "composting", topic: "What not to put in your compost", relevant: [13, 14, 15, 19, 20] },
  { kb: "composting", topic: "How to improve your home compost heap", relevant: [3, 6, 7, 8, 9, 10, 11, 12, 16, 17, 18, 22] },
];
