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
   * Phrases that are angle as a whole though a word of them alone is a subject: "for the first time" (the subject
   * of "Time tracking"; « fois », "Mal", «vez» are angle words alone). Global; matched before the words are.
   */
  anglePhrases?: RegExp;
  /**
   * Questions an evidence sentence answers by its own shape: a definition ("Le paquet est un …" → "Qu'est-ce
   * que le paquet ?"), a procedure ("To restore a backup, run …" → "How do you restore a backup?"). The
   * question is made of the sentence's own words, so its answer holds what it asks; `faq.ts` asks each unit
   * the relevance model judges on topic, and keeps only well-formed questions.
   */
  faqShapes: readonly FaqShape[];
  /**
   * Ordinal words from "second" on: a thing named by its place in a list or text ("the second argument", « le
   * deuxième argument », "das zweite Argument", "el segundo argumento") is nothing outside it, and an FAQ
   * question never asks about one (`isWellFormedQuestion`; numerals such as "2nd" are caught for every language).
   */
  placeWords: RegExp;
  /**
   * A question asking what a relational noun is ("What is the alternative?", « Qu'est-ce que la différence ? »,
   * "Was ist der Regex-Teil?", «¿Qué es la alternativa?»): a part, an alternative, a difference, a solution, a
   * reason names something only in relation to what its sentence came after, so read alone the question asks about
   * nothing (`isWellFormedQuestion`). The definition shapes made such questions from "The alternative is …"
   * sentences of the New Maintainers' Guide and the reference manual. So does any question ending on such a noun
   * unqualified ("How can you force the issue?", « Comment éviter le problème ? », "Wie löst man das Problem?",
   * «¿Cómo se evita el problema?»): Valgrind's manual, fifteenth stop.
   */
  relationalQuestion: RegExp;
  /**
   * A source's reading list or references as a heading ("More readings for the package management", « Autres
   * lectures … », "Weitere Lektüre …", "See also"): what such a section holds are pointers, no subject, so the
   * plan never makes an article section of it.
   */
  furtherReading: RegExp;
  /**
   * Angles whose material a sentence's own words or its place can show, in the order tried: `asks` is matched
   * against the request (topic and keyword), `serves` against an evidence strip, `placed` against its passage's
   * title and headings. A request for mistakes to avoid is served first by what says too much, never, not,
   * without or damage; one for getting started by a manual's introduction. The relevance model ranks such strips
   * higher (`relevance/model.ts`, `ANGLE_BONUS`), and never judges one more or less relevant for it.
   */
  angleMaterial: readonly {
    angle: string;
    asks: RegExp;
    /** What a strip's own words show of the angle's material (mistakes: "too much", "never"). */
    serves?: RegExp;
    /**
     * What a passage's page title or headings show of it: a beginner is served by a manual's introduction ("The
     * Valgrind Quick Start Guide", « Premiers pas », "Erste Schritte", «Primeros pasos»), whatever its sentences say.
     */
    placed?: RegExp;
    /** Words research asks the knowledge base for beside the subject's, to find the angle's material (`researchQueries`). */
    query?: string;
    /** Words that qualify the angle's noun ("common", « fréquentes », "häufige", «comunes»): they go where it goes. */
    qualifiers?: RegExp;
  }[];
  /**
   * Articles and determiners, lower case: a word after one is a noun, which is what a one-word section heading
   * must be (« des pneus » heads a section, "to twelve" does not: `writers/section-names.ts`). German tells
   * its nouns by their capital as well.
   */
  determiners: ReadonlySet<string>;
  /**
   * Demonstratives, lower case: a question holding one ("How do you deal with this avalanche?") points at
   * something said before it, which an FAQ entry read alone does not have.
   */
  demonstratives: ReadonlySet<string>;
  /** "For example" and its kin: a question carrying one holds its source's example ("zum Beispiel das Paket foo"). */
  exampleMarkers: RegExp;
  /**
   * The opening of a remark on what was just said ("Note that …", « Notez que … », "Beachten Sie, dass …", «Tenga
   * en cuenta que …»): true in its place, but a remark on an answer is never the answer, and no FAQ entry is
   * answered by one. Read in the held-out probe: "How do I display the files of an installed package?" was
   * answered "Note that the files created by the installation scripts aren't displayed.", the source's answer
   * being the command before it, in a code block.
   */
  asideOpener: RegExp;
  /** How its sentences are read as evidence: what leans on the sentence before, what is no sentence (`SentenceRules`). */
  sentences: SentenceRules;
  /** The words the pipeline itself adds to an article in this language (headings, labels, templates). */
  phrases: LanguagePack;
}

/** A description after a label's colon that opens in upper case is a sentence of its own ("Note: Back up first."). */
export const opensInUpperCase = (description: string): boolean => /^\p{Lu}/u.test(description);

export interface FaqShape {
  /** Matched against the unit's first sentence. */
  shape: RegExp;
  /** The question, from the match; undefined when the match does not make one. */
  ask(match: RegExpExecArray): string | undefined;
}

/**
 * How sentences of this language are read as evidence (`evidence/units.ts`): what makes a sentence lean on the
 * one before, speak in the first person, point elsewhere, or be no sentence at all. Each rule is tied to labelled
 * sentences in `test/unit/article-evidence-sentences.test.ts`.
 */
export interface SentenceRules {
  /** Words that open a sentence which only makes sense after the previous one. */
  dependentOpeners: ReadonlySet<string>;
  /**
   * The source's author speaking as "I" ("For small personal data backup, I use CD-R…", « j'utilise des CD-R »,
   * "verwende ich", "recomiendo"): a brand's article must not quote a manual's author's habits as its own voice.
   * Spanish drops the subject, so its common first-person verb forms count as well; English "I" only as the
   * pronoun (not the numeral of "Part I").
   */
  firstPerson: RegExp;
  /** A sentence's first word when it is an infinitive or a gerund (a heading or list item standing as a sentence); none for German, which puts the infinitive last. */
  infinitiveOpener?: RegExp;
  /** Words of an infinitive's or a gerund's shape that are none: "Entre", "Votre", "Cualquier", "Lugar", "Nothing". */
  notInfinitives: ReadonlySet<string>;
  /**
   * A heading or list item in a language that puts the infinitive last (German: "Regelmäßig Sicherungen
   * erstellen."), from its words and its text without asides; languages that open with it use `infinitiveOpener`.
   */
  infinitiveLastLine?: (words: readonly string[], main: string) => boolean;
  /**
   * After a short label and a colon, whether the description is a sentence of its own ("Note: Back up first."):
   * it opens in upper case in English, French and Spanish; German capitalises nouns, so there a verb tells.
   */
  descriptionIsSentence: (description: string) => boolean;
  /** A label that is itself an instruction ("Try to upgrade step wise: oldstable → stable → …"). */
  instructionLabel?: RegExp;
  /** Finite verbs (and subject pronouns) common enough that a line holding one is a sentence, not a label. */
  finite: RegExp;
  /**
   * A finite verb told by its place, where a language's verbs are too many to list: after an infinitive subject
   * a Spanish verb in -a or -e stands between a word that is no determiner and one that opens its object ("Regar
   * por la mañana temprano reduce la evaporación …"), where a noun stands after a determiner ("la planta").
   */
  finiteAt?: (words: readonly string[]) => boolean;
  /** Words that only make sense next to something the quote does not carry: "as follows", "see below", "Let's have a look". */
  boilerplate: RegExp;
  /**
   * Sending the reader to other documentation: a sentence that opens by telling them to read or consult (after a
   * leading clause at most: "For details, …", « Como guía de red moderna de Debian, lea … »), or that says where something "is described", and names documentation (a manual page,
   * a path under /usr/share/doc, or a word for documentation). Its content is elsewhere; in the customer's article it
   * says nothing. Readers labelled every such sentence of the sample off topic (bench/relevance/reader-labels.json:
   * « Vous devriez lire l'excellente documentation officielle. », "Für weitere Details lesen Sie ssh-agent(1) und
   * ssh-add(1).", "Consulte los documentos pam_ldap.conf(5) …").
   */
  sendsTo: RegExp;
  /**
   * A sentence that announces a list by its count ("There are three factors …", «Existen tres factores que
   * determinan …», "Es gibt drei …"): its items are what it says, and quoted alone it says nothing. Read in the
   * Spanish backup article, where one item of the three followed it.
   */
  announcesList: RegExp;
  /** Words for documentation, which a sentence that sends the reader elsewhere names (`sendsTo`). */
  documentation: RegExp;
  /**
   * Words that name what the sentence before said: "the latter problem", "the above rule", « ce dernier problème »,
   * "obige Regel", "este último problema". Readers labelled such a sentence off topic when it stood alone
   * (bench/relevance/reader-labels.json: "Debian does not suffer the latter problem." in three languages).
   * "Instead" without its "of" names it too: « Con systemd, la red puede configurarse en su lugar en
   * /etc/systemd/network/. » opened a Spanish article, instead of what it never said; a sentence that negates
   * carries its own contrast ("Tea bags made with plastic mesh do not break down and should go in the bin instead.").
   */
  antecedent: RegExp;
  /** Pronouns that point back wherever they stand ("Teams that plan them a week ahead…"). */
  anaphora: ReadonlySet<string>;
  /** Whether `anaphora` counts only as a sentence's first word: German "sie" is also the polite "you". */
  anaphoraOpensOnly?: true;
  /**
   * Where a word of `anaphora` points forward, not back: "such as", "such that", « tel que ». "Tools such as rsync
   * copy files." stands alone; "Such tools copy files." does not.
   */
  forwardPhrases?: RegExp;
  /**
   * What else makes a sentence of this language lean on the one before, beyond its words: French « les » +
   * infinitive (« Les utiliser sans comprendre … »), the Spanish copula without its subject ("Es similar a …").
   */
  leansBack?: (sentence: string) => boolean;
  /**
   * Connectives that tie a sentence to the one before ("Equally, …", "However, …", « De même, … », "Ebenso …",
   * "Asimismo, …"): said of what precedes, they mean nothing without it. Matched at the start, lower-cased.
   */
  connectiveOpeners: RegExp;
  /**
   * Openings that answer a question ("Yes.", "No, …", "The answer is a bit complicated.", « La réponse est … »,
   * "Die Antwort …", «Sí, …»): what they answer is the question before them, a heading of a FAQ the article does
   * not carry (read in the held-out probe's articles on the Debian FAQ, in English and French). Matched at the
   * start, lower-cased.
   */
  answerOpeners: RegExp;
  /**
   * After an opening subordinate clause, a main clause whose subject is a demonstrative points back as an
   * opening one does: « À moins que vous ne sachiez …, ce ne sont que d'énormes quantités de données inutiles. »
   */
  clausePointers: RegExp;
  /** "Do this" in the other languages: « si vous le faites », "antes de hacerlo", "wenn Sie dies tun". */
  doingIt?: RegExp;
  /**
   * "Now" in the sense of "after what the sentence before did": the result of a procedure's steps ("Now you are
   * in the shell.", « L’interpréteur de commandes de l’administrateur est maintenant accessible sans mot de
   * passe. »). Opening a sentence, it ties it to the one before; inside one, only when the one before is a step
   * (`imperative`): elsewhere "now" is as often news ("Month-end close now takes two days instead of ten").
   */
  afterSteps: RegExp;
  /**
   * A step: the sentence tells the reader to do something ("Editieren Sie "/etc/passwd" …", « Créez un
   * environnement isolé … », "Edit "/etc/passwd" and make …"). A "now" sentence after it is its result ("The root
   * shell of the system is now accessible without password."), which goes with it. None where the imperative has
   * no form to tell it by (Spanish: "Instale" is also a third person).
   */
  imperative?: (sentence: string) => boolean;
  /**
   * Pointers into the source document: "(see apt_preferences(5) and Section 2.7.3, “Tweaking candidate version”)",
   * "(Section 10.2.3, “Personal backup”)", "(consulte Capítulo 5, Configuración de red)", or a list of manual
   * pages "(ip(8), …)". They mean nothing in the customer's article, which has no sections of that numbering.
   */
  crossReference: RegExp;
  /**
   * A numbered section of the source named in running text ("Section 10.2.3", « chapitre 5.1 », "Abschnitt 9.9",
   * "Sección 10.3.5", a number with at least one dot): "Then, follow Section 2.6, “Recovery from a broken
   * system”." says what the source's reader should read next, nothing the customer's article can stand on.
   * A numbered table or figure likewise ("Las herramientas … en Tabla 10.14, “List of other version control
   * tools” …" was read in a Spanish backup article: the table is not in it).
   * (In parentheses, as an aside, it is cut out of the sentence instead: `crossReference`.)
   * A numbered line of a listing too ("La línea 1 es el nombre del paquete fuente.", « ligne 4 »): quotes never
   * carry the listing (a code block); the readers of a held-out probe met seven such sentences in its guide articles.
   */
  numberedSection: RegExp;
}
