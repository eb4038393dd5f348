import { wordsOf } from "../../../../shared/text/segment";
import { isStopword } from "../../../../shared/text/stopwords";

/** How a language writes a plural object pronoun, and its words in -s that name nothing a pronoun could stand for. */
export interface PluralPronoun {
  pronoun: RegExp;
  /** Adverbs and prepositions in -s the stopword list does not hold ("antes", « toujours »). */
  notPlurals: ReadonlySet<string>;
}

/**
 * A plural object pronoun with nothing plural before it in its sentence: « Vous devriez consulter le BTS avant de
 * les installer. », "Compruebe BTS antes de usarlos." What « les » and "-los" stand for is in the sentence
 * before, which the quote may leave out. A content word of four letters or more ending in -s or -x before the
 * pronoun may be what it stands for (« Pour d'autres fichiers …, vous pouvez utiliser qemu-nbd(8) pour les
 * exporter »), and the sentence then stands alone. The language's pronoun and words are its profile's.
 */
export function pluralPronounWithoutAntecedent(sentence: string, lang: string, { pronoun, notPlurals }: PluralPronoun): boolean {
  const m = pronoun.exec(sentence);
  if (!m) return false;
  const before = wordsOf(sentence.slice(0, m.index), lang).map((w) => w.toLowerCase());
  return !before.some((w) => w.length >= 4 && /[sx]$/u.test(w) && !isStopword(w, lang) && !notPlurals.has(w));
}
