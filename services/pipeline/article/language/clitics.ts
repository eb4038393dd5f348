import { wordsOf } from "../../../../shared/text/segment";
import { isStopword } from "../../../../shared/text/stopwords";

/**
 * A plural object pronoun with nothing plural before it in its sentence: « Vous devriez consulter le BTS avant de
 * les installer. », "Compruebe BTS antes de usarlos." What « les » and "-los" stand for is in the sentence
 * before, which the quote may leave out. A content word of four letters or more ending in -s or -x before the
 * pronoun may be what it stands for (« Pour d'autres fichiers …, vous pouvez utiliser qemu-nbd(8) pour les
 * exporter »), and the sentence then stands alone.
 */
export function pluralPronounWithoutAntecedent(sentence: string, lang: string, pronoun: RegExp): boolean {
  const m = pronoun.exec(sentence);
  if (!m) return false;
  const before = wordsOf(sentence.slice(0, m.index), lang).map((w) => w.toLowerCase());
  return !before.some((w) => w.length >= 4 && /[sx]$/u.test(w) && !isStopword(w, lang) && !NOT_PLURALS.has(w));
}

/** Adverbs and prepositions in -s that the stopword lists do not hold: no noun a pronoun could stand for. */
const NOT_PLURALS: ReadonlySet<string> = new Set(
  "antes después además menos través mientras entonces jamás apenas quizás detrás encima debajo depuis alors toujours jamais parfois ailleurs lors dessus dessous volontiers néanmoins désormais".split(" "),
);

/**
 * French « les » as an object pronoun: before an infinitive after a preposition (« de les installer »: the
 * article would be « des »; « pour les installer »: a plural noun takes its -s or -x), or after a subject pronoun
 * (« vous les trouverez »).
 */
export const FRENCH_PLURAL_CLITIC = /(?<![\p{L}])(?:(?:de|d['’]|à|pour|sans|afin de|avant de|après|puis)\s+les\s+\p{L}+(?:er|ir|re|oir)|(?:vous|nous|on|ils|elles|il|elle|je|tu)\s+les\s+\p{L}+)(?![\p{L}])/iu;

/** Spanish "-los" and "-las" on an infinitive or a gerund ("usarlos", "configurándolas"). */
export const SPANISH_PLURAL_ENCLITIC = /(?<![\p{L}])\p{L}{2,}(?:ar|er|ir|ár|ér|ír|ando|iendo)(?:los|las)(?![\p{L}])/iu;
