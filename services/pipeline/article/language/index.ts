import { supportedLanguageOf } from "../../../../shared/languages";
import { GERMAN } from "./de";
import { ENGLISH } from "./en";
import { SPANISH } from "./es";
import { FRENCH } from "./fr";
import { SUPPORTED_LANGUAGES, type LanguageProfile, type SupportedLanguage } from "./profile";

export { SUPPORTED_LANGUAGES, type LanguageProfile, type SupportedLanguage } from "./profile";

/** Every supported language's profile: a missing one is a compile error. */
export const LANGUAGE_PROFILES: Record<SupportedLanguage, LanguageProfile> = { en: ENGLISH, fr: FRENCH, de: GERMAN, es: SPANISH };

/** The profile of a language tag's primary subtag ("en-GB" → English); throws for a language the pipeline does not write. */
export function languageProfile(lang: string): LanguageProfile {
  const supported = supportedLanguageOf(lang);
  if (!supported) throw new Error(`The article pipeline does not write ${lang}: supported languages are ${SUPPORTED_LANGUAGES.join(", ")}.`);
  return LANGUAGE_PROFILES[supported];
}
