import { Bm25Index } from "../../../../shared/text/bm25";
import { splitSentences, countWords, wordsOf } from "../../../../shared/text/segment";
import { baseLanguage } from "../../../../shared/text/stopwords";
import { termSet } from "./similarity";
import type { Evidence } from "../types";
import { languageProfile, type SupportedLanguage } from "../language";

/** The supported language of a tag (the API refuses any other): every table below has one entry per language. */
const supported = (lang: string): SupportedLanguage => languageProfile(lang).code;

/**
 * A citable unit of evidence: one sentence, or a sentence with the ones after it that lean on it
 * ("It works offline…" needs the sentence naming "it"), so no unit is read without its antecedent.
 */
export interface EvidenceUnit {
  /** `<evidence id>#<first sentence index>`. */
  key: string;
  evidenceId: string;
  /** The heading of the passage in its source: ranking reads it with the text. */
  heading: string;
  /** Position of the first sentence in the quote, for keeping a source's order. */
  position: number;
  sentences: string[];
  text: string;
  words: number;
  terms: ReadonlySet<string>;
}

const MIN_WORDS = 6;
const MAX_WORDS = 60;
/** Words that open a sentence which only makes sense after the previous one. */
const DEPENDENT_OPENERS: Record<SupportedLanguage, ReadonlySet<string>> = {
  en: new Set(["it", "its", "this", "that", "these", "those", "they", "their", "them", "he", "she", "his", "her", "such", "both", "there", "then", "thus"]),
  de: new Set(["er", "sie", "es", "dies", "diese", "dieser", "dieses", "ihr", "ihre", "sein", "seine", "dabei", "damit", "dadurch"]),
  fr: new Set(["il", "elle", "ils", "elles", "ce", "cela", "ceci", "ça", "ces", "cette", "leur", "leurs", "son", "sa", "ses", "c'est", "c’est", "c'était", "c’était"]),
  // Spanish drops the subject: an opening object pronoun ("Nos permiten …") points back as well.
  es: new Set(["esto", "esta", "este", "estos", "estas", "ello", "su", "sus", "ellos", "ellas", "nos", "les",
    // A verb in the third person opening the sentence has its subject in the one before ("Proporciona la oportunidad…").
    "proporciona", "proporcionan", "permite", "permiten", "tiene", "tienen", "ofrece", "ofrecen", "incluye", "incluyen", "contiene", "contienen",
    "requiere", "requieren", "necesita", "necesitan", "funciona", "funcionan", "soporta", "soportan", "gestiona", "gestionan", "muestra", "muestran",
    "genera", "generan", "guarda", "guardan", "realiza", "realizan", "utiliza", "utilizan", "usa", "usan"]),
};
const TERMINAL = /[.!…]["”’»)]*$/;

/** A sentence that can stand as a claim: a complete statement (not a question, heading or fragment) of a sensible length, prose rather than code or boilerplate. */
export function isUsableSentence(sentence: string, lang: string): boolean {
  const words = countWords(sentence, lang);
  if (words < MIN_WORDS || words > MAX_WORDS) return false;
  if (!TERMINAL.test(sentence)) return false;
  // Table rows flattened by extraction ("Starter | $29 | 5") are data, not prose.
  if (sentence.includes(" | ")) return false;
  if (looksLikeCode(sentence) || isBoilerplate(sentence, lang) || isFragment(sentence)) return false;
  if (hasUnpairedMarks(sentence) || speaksInFirstPerson(sentence, lang) || isHeadingLike(sentence, lang) || isLabelledItem(sentence, lang)) return false;
  return /^[\p{Lu}\p{N}"“„«¿¡(]/u.test(sentence);
}

/**
 * Quotation marks or brackets that do not pair up: the sentence was cut out of a command, a
 * quotation or a parenthesis (« dpkg --set-selection <dpkg-selections.list". », or a unit that opens a
 * parenthesis whose ")" stayed in the source), so it is not what the source says.
 * « and », ( and ), [ and ] must match in number; curly double quotes (“…”, „…“) and straight ones must come in pairs.
 */
export function hasUnpairedMarks(sentence: string): boolean {
  const count = (re: RegExp) => (sentence.match(re) ?? []).length;
  return (
    count(/«/g) !== count(/»/g) ||
    count(/\(/g) !== count(/\)/g) ||
    count(/\[/g) !== count(/\]/g) ||
    count(/[“”„]/g) % 2 === 1 ||
    count(/"/g) % 2 === 1
  );
}

/**
 * The source's author speaking as "I" ("For small personal data backup, I use CD-R…", « j'utilise des CD-R »,
 * "verwende ich", "recomiendo"): a brand's article must not quote a manual's author's habits as its own voice.
 * Spanish drops the subject, so its common first-person verb forms count as well.
 */
const FIRST_PERSON: Partial<Record<SupportedLanguage, RegExp>> = {
  fr: /(^|[^\p{L}])(je|j['’]\p{L}+|moi|moi-même|mon|ma|mes)(?![\p{L}-])/iu,
  de: /(^|[^\p{L}])(ich|mein|meine|meiner|meinen|meinem|meines|mir|mich)(?![\p{L}-])/iu,
  // …and the first person singular of the future, which no other person shares ("Pasaré por encima …", "explicaré").
  es: /(^|[^\p{L}])(yo|mi|mis|me|conmigo|recomiendo|utilizo|prefiero|creo|pienso|sugiero|tengo|hago|necesito|instalo|reinstalo|\p{L}{2,}(?:aré|eré|iré))(?![\p{L}-])/iu,
};

export function speaksInFirstPerson(sentence: string, lang: string): boolean {
  const rule = FIRST_PERSON[supported(lang)];
  if (rule) return rule.test(sentence);
  // English "I" only as the pronoun: upper case, not a numeral in "Part I" or "I/O".
  const pronoun = /(^|[\s("“])(I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll)(?=[\s,;.])/u.test(sentence) && !/\b(Part|Chapter|Volume|Phase|Type|Class|Level) I\b/.test(sentence);
  return pronoun || /\b(my|myself|mine)\b/i.test(sentence);
}

/**
 * A heading or list item standing as a sentence: an infinitive instruction with no finite verb
 * (« Faire la sauvegarde de l'ensemble du système (…). », "Saber como respaldar y recuperar datos.",
 * "Regelmäßig Sicherungen erstellen.") or a gerund label ("Knowing what to backup and recover."). It states
 * nothing; in the source it titled what followed. Only short lines (≤ 20 words) are judged: a long sentence
 * opening with an infinitive carries a verb the lists below do not hold often enough to be worth the risk.
 */
const HEADING_LIKE_MAX_WORDS = 20;
const GERMAN_LABEL_MAX_WORDS = 10;
const INFINITIVE_OPENER: Partial<Record<SupportedLanguage, RegExp>> = {
  en: /^\p{Lu}\p{Ll}+ing$/u,
  fr: /^\p{Lu}\p{Ll}+(er|ir|re|oir)$/u,
  es: /^\p{Lu}\p{Ll}+(ar|er|ir)$/u,
};
/** Words of those shapes that are no verb: "Entre", "Votre", "Premier", "Cualquier", "Lugar", "Nothing", "During". */
const NOT_INFINITIVES = new Set(
  `entre outre contre notre votre autre premier dernier hier cher fier super laser cluster plaisir désir avenir loisir souvenir
cualquier lugar par mar hogar ayer mujer primer tercer similar particular popular regular militar familiar nuclear modular singular titular circular polar solar escolar celular auxiliar
nothing everything something anything during string thing spring king according regarding concerning following`.split(/\s+/),
);
/** Finite verbs (and subject pronouns) common enough that a line holding one is a sentence, not a label. */
const FINITE: Record<SupportedLanguage, RegExp> = {
  en: /\b(is|are|was|were|be|been|can|could|may|might|must|should|will|would|shall|has|have|had|does|do|did|helps?|makes?|requires?|gives?|lets?|allows?|means?|needs?|takes?|keeps?|provides?|involves?|saves?|protects?|remains?|becomes?)\b/i,
  fr: /\b(est|sont|était|étaient|sera|seront|serait|a|ont|avait|peut|peuvent|pourrait|doit|doivent|devrait|permet|permettent|faut|fait|font|va|vont|reste|restent|devient|semble|rend|rendent|évite|garantit|suffit|demande|nécessite|consiste|signifie|vous|nous|on)\b/i,
  es: /\b(es|son|era|eran|será|serán|sería|está|están|puede|pueden|podría|debe|deben|debería|permite|permiten|hay|tiene|tienen|hace|hacen|requiere|requieren|resulta|ayuda|sirve|supone|implica|consiste|significa|evita|garantiza|basta)\b/i,
  de: /(^|\s)(ist|sind|war|waren|wird|werden|wurde|wurden|kann|können|konnte|muss|müssen|soll|sollte|sollten|darf|dürfen|hat|haben|hatte|lässt|lassen|will|wollen|möchte|gibt|ich|du|er|sie|es|wir|ihr|man|Sie)(?=[\s,.;:]|$)/,
};

/**
 * A list item of the "label: description" kind, with no verb on either side of the colon: "Cron job as a user
 * process: files in "/var/spool/cron/crontabs" directory and restart cron(8).", "Idiotensicheres Vorgehen:
 * Sicherung durch einen einfachen Befehl.", "Paketmanagement-Werkzeuge: apt, apt-get / apt-cache und aptitude."
 * In its list it answered the list's lead ("what to back up"); quoted alone it states nothing. A description
 * that opens in upper case after an English, French or Spanish label is a sentence of its own ("Note: Back up
 * first.") and stays; German capitalises nouns, so there only a verb tells: one of the common ones, or a
 * lower-case word in -t, the third person singular.
 */
const LABEL_MAX_WORDS = 6;
export function isLabelledItem(sentence: string, lang: string): boolean {
  const m = /^([^:]{2,80}):\s+(.+)$/u.exec(sentence.trim());
  if (!m) return false;
  const base = baseLanguage(lang);
  const finite = FINITE[supported(base)];
  const [label, description] = [m[1], m[2]];
  if (wordsOf(label, lang).length > LABEL_MAX_WORDS || finite.test(label) || finite.test(description)) return false;
  // An English label with an infinitive is an instruction: "Try to upgrade step wise: oldstable → stable → …".
  if (base === "en" && /\bto \p{L}/u.test(label)) return false;
  if (base !== "de") return !/^\p{Lu}/u.test(description);
  // German: a verb in the third person singular (lower case, ending in -t: "nutzt", "gibt") makes it a sentence.
  return !wordsOf(description, lang).some((w) => /^\p{Ll}{3,}t$/u.test(w) && !GERMAN_NOT_VERBS.has(w));
}
/** Lower-case German words ending in -t that are no verb. */
const GERMAN_NOT_VERBS = new Set(["nicht", "jetzt", "bereits", "meist", "zuerst", "selbst", "erst", "seit", "oft", "weit", "nachts", "sonst", "zuletzt", "höchst", "mindestens", "samt", "statt", "bit", "apt", "wget", "git"]);

export function isHeadingLike(sentence: string, lang: string): boolean {
  const base = baseLanguage(lang);
  const words = wordsOf(sentence, lang);
  if (!words.length || words.length > HEADING_LIKE_MAX_WORDS) return false;
  const finite = FINITE[supported(base)];
  // What the parentheses hold is an aside: "Faire la sauvegarde (… ce qui est …)." is still a label; a sentence
  // wholly in parentheses is judged by what it holds.
  const trimmed = sentence.trim();
  const main = /^\(.*\)[.!]?$/.test(trimmed) ? trimmed.slice(1) : trimmed.replace(/\([^)]*\)/g, " ");
  if (base === "de") {
    // German puts the infinitive last, in lower case (nouns are capitalised): "Regelmäßig Sicherungen erstellen."
    // A clause after a comma ends with its verb too ("…, die der sudo-Gruppe angehören."): short lines without one only.
    const last = words[words.length - 1];
    return words.length <= GERMAN_LABEL_MAX_WORDS && !main.includes(",") && /^\p{Ll}+(en|ern|eln)$/u.test(last) && !finite.test(main);
  }
  const opener = INFINITIVE_OPENER[supported(base)];
  if (!opener || !opener.test(words[0]) || NOT_INFINITIVES.has(words[0].toLowerCase())) return false;
  return !finite.test(main);
}

/**
 * Not a statement: an exclamation (a call to action, "Merci de nous aider … !"), or a quoted title or path
 * with little around it ("« FAQ de Debian GNU/Linux, chapitre 6 ». ", "« /usr/share/doc/… » du paquet …").
 */
function isFragment(sentence: string): boolean {
  // An exclamation, or a list trailing off ("human, hardware, software, …").
  if (/(!|…|\.\.\.)["”’»)\s]*$/.test(sentence)) return true;
  const quoted = [...sentence.matchAll(/[«“"„]([^»”"]*)[»”"]/g)].reduce((n, m) => n + m[0].length, 0);
  return /^[«“"„]/.test(sentence) && quoted > sentence.length / 2;
}

/**
 * Command lines, log output and configuration that reached the prose (an inline run the extractor could not
 * tell apart): a shell prompt, a log timestamp, two `Key: value` pairs, an address, or a high share of words
 * that are options, paths, assignments or markup.
 */
export function looksLikeCode(sentence: string): boolean {
  if (/(^|\s)[$#>]\s+\S/.test(sentence) || /^\s*(sudo|apt(-get)?|dpkg|#)\s/.test(sentence)) return true;
  if (/\b\d{1,2}:\d{2}:\d{2}\b/.test(sentence) || /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} +\d{2}:/.test(sentence)) return true;
  // Two "Key: value" runs are a flattened definition list or configuration, not a sentence.
  if ((sentence.match(/[\p{L}\d)-]: \S/gu) ?? []).length >= 2) return true;
  if (/https?:\/\/|\bwww\.\S/.test(sentence)) return true;
  const tokens = sentence.split(/\s+/);
  const technical = tokens.filter((t) => /^--?\w|[/\\]\w.*[/\\]|[=<>{}`|~]|\w\(\)|^\w+\.\w{1,4}$|_\w/.test(t)).length;
  return technical >= 3 || technical / tokens.length > 0.2;
}

/** Words that only make sense next to something the quote does not carry: "as follows", "see below", "Let's have a look". */
const BOILERPLATE: Record<SupportedLanguage, RegExp> = {
  en: /^(list|table|figure) of\b|\bfollowing (entries|lines|commands?|examples?|tables?|lists?|code|steps|settings|files?)\b|\b(let's|let us|as follows|the following|see (below|above)|shown (below|above)|below is|here is|here are|click|this (chapter|section|page|document|manual|guide|tutorial)|in this (chapter|section|document|manual)|(see|in) (section|chapter) \d|chapter \d)|^see\b/i,
  fr: /\b(voici|ci-dessous|ci-dessus|suivant(e|es|s)?|comme suit|cliquez|ce (chapitre|document|manuel)|cette (section|page)|section \d|chapitre \d|voyons)|^voir\b/i,
  de: /\b(folgende[nrms]?|wie folgt|siehe|hier (ist|sind)|klicken|dieses (kapitel|dokument|handbuch)|dieser abschnitt|in diesem (kapitel|abschnitt)|abschnitt \d|kapitel \d)/i,
  es: /\b(a continuación|siguientes?|como sigue|véase|vea|haga clic|este (capítulo|documento|manual)|esta (sección|página)|sección \d|capítulo \d)|^(aquí (está|están|estan|esta|tiene|hay)|revisemos|veamos|permítanos|permitanos)(?![\p{L}])/iu,
};

export function isBoilerplate(sentence: string, lang: string): boolean {
  return BOILERPLATE[supported(lang)].test(sentence) || BOILERPLATE.en.test(sentence) || sendsElsewhere(sentence, lang);
}

/**
 * Sending the reader to other documentation: a sentence that opens by telling them to read or consult (after a
 * leading clause at most: "For details, …", « Como guía de red moderna de Debian, lea … »), or that says where something "is described", and names documentation (a manual page,
 * a path under /usr/share/doc, or a word for documentation). Its content is elsewhere; in the customer's article it
 * says nothing. Readers labelled every such sentence of the sample off topic (bench/relevance/reader-labels.json:
 * « Vous devriez lire l'excellente documentation officielle. », "Für weitere Details lesen Sie ssh-agent(1) und
 * ssh-add(1).", "Consulte los documentos pam_ldap.conf(5) …").
 */
const SENDS_TO: Record<SupportedLanguage, RegExp> = {
  en: /^([^,]{0,80},\s*)?(please\s+)?(read|see|consult|refer to)\b|\byou (should|can|may|must) (read|consult|refer to)\b|\b(is|are) (described|documented|explained) in\b/i,
  fr: /^([^,]{0,80},\s*)?(veuillez\s+)?(lisez|lire|consultez|voyez|reportez-vous)\b|\bvous (devriez|pouvez|devez) (lire|consulter)\b|\b(est|sont) (décrite?s?|documentée?s?|expliquée?s?) dans\b/i,
  de: /^(für (weitere|mehr|nähere) (details|informationen)[^,]*,?\s*)?(lesen|konsultieren) sie\b|\b(wird|werden|ist|sind) in\b.*\b(beschrieben|dokumentiert|erklärt)\b/i,
  es: /^([^,]{0,80},\s*)?(consulte|lea|vea|revise)\b|\b(debería|puede) (leer|consultar)\b|\b(es|está|son|están) (descrit[oa]s?|documentad[oa]s?|explicad[oa]s?) en\b|\bse (describe|documenta|explica) en\b/iu,
};
const DOCUMENTATION: Record<SupportedLanguage, RegExp> = {
  en: /\b(documentation|manual|guide|readme|howto|faq|standard)\b/i,
  fr: /\b(documentation|manuel|guide|readme|howto|faq|norme)\b/i,
  de: /\b(dokumentation|handbuch|anleitung|readme|howto|faq)\b/i,
  es: /(?<![\p{L}])(documentación|documentos?|manual|guía|readme|howto|faq|estándar|especificación)(?![\p{L}])/iu,
};

export function sendsElsewhere(sentence: string, lang: string): boolean {
  const l = supported(lang);
  return SENDS_TO[l].test(sentence) && (MAN_PAGE.test(sentence) || /\/usr\/share\/doc\b/.test(sentence) || DOCUMENTATION[l].test(sentence));
}

/**
 * Words that name what the sentence before said: "the latter problem", "the above rule", « ce dernier problème »,
 * "obige Regel", "este último problema". Readers labelled such a sentence off topic when it stood alone
 * (bench/relevance/reader-labels.json: "Debian does not suffer the latter problem." in three languages).
 */
const ANTECEDENT: Record<SupportedLanguage, RegExp> = {
  en: /\bthe (latter|former|above)\b/i,
  fr: /(?<![\p{L}])(ce|cette|ces) derni(er|ère|ers|ères)(?![\p{L}])/iu,
  de: /(?<![\p{L}])(letztere[nrms]?|erstere[nrms]?|obige[nrms]?)(?![\p{L}])/iu,
  es: /(?<![\p{L}])((est|es)[eao]s? últim[oa]s?|lo anterior)(?![\p{L}])/iu,
};

/**
 * French: an object pronoun before an infinitive opening the sentence (or its first clause after a short lead):
 * « Les utiliser sans comprendre leurs effets peut casser le système. », « Au besoin, les installer dans
 * /usr/local. ». What « les » stands for is in the sentence before.
 */
function objectPronounFirst(sentence: string): boolean {
  // « les » only: a plural noun after the article takes its -s or -x, so « les » + a word in -er, -ir or -re is
  // the pronoun and a verb; after « le », « la » or « l' » the same word may be a noun (« Le fichier »).
  const m = /^(?:[^,]{0,40},\s*)?les\s(\p{L}+(?:er|ir|re))(?![\p{L}])/iu.exec(sentence.trim());
  return Boolean(m) && !NOT_INFINITIVES.has(m![1].toLowerCase());
}

/**
 * Spanish drops the subject: "Es similar a Apple Bonjour.", "Es una herramienta muy poderosa …", "Son similares a
 * las tuberías …" say something of what the sentence before named. The impersonal copula has its subject after
 * it, an infinitive or a clause: "Es recomendable usar …", "Es una mala idea emitir …", "Es posible que …" stand
 * alone. An infinitive governed by a preposition ("la manera más rápida de navegar") is no subject.
 */
const SPANISH_COPULA = /^(es|son|era|eran|fue|fueron)$/;
const SPANISH_PREPOSITIONS = new Set(["a", "al", "de", "del", "para", "por", "sin", "con", "en", "tras"]);
function copulaWithoutSubject(sentence: string): boolean {
  const words = wordsOf(sentence, "es").map((w) => w.toLowerCase());
  if (!words.length || !SPANISH_COPULA.test(words[0])) return false;
  if (words.slice(1, 3).includes("que")) return false;
  const infinitive = (w: string, i: number) => /\p{L}{2,}(ar|er|ir)(se|la|lo|las|los|le|les)?$/u.test(w) && !NOT_INFINITIVES.has(w) && !SPANISH_PREPOSITIONS.has(words[i - 1] ?? "");
  return !words.slice(1, 9).some((w, i) => infinitive(w, i + 1));
}

/** Pronouns that point back wherever they stand ("Teams that plan them a week ahead…"). */
const ANAPHORA: Record<SupportedLanguage, ReadonlySet<string>> = {
  en: new Set(["it", "they", "them", "those", "these", "he", "she", "him", "his", "her", "such"]),
  de: new Set(["er", "sie", "ihn", "ihm", "ihnen", "diese", "dieser", "dieses", "solche"]),
  fr: new Set(["il", "elle", "ils", "elles", "eux", "celui", "celle", "ceux", "celles"]),
  es: new Set(["él", "ella", "ellos", "ellas", "estos", "estas", "dicho", "dicha"]),
};

/**
 * Connectives that tie a sentence to the one before ("Equally, …", "However, …", « De même, … », "Ebenso …",
 * "Asimismo, …"): said of what precedes, they mean nothing without it. Matched at the start, lower-cased.
 */
const CONNECTIVE_OPENERS: Record<SupportedLanguage, RegExp> = {
  en: /^(however|also|equally|likewise|similarly|otherwise|moreover|furthermore|additionally|in addition|what is more|besides|therefore|hence|thus|consequently|as a result|instead|nevertheless|nonetheless|still|yet|again|on the other hand|in contrast|by contrast|conversely|in that case|for this reason|for that reason|even so|then|but)(?![\p{L}\p{N}])/u,
  fr: /^(de même|aussi|également|cependant|toutefois|pourtant|néanmoins|ainsi|donc|sinon|par ailleurs|en outre|de plus|qui plus est|par conséquent|en revanche|au contraire|dans ce cas|pour cette raison|d['’]autre part|enfin|alors|mais)(?![\p{L}\p{N}])/u,
  de: /^(ebenso|ebenfalls|außerdem|zudem|ferner|darüber hinaus|mehr noch|jedoch|allerdings|dennoch|trotzdem|deshalb|deswegen|daher|darum|also|stattdessen|ansonsten|sonst|gleichfalls|auch|dann|folglich|somit|hingegen|andererseits|in diesem fall|aber)(?![\p{L}\p{N}])/u,
  es: /^(asimismo|también|además|más aún|sin embargo|no obstante|por tanto|por lo tanto|por consiguiente|así|de lo contrario|igualmente|del mismo modo|de igual modo|por otra parte|por otro lado|en cambio|en ese caso|en este caso|por eso|por ello|entonces|aun así|pero|es decir|es más)(?![\p{L}\p{N}])/u,
};

/**
 * After an opening subordinate clause, a main clause whose subject is a demonstrative points back as an
 * opening one does: « À moins que vous ne sachiez …, ce ne sont que d'énormes quantités de données inutiles. »
 */
const CLAUSE_POINTERS: Record<SupportedLanguage, RegExp> = {
  en: /^(this|these|those)(?![\p{L}\p{N}])/u,
  fr: /^(ce(?! (que|qui|dont)\b)|cela|ceci|ça|ces|cette)(?![\p{L}\p{N}])/u,
  de: /^(dies|dieses|diese|dieser)(?![\p{L}\p{N}])/u,
  es: /^(esto|eso|ello|estos|estas|esos|esas)(?![\p{L}\p{N}])/u,
};

/** "Do this" in the other languages: « si vous le faites », "antes de hacerlo", "wenn Sie dies tun". */
const DOING_IT: Partial<Record<SupportedLanguage, RegExp>> = {
  fr: /\b(le|l['’]) ?(faire|faites|fait|font|fais|ferez)\b(?! qu)/i,
  es: /\b(hacerlo|hacerla|haciéndolo|lo hace|lo hacen|lo haga|lo hizo)\b/i,
  de: /\b(dies|das) (tun|tut|machen|macht)\b/i,
};

/**
 * How a sentence leans on the one before: "pronoun" (it names what came before: "It works offline…", "This
 * situation…"), "link" (it adds to it: "Equally, …", « Si vous le faites, … », "antes de hacerlo"), or not at all.
 * A link says something new of its own: it joins its antecedent only when it shares a content term with it.
 */
export function dependencyOf(sentence: string, lang: string): "pronoun" | "link" | null {
  if (!dependsOnPrevious(sentence, lang)) return null;
  const base = baseLanguage(lang);
  return opensWithConnective(openingOf(sentence), base) || doesIt(sentence, base) ? "link" : "pronoun";
}

/** The sentence lower-cased from its first word on (opening quotes, brackets and ¿ ¡ left out). */
const openingOf = (sentence: string) => sentence.trim().replace(/^[¿¡"“„«(\s]+/u, "").toLowerCase();
const opensWithConnective = (opening: string, base: string) => CONNECTIVE_OPENERS[supported(base)].test(opening);
const doesIt = (sentence: string, base: string) => DOING_IT[supported(base)]?.test(sentence) ?? false;

/** A sentence that only makes sense after the one before it: it opens with a pointer word or a connective, or uses a pronoun anywhere. */
export function dependsOnPrevious(sentence: string, lang: string): boolean {
  const base = baseLanguage(lang);
  // A sentence in parentheses is an aside to the one before; "do this" points back as a pronoun does.
  if (/^\(.*\)[.!]?$/.test(sentence.trim()) || /\b(do|does|did|doing|done) (this|that)\b/i.test(sentence) || doesIt(sentence, base)) return true;
  const words = wordsOf(sentence, lang).map((w) => w.toLowerCase());
  if (!words.length) return false;
  if (DEPENDENT_OPENERS[supported(base)].has(words[0])) return true;
  const lower = openingOf(sentence);
  if (opensWithConnective(lower, base)) return true;
  const comma = lower.indexOf(", ");
  if (comma > 0 && CLAUSE_POINTERS[supported(base)].test(lower.slice(comma + 2))) return true;
  if (ANTECEDENT[supported(base)].test(sentence)) return true;
  if (base === "fr" && objectPronounFirst(sentence)) return true;
  if (base === "es" && copulaWithoutSubject(sentence)) return true;
  const anaphora = ANAPHORA[supported(base)];
  // "it" and "they" as the first word were handled above; elsewhere German "sie" is also the polite "you", so only the opener counts there.
  return base !== "de" && words.some((w) => anaphora.has(w));
}

/** Units per evidence item, kept across stages (draft, edit, seo read the same pool), oldest dropped first. */
const UNIT_CACHE_SIZE = 1000;
const unitCache = new Map<string, readonly EvidenceUnit[]>();

/** The citable units of one evidence item, in the quote's order. Shared: do not modify. */
export function unitsOfEvidence(evidence: Evidence, lang: string): readonly EvidenceUnit[] {
  const key = `${lang}\u0000${evidence.id}\u0000${evidence.heading ?? ""}\u0000${evidence.quote}`;
  let units = unitCache.get(key);
  if (!units) {
    units = splitIntoUnits(evidence, lang);
    unitCache.set(key, units);
    if (unitCache.size > UNIT_CACHE_SIZE) unitCache.delete(unitCache.keys().next().value!);
  }
  return units;
}

/**
 * Pointers into the source document: "(see apt_preferences(5) and Section 2.7.3, “Tweaking candidate version”)",
 * "(Section 10.2.3, “Personal backup”)", "(consulte Capítulo 5, Configuración de red)", or a list of manual
 * pages "(ip(8), …)". They mean nothing in the customer's article, which has no sections of that numbering.
 */
const CROSS_REFERENCE: Record<SupportedLanguage, RegExp> = {
  en: /\b(see|cf\.|refer to|section|chapter|table|figure|appendix)\b/i,
  fr: /\b(voir|voyez|consultez|cf\.|section|chapitre|tableau|figure|annexe)\b/i,
  de: /\b(siehe|vgl\.|lesen sie|abschnitt|kapitel|tabelle|abbildung|anhang)\b/i,
  es: /\b(véase|vea|consulte|ver|cf\.|sección|capítulo|tabla|figura|apéndice)\b/i,
};
/** A manual page reference, "apt_preferences(5)", "ip(8)" (`MAN_PAGES`: every one, for `replace`). */
const MAN_PAGE = /[\w.+-]+\(\d\w?\)/;
const MAN_PAGES = new RegExp(MAN_PAGE.source, "g");
/** A parenthetical, one level of nested parentheses allowed ("(ip(8), …)"). */
const PARENTHETICAL = /\s*\((?:[^()]|\([^()]*\))*\)/g;

/**
 * The sentence without its parentheticals that only point into the source document (a section or chapter
 * number, "see …", or nothing but manual pages): the claim stays, the pointer goes. The result is still a
 * run of the source's own words; only the aside is left out.
 */
export function stripCrossReferences(sentence: string, lang: string): string {
  const rule = CROSS_REFERENCE[supported(lang)];
  const stripped = sentence.replace(PARENTHETICAL, (paren) => {
    const inner = paren.trim().slice(1, -1);
    const pointsAway = (rule.test(inner) && /\d|“|"|«|„|\(\d/.test(inner)) || /^\s*(see|voir|siehe|véase|vea|consulte)\b/i.test(inner);
    const onlyManPages = inner.replace(MAN_PAGES, "").replace(/[\s,;…]|\.{3}|\b(and|et|und|y|etc)\b\.?/g, "") === "" && MAN_PAGE.test(inner);
    return pointsAway || onlyManPages ? "" : paren;
  });
  return stripped === sentence ? sentence : stripped.replace(/\s+([.,;:!?])/g, "$1").replace(/\s{2,}/g, " ").trim();
}

function splitIntoUnits(evidence: Evidence, lang: string): EvidenceUnit[] {
  const sentences = splitSentences(evidence.quote, lang).map((s) => stripCrossReferences(s.text, lang));
  const units: EvidenceUnit[] = [];
  let current: { position: number; sentences: string[] } | null = null;
  const close = () => {
    if (current && current.sentences.every((s) => isUsableSentence(s, lang))) {
      const text = current.sentences.join(" ");
      units.push({
        key: `${evidence.id}#${current.position}`,
        evidenceId: evidence.id,
        heading: evidence.heading ?? "",
        position: current.position,
        sentences: current.sentences,
        text,
        words: countWords(text, lang),
        terms: termSet(`${evidence.heading ?? ""} ${text}`, lang),
      });
    }
    current = null;
  };
  sentences.forEach((sentence, i) => {
    const dependency = dependencyOf(sentence, lang);
    // A dependent sentence joins the unit before it, unless it opens the quote (its antecedent was cut off).
    // A linked one ("Equally, …", « si vous le faites ») must also share a content term with it: otherwise it
    // adds something about another subject, and goes ("Proporciona la oportunidad de eliminar la basura …" +
    // "… antes de hacerlo" were two statements on two things).
    const joins = dependency === "pronoun" || (dependency === "link" && current !== null && sharesContentTerm(current.sentences, sentence, lang));
    if (current && dependency && joins && current.sentences.length < 3) {
      current.sentences.push(sentence);
      return;
    }
    close();
    if (dependency) return;
    current = { position: i, sentences: [sentence] };
  });
  close();
  return units;
}

function sharesContentTerm(before: readonly string[], sentence: string, lang: string): boolean {
  const prior = termSet(before.join(" "), lang);
  return [...termSet(sentence, lang)].some((t) => prior.has(t));
}

/** Every unit of a pool, each sentence of the pool once (the same passage found twice is one unit). */
export function unitsOfPool(pool: readonly Evidence[], lang: string): EvidenceUnit[] {
  const seen = new Set<string>();
  const out: EvidenceUnit[] = [];
  for (const evidence of pool) {
    for (const unit of unitsOfEvidence(evidence, lang)) {
      const fingerprint = unit.text.toLowerCase().replace(/\s+/g, " ");
      if (seen.has(fingerprint)) continue;
      seen.add(fingerprint);
      out.push(unit);
    }
  }
  return out;
}

/** The number of distinct usable sentences a pool offers: what the evidence threshold counts. */
export function usableSentenceCount(units: readonly EvidenceUnit[]): number {
  return units.reduce((n, u) => n + u.sentences.length, 0);
}

/** A BM25 index over units, for ranking them against a section's query. */
export function unitIndex(units: readonly EvidenceUnit[], lang: string): Bm25Index {
  return Bm25Index.fromTexts(units.map((u) => ({ id: u.key, text: `${u.heading}\n${u.text}` })), lang);
}
