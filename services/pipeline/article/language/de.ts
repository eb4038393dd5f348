import { wordsOf } from "../../../../shared/text/segment";
import type { LanguageProfile } from "./profile";

/** Capitalised sentence openers that are no name: pronouns, demonstratives and adverbs. */
const NOT_NAMES = /^(Es|Er|Sie|Dies|Das|Dieser|Diese|Dieses|Jenes|Man|Hier|Dort|Da|Dann|Jetzt|Nun|Was|Wer|Alles|Jeder|Jede|Jedes|Nichts|Beides|Hierbei|Dabei|Damit|Dadurch|Daher|Deshalb|Außerdem)$/;

/** Pronominal adverbs: "da" (before a vowel "dar") or "hier" joined to a preposition. */
const PRONOMINAL_ADVERBS = ["an", "auf", "aus", "bei", "durch", "für", "gegen", "hinter", "in", "mit", "nach", "neben", "über", "um", "unter", "von", "vor", "zu", "zwischen"].flatMap((p) => [
  `${/^[aeiouäöü]/.test(p) ? "dar" : "da"}${p}`,
  `hier${p}`,
]);

/** A capital or a digit after the first letter: an acronym or a product's name ("NSS", "PolicyKit", "CRM114"). */
const NAME_LIKE = /[\p{Lu}\p{N}]/u;

/** Words that make a question point outside itself ("Wie kann man dies beheben?"): an FAQ question must stand alone. */
const POINTS_BACK = /(?<![\p{L}])(dies|diese[nmrs]?|solche[nmrs]?|es|sie|ihn|ihm|ihr|ihre[nmrs]?|sein|seine[nmrs]?|ähnliche[nmrs]?|gleiche[nmrs]?|selbe[nmrs]?)(?![\p{L}])/iu;


/** Lower-case German words ending in -t that are no verb. */
const GERMAN_NOT_VERBS = new Set(["nicht", "jetzt", "bereits", "meist", "zuerst", "selbst", "erst", "seit", "oft", "weit", "nachts", "sonst", "zuletzt", "höchst", "mindestens", "samt", "statt", "bit", "apt", "wget", "git"]);

/**
 * A verb in the third person singular (lower case, ending in -t: "nutzt", "gibt") makes a label's description a
 * sentence. A quoted string or a path holds no verb of the sentence ("… im Verzeichnis "~/.config/autostart".").
 */
function hasThirdPersonVerb(description: string): boolean {
  const prose = description.replace(/["„“”«»][^"„“”«»]*["„“”«»]/gu, " ").replace(/\S*\/\S*/g, " ");
  return wordsOf(prose, "de").some((w) => /^\p{Ll}{3,}t$/u.test(w) && !GERMAN_NOT_VERBS.has(w));
}

/**
 * "Das liegt daran, dass …", "Das bedeutet …": "das" as the subject of a verb stands for what was said before.
 * An article is followed by a noun (capitalised), an adjective (in -e or -en after it) or a name in lower case
 * ("Das apt-Programm ist …", "Das dpkg-Paket …"): a verb is a word of its own, in -t or a modal or "sein".
 */
function demonstrativeSubject(sentence: string): boolean {
  const match = /^(?:Das|Dies) (\p{Ll}+)[\s,]/u.exec(sentence.trim());
  if (!match) return false;
  const word = match[1];
  return /^(ist|sind|war|waren|wäre|wird|hat|kann|muss|soll|darf|mag)$/.test(word) || (/t$/.test(word) && word.length >= 4 && !GERMAN_NOT_VERBS.has(word));
}

const LABEL_LINE_MAX_WORDS = 10;
/**
 * German puts the infinitive last, in lower case (nouns are capitalised): "Regelmäßig Sicherungen erstellen."
 * A clause after a comma ends with its verb too ("…, die der sudo-Gruppe angehören."): short lines without one only.
 */
function infinitiveLastLine(words: readonly string[], main: string): boolean {
  return words.length <= LABEL_LINE_MAX_WORDS && !main.includes(",") && /^\p{Ll}+(en|ern|eln)$/u.test(words[words.length - 1]) && !GERMAN.sentences.finite.test(main);
}

export const GERMAN: LanguageProfile = {
  code: "de",
  name: "German",
  angleWords: `wie was warum wann wo welche welcher welches wer können kann kannst sollte sollten muss müssen machen macht
    anfangen anfänger anfängerin einsteiger einstieg einsteigen beginnen erste ersten erster schritt schritte leitfaden
    ratgeber anleitung tipp tipps trick tricks rat idee ideen weg wege beste besten bester gut gute guter praxis praktisch
    praktische bewährte bewährten methoden fehler vermeiden häufig häufige häufigsten einfach einfache schnell komplett
    wesentlich grundlagen einführung überblick erklärt verstehen wissen alles lernen versus gegen vergleich vergleichen
    unterschied unterschiede vorteil vorteile nachteil nachteile grund gründe wichtig nutzen benutzen verwenden
    verwendung legen stellen wählen auswählen auswahl behalten nehmen helfen wirklich immer oft beispiel beispiele liste
    frage fragen antwort antworten neu neue modern verwalten verwaltet verwaltung management
    pflegen pflege gepflegt wartung richtig richtige richtigen korrekt
    funktioniert funktionieren funktionsweise brauchen braucht brauchst mal umgehen umgang bekämpfen vorbereiten
    reduzieren verbessern verbessert senken steigern sparen beschleunigen schneller besser einfacher erklärung erklären
    einrichten einrichtung`,
  furtherReading: /^(weitere|weiterführende) (lektüre|literatur|informationen|quellen)\b|^(zum weiterlesen|literatur|referenzen|siehe auch|weblinks)$/iu,
  relationalQuestion: /^Was (ist|sind) (der|die|das) [\p{L}\p{N}-]*(teil|alternative|unterschied|lösung|problem|grund|ergebnis|rest|antwort|idee|fall|situation|szenario|beispiel|ansatz|weg|option|wahl|andere)(e|en|n|s)? ?\?$|(?<![\p{L}])(das|dem|des|die|der|den|diese[mnrs]?) (problem|situation|fall|frage|unterschied|alternative|rest)(e|en|es|s)? ?\?$/iu,
  placeWords: /(?<![\p{L}])(zweite[nmrs]?|dritte[nmrs]?|vierte[nmrs]?|fünfte[nmrs]?|sechste[nmrs]?|siebte[nmrs]?|achte[nmrs]?|neunte[nmrs]?|zehnte[nmrs]?)(?![\p{L}])/iu,
  faqShapes: [
    // „Um ein Paket zu installieren, …" → „Wie kann man ein Paket installieren?"
    { shape: /^Um ((?:[\p{L}\p{N}'’-]+ ){1,6}?)zu ([\p{L}]+), /u, ask: (m) => `Wie kann man ${m[1]}${m[2]}?` },
    // „Ein Paket ist eine …" → „Was ist ein Paket?"
    { shape: /^((?:Der|Die|Das|Ein|Eine) (?:[\p{L}\p{N}'’-]+ ){0,2}[\p{L}\p{N}'’-]+) (ist|sind) (?:ein|eine|einer|der|die|das) /u, ask: (m) => `Was ${m[2]} ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)}?` },
    // „Aptitude ist ein Werkzeug …" → „Was ist Aptitude?" (a name: one capitalised word, not a pronoun)
    { shape: /^(\p{Lu}[\p{L}\p{N}._+-]*) (ist|sind) (?:ein|eine|einer|der|die|das) /u, ask: (m) => (NOT_NAMES.test(m[1]) ? undefined : `Was ${m[2]} ${m[1]}?`) },
    // „NSS besitzt einen flexiblen …", „PAM bietet flexible …" → „Wozu dient NSS?" (a name doing what it is for). German
    // capitalises every sentence's first word and every noun, so only an acronym or a CamelCase name is taken for
    // one here: „Gleichzeitig erlaubt sie …", „Oft stellt man fest …" are adverbs, „Debian stellt … bereit" asks nothing.
    { shape: /^(\p{Lu}[\p{L}\p{N}._+-]*(?:\(\d\))?) (?:bietet|stellt|verwaltet|ermöglicht|erlaubt|erzeugt|speichert|liefert|besitzt|prüft|steuert|startet|überwacht|verschlüsselt|sichert|installiert|synchronisiert) (?!sich\b)\p{L}/u, ask: (m) => (NOT_NAMES.test(m[1]) || !NAME_LIKE.test(m[1].slice(1)) ? undefined : `Wozu dient ${m[1]}?`) },
    // „Sie können das CUPS-System konfigurieren, indem Sie …" → „Wie kann man das CUPS-System konfigurieren?"
    // The impersonal "Man kann …" says the same.
    { shape: /^(?:Sie können|Man kann) ((?:[\p{L}\p{N}'’-]+ ){1,7}?)(\p{Ll}+en), indem /u, ask: (m) => (POINTS_BACK.test(m[1]) ? undefined : `Wie kann man ${m[1]}${m[2]}?`) },
    // „Wenn Sie Paketabhängigkeiten rekursiv abfragen möchten, sollten Sie apt-rdepends(8) verwenden." → „Wie kann man
    // Paketabhängigkeiten rekursiv abfragen?" („Wenn Sie dies nicht möchten, …" asks nothing.)
    { shape: /^(?:Wenn|Falls) Sie ((?:[\p{L}\p{N}'’-]+ ){1,7}?)(\p{Ll}+(?:en|ern|eln)) (?:möchten|wollen|müssen), (?!(?:lesen|konsultieren) Sie\b|siehe\b)/u, ask: (m) => (POINTS_BACK.test(m[1]) || /\bnicht\b/.test(m[1]) ? undefined : `Wie kann man ${m[1]}${m[2]}?`) },
  ],
  angleMaterial: [
    {
      angle: "problems",
      qualifiers: /^(häufige[nrs]?|häufigsten|typische[nrs]?|klassische[nrs]?|größte[nrs]?)$/iu,
      // "Fehler" and its plural, not a compound naming something else ("Fehlerbericht", a bug report).
      asks: /(?<![\p{L}])(fehlern?|fehlersuche|fehlerbehebung|probleme?|vermeiden|falsch\p{L}*|nie|niemals)(?![\p{L}])/iu,
      serves: /(?<![\p{L}])(zu (viel|wenig|häufig|oft|lange|stark|dunkel|kalt|heiß)|nie|niemals|nicht|kein\p{L}*|vermeiden|ohne|falsch\p{L}*|schädig\p{L}*|schaden)(?![\p{L}])/iu,
    },
    {
      angle: "start",
      asks: /(?<![\p{L}])(einstieg|einsteiger\p{L}*|anfänger\p{L}*|erste[nr]? schritte|zum ersten mal|erstes mal|von grund auf|einführung|grundlagen|schnellstart|loslegen|beginnen)(?![\p{L}])/iu,
      placed: /(?<![\p{L}])(schnellstart|einführung|erste[nr]? schritte|grundlagen|überblick|einstieg|anfänger\p{L}*)(?![\p{L}])/iu,
      query: "Schnellstart Einführung erste Schritte Grundlagen",
    },
  ],
  exampleMarkers: /(?<![\p{L}])(zum Beispiel|z\.\s?B\.)/iu,
  asideOpener: /^(bitte )?(beachten sie|merken sie sich|denken sie daran)(?![\p{L}])|^hinweis\s?:/iu,
  demonstratives: new Set("dieser diese dieses diesen diesem".split(" ")),
  determiners: new Set("der die das den dem des ein eine einen einem einer eines dieser diese dieses diesen jede jeder jedes ihre ihren seine seinen".split(" ")),
  sentences: {
    // Pronouns, demonstratives and the pronominal adverbs (da-/dar-/hier- + preposition: "Hierbei", "Dafür",
    // "Darauf"), which stand for something said before.
    dependentOpeners: new Set(["er", "sie", "es", "dies", "diese", "dieser", "dieses", "ihr", "ihre", "sein", "seine", ...PRONOMINAL_ADVERBS]),
    firstPerson: /(^|[^\p{L}])(ich|mein|meine|meiner|meinen|meinem|meines|mir|mich)(?![\p{L}-])/iu,
    finite: /(^|\s)(ist|sind|war|waren|wird|werden|wurde|wurden|kann|können|konnte|muss|müssen|soll|sollte|sollten|darf|dürfen|hat|haben|hatte|lässt|lassen|will|wollen|möchte|gibt|ich|du|er|sie|es|wir|ihr|man|Sie)(?=[\s,.;:]|$)/,
    boilerplate: /\b(folgende[nrms]?|wie folgt|siehe|hier (ist|sind)|klicken|dieses (kapitel|dokument|handbuch)|dieser abschnitt|in diesem (kapitel|abschnitt)|abschnitt \d|kapitel \d|wie (unten |oben )?(gezeigt|dargestellt)|(unten|oben) (beschrieben|erwähnt|aufgeführt|erklärt))/i,
    // "Hier ein paar Beispiele für aptitude(8)-Operationen.": a verbless announcement of the list or table after it.
    sendsTo: /^(für (weitere|mehr|nähere) (details|informationen)[^,]*,?\s*)?(lesen|konsultieren) sie\b|^(näheres|mehr dazu|details) (in|unter|bei)\b|\b(wird|werden|ist|sind) in\b.*\b(beschrieben|dokumentiert|erklärt)\b|^hier (ein|eine|einige|ein paar)\b(?!.*\b(ist|sind|gibt)\b)|\b(finden|erhalten) sie\b.*\b(im|in|in der|in den|unter|auf)\b/i,
    announcesList: /^(es gibt|man unterscheidet) (zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|mehrere|einige|\d+) /iu,
    // Also at the end of a compound: "Benutzerhandbuch", "Installationsanleitung".
    documentation: /(dokumentation|handbuch|handbuchseite|anleitung|readme|howto|faq|veröffentlichungshinweise\p{L}*)(?![\p{L}])/iu,
    // "letztere", "obige", "auf diese Weise", "im vorigen Beispiel": what was said before.
    antecedent: /(?<![\p{L}])(letztere[nrms]?|erstere[nrms]?|obige[nrms]?|auf diese (weise|art)|(vorherige[nmrs]?|vorige[nmrs]?) (beispiel|abschnitt|befehl|schritt|kapitel)s?)(?![\p{L}])|^(?!.*(?<![\p{L}])(?:nicht|nie|kein[emnrs]?)(?![\p{L}])).*(?<![\p{L}])stattdessen(?![\p{L}])/iu,
    anaphora: new Set(["er", "sie", "ihn", "ihm", "ihnen", "diese", "dieser", "dieses", "solche"]),
    anaphoraOpensOnly: true,
    notInfinitives: new Set(),
    infinitiveLastLine,
    descriptionIsSentence: hasThirdPersonVerb,
    leansBack: demonstrativeSubject,
    imperative: (sentence) => /^\p{Lu}\p{Ll}+(?:en|ern|eln) Sie(?![\p{L}])/u.test(sentence),
    afterSteps: /(?<![\p{L}])(jetzt|nun)(?![\p{L}])/iu,
    answerOpeners: /^(?:(?:ja|nein)(?=[,.!;:])|die (?:kurze )?antwort(?![\p{L}]))/u,
    connectiveOpeners: /^(ebenso|ebenfalls|oder|alternativ|eine andere|ein anderer|ein anderes|außerdem|zudem|ferner|darüber hinaus|mehr noch|jedoch|allerdings|dennoch|trotzdem|deshalb|deswegen|daher|darum|also|stattdessen|ansonsten|sonst|gleichfalls|auch|dann|folglich|somit|hingegen|andererseits|in diesem fall|aber|und)(?![\p{L}\p{N}])/u,
    clausePointers: /^(dies|dieses|diese|dieser)(?![\p{L}\p{N}])/u,
    doingIt: /\b(dies|das) (tun|tut|machen|macht)\b/i,
    numberedSection: /(abschnitt|kapitel|anhang|tabelle|abbildung) \d+(\.\d+)+|(?<![\p{L}])zeilen? \d+(?![\p{L}\d])/iu,
    crossReference: /\b(siehe|vgl\.|lesen sie|abschnitt|kapitel|tabelle|abbildung|anhang)\b/i,
  },
  phrases: {
    name: "German",
    conclusionHeading: "Fazit",
    otherPointsHeading: "Weitere Punkte",
    and: "und",
    faqHeading: "Häufige Fragen",
    sourcesHeading: "Quellen",
    knowledgeBaseLabel: "Wissensbasis der Marke",
    overviewHeading: "{K}: ein Überblick",
    explained: /\s+erklärt$/iu,
    bodyHeadings: {
      informational: ["Warum das wichtig ist", "In der Praxis", "Worauf es ankommt", "Häufige Fehler", "Der Einstieg", "Was Sie erwarten können"],
      commercial: ["Worauf Sie achten sollten", "Optionen im Vergleich", "Kosten und Preise", "So treffen Sie die Wahl", "Fragen vor der Entscheidung"],
      transactional: ["Was Sie bekommen", "Kosten und Tarife", "So starten Sie", "Was Sie vorbereiten sollten", "Unterstützung nach dem Start"],
      navigational: ["Wo Sie es finden", "Was es bietet", "So bekommen Sie Hilfe", "Nächste Schritte"],
    },
    titles: {
      informational: ["{K}: Was Sie wissen sollten", "{K}: ein praktischer Leitfaden", "{K} einfach erklärt", "{K}: das Wichtigste im Überblick", "{K}: Fakten und Tipps"],
      commercial: ["{K}: So treffen Sie die richtige Wahl", "{K}: Optionen, Kosten und Abwägungen", "{K}: ein Ratgeber für Käufer", "{K} im Vergleich", "{K}: Worauf es ankommt"],
      transactional: ["{K}: Tarife, Kosten und Einstieg", "Der Einstieg in {K}", "{K}: Was Sie bekommen", "{K}: eine Schnellstart-Anleitung"],
      navigational: ["{K}: der Einstieg", "{K}: ein Überblick", "{K}: das Wichtigste", "{K}: So finden Sie sich zurecht"],
    },
    // "Thema dieses Artikels: …" holds any noun phrase; "beschäftigt sich mit {K}" would need its dative.
    framing: "Thema dieses Artikels: {K}.",
    framingForAudience: "Thema dieses Artikels: {K}, für {A}.",
    framingQuestion: "Dieser Artikel beantwortet die Frage: {K}?",
    questions: {
      informational: ["Was ist {K}?", "Warum ist {K} wichtig?", "Wie funktioniert {K}?", "Welche Vorteile hat {K}?", "Wie gelingt der Einstieg in {K}?"],
      commercial: ["Was kostet {K}?", "Worauf sollte man bei {K} achten?", "Wie wählt man {K} aus?", "Welche Alternativen gibt es zu {K}?"],
      transactional: ["Wie startet man mit {K}?", "Was kostet {K}?", "Gibt es eine kostenlose Testphase für {K}?", "Welche Unterstützung gibt es für {K}?"],
      navigational: ["Was ist {K}?", "Wo findet man {K}?", "Wo bekommt man Hilfe zu {K}?"],
    },
    sectionQuestion: "Was sollte man über {H} wissen?",
    coverAltModel: "Illustration zum Artikel „{T}“",
    coverAltCard: "Titelgrafik mit der Aufschrift „{T}“",
    keyPoints: "Die wichtigsten Punkte",
    threadOpener: "{T} – ein Thread",
    readMore: "Details und Quellen im vollständigen Artikel.",
  },
};
