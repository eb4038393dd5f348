/**
 * What the article pipeline knows of one language, in one typed place: adding a language is adding one
 * file of this shape and registering it in `index.ts` (the compiler checks the record is complete).
 */
import type { SupportedLanguage } from "../../../../shared/languages";
import type { LanguagePack } from "./phrases";

export { SUPPORTED_LANGUAGES, type SupportedLanguage } from "../../../../shared/languages";

export interface LanguageProfile {
  code: SupportedLanguage;
  /** The language's name in English, for messages. */
  name: string;
  /**
   * Words that say how a request wants its subject treated, not what the subject is: question words, the
   * framing of guides ("how to", "getting started", "beginners", "best practices", "mistakes to avoid",
   * "tips", "vs") and the light verbs a request is phrased with ("put", "make", "use", "choose"). They steer
   * the outline and the choice of material (`relevance/request.ts` keeps them as the request's angle), like the
   * outcome verbs and comparatives a goal is phrased with ("cut", "improve", "faster"), and
   * never decide whether a profile covers a request. Stemmed with the language's stemmer before use.
   */
  angleWords: string;
  /**
   * Questions an evidence sentence answers by its own shape: a definition ("Le paquet est un …" → "Qu'est-ce
   * que le paquet ?"), a procedure ("To restore a backup, run …" → "How do you restore a backup?"). The
   * question is made of the sentence's own words, so its answer holds what it asks; `faq.ts` asks each unit
   * the relevance model judges on topic, and keeps only well-formed questions.
   */
  faqShapes: readonly FaqShape[];
  /** The words the pipeline itself adds to an article in this language (headings, connectives, labels, templates). */
  phrases: LanguagePack;
}

export interface FaqShape {
  /** Matched against the unit's first sentence. */
  shape: RegExp;
  /** The question, from the match; undefined when the match does not make one. */
  ask(match: RegExpExecArray): string | undefined;
}
