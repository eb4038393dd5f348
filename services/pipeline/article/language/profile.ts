/**
 * What the article pipeline knows of one language, in one typed place: adding a language is adding one
 * file of this shape and registering it in `index.ts` (the compiler checks the record is complete).
 */
export const SUPPORTED_LANGUAGES = ["en", "fr", "de", "es"] as const;
export type SupportedLanguage = (typeof SUPPORTED_LANGUAGES)[number];

export interface LanguageProfile {
  code: SupportedLanguage;
  /** The language's name in English, for messages. */
  name: string;
  /**
   * Words that say how a request wants its subject treated, not what the subject is: question words, the
   * framing of guides ("how to", "getting started", "beginners", "best practices", "mistakes to avoid",
   * "tips", "vs") and the light verbs a request is phrased with ("put", "make", "use", "choose"). They steer
   * the outline and the choice of material (`relevance/request.ts` keeps them as the request's angle) and
   * never decide whether a profile covers a request. Stemmed with the language's stemmer before use.
   */
  angleWords: string;
}
