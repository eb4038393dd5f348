import { pluralPronounWithoutAntecedent, type PluralPronoun } from "./clitics";
import { opensInUpperCase, type LanguageProfile } from "./profile";

/** Capitalised sentence openers that are no name: pronouns and demonstratives. */
const NOT_NAMES = /^(Ce|Cela|Ceci|Il|Elle|Ils|Elles|On|Voici|Voilà|Tout|Tous|Chacun|Rien|Personne|Qui|Quoi|Si|Ainsi|Alors|Puis)$/;

/** Words that make a question point outside itself (« Comment désactiver ces alias ? »): an FAQ question must stand alone. */
// Sameness too: « des informations similaires » are similar to what the sentence before said.
const POINTS_BACK = /(?<![\p{L}])(ce|cet|cette|ces|cela|ceci|celui|celle|ceux|celles|leur|leurs|son|sa|ses|le faire|similaires?|semblables?|pareil(?:le)?s?|même)(?![\p{L}])/iu;


/** Words of an infinitive's shape (-er, -ir, -re) that are none. */
const FRENCH_NOT_INFINITIVES: ReadonlySet<string> = new Set(
  "entre outre contre notre votre autre premier dernier hier cher fier super laser cluster plaisir désir avenir loisir souvenir".split(" "),
);

/**
 * An object pronoun before an infinitive opening the sentence (or its first clause after a short lead):
 * « Les utiliser sans comprendre leurs effets peut casser le système. », « Au besoin, les installer dans
 * /usr/local. ». What « les » stands for is in the sentence before.
 */
function objectPronounFirst(sentence: string): boolean {
  // « les » only: a plural noun after the article takes its -s or -x, so « les » + a word in -er, -ir or -re is
  // the pronoun and a verb; after « le », « la » or « l' » the same word may be a noun (« Le fichier »).
  const m = /^(?:[^,]{0,40},\s*)?les\s(\p{L}+(?:er|ir|re))(?![\p{L}])/iu.exec(sentence.trim());
  return Boolean(m) && !FRENCH_NOT_INFINITIVES.has(m![1].toLowerCase());
}

/**
 * « les » as an object pronoun: before an infinitive after a preposition (« de les installer »: the article would
 * be « des »; « pour les installer »: a plural noun takes its -s or -x), or after a subject pronoun (« vous les
 * trouverez »).
 */
const PLURAL_PRONOUN: PluralPronoun = {
  pronoun: /(?<![\p{L}])(?:(?:de|d['’]|à|pour|sans|afin de|avant de|après|puis)\s+les\s+\p{L}+(?:er|ir|re|oir)|(?:vous|nous|on|ils|elles|il|elle|je|tu)\s+les\s+\p{L}+)(?![\p{L}])/iu,
  notPlurals: new Set("depuis alors toujours jamais parfois ailleurs lors dessus dessous volontiers néanmoins désormais".split(" ")),
};

export const FRENCH: LanguageProfile = {
  code: "fr",
  name: "French",
  angleWords: `comment pourquoi quand quel quelle quels quelles quoi qui où peut peuvent pouvez pouvoir faut doit doivent
    devez faire fait commencer commencez débuter débutant débutants débutante premier premiers première premières étape
    étapes guide guides tutoriel conseil conseils astuce astuces idée idées façon façons manière manières meilleur
    meilleure meilleurs meilleures bon bonne bonnes bons pratique pratiques erreur erreurs piège pièges éviter courant
    courante courantes courants fréquent fréquentes simple simples facile faciles rapide complet complète essentiel
    essentiels essentielle base bases introduction aperçu comprendre savoir tout tous connaître apprendre versus contre
    comparaison comparer différence différences avantage avantages inconvénient inconvénients raison raisons important
    importante utiliser utilisation mettre choisir choix garder prendre aider vraiment toujours souvent exemple
    exemples liste question questions réponse réponses nouveau nouvelle moderne
    entretenir entretien entretenu entretenue maintenance soigner soin bien correctement vue ensemble gérer gestion administrer
    réduire réduisez améliorer améliorez augmenter accélérer économiser gagner plus rapide rapidement
    fonctionne fonctionnent fonctionner fonctionnement fois combattre lutter préparer expliqué expliquée expliqués expliquées explication expliquer zéro créer`,
  furtherReading: /^(autres|d['’]autres) (lectures|ressources|références)\b|^(pour aller plus loin|lectures complémentaires|références|voir aussi|bibliographie|liens externes)$/iu,
  relationalQuestion: /^Qu['’]est-ce que (les? |la |l['’])([\p{L}\p{N}-]+ )?(partie|alternative|différence|solution|problème|raison|résultat|reste|réponse|idée|cas|situation|scénario|exemple|approche|façon|manière|option|choix|autre)s? ?\?$|(?<![\p{L}])(le |la |l['’]|ce |cette )(problème|situation|cas|question|différence|alternative|reste)s? ?\?$/iu,
  placeWords: /(?<![\p{L}])(deuxième|second|seconde|troisième|quatrième|cinquième|sixième|septième|huitième|neuvième|dixième)(?![\p{L}])/iu,
  faqShapes: [
    // « Pour installer un paquet, utilisez … » → « Comment installer un paquet ? » (an infinitive only: « Pour des
    // petites sauvegardes, … » asks nothing, and « Pour le faire, … » asks about what « le » stood for)
    { shape: /^Pour ((?:se |s['’])?\p{L}+(?:er|ir|re|oir)(?: [\p{L}\p{N}'’-]+){0,7}), /iu, ask: (m) => `Comment ${m[1]} ?` },
    // « Le paquet est un … » → « Qu'est-ce que le paquet ? » (the article before the definition may be elided: « est l’outil »)
    { shape: /^((?:Le|La|Les|L['’]|Un|Une) ?(?:[\p{L}\p{N}'’-]+ ){0,3}[\p{L}\p{N}'’-]+) (?:est|sont) (?:(?:un|une|le|la|les|des) |l['’]\p{L})/u, ask: (m) => `Qu'est-ce que ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)} ?` },
    // « Aptitude est un outil … » → « Qu'est-ce qu'Aptitude ? » (a name: one capitalised word, not a pronoun)
    { shape: /^(\p{Lu}[\p{L}\p{N}._+-]*) (?:est|sont) (?:(?:un|une|le|la|les|des) |l['’]\p{L})/u, ask: (m) => (NOT_NAMES.test(m[1]) ? undefined : `Qu'est-ce ${/^[aeiouyéèêàâîôûh]/iu.test(m[1]) ? "qu'" : "que "}${m[1]} ?`) },
    // « PAM offre un mécanisme … » → « À quoi sert PAM ? » (a name doing what it is for)
    { shape: /^(\p{Lu}[\p{L}\p{N}._+-]*(?:\(\d\))?) (?:fournit|offre|permet|gère|crée|stocke|vérifie|contrôle|démarre|surveille|chiffre|sauvegarde|installe|synchronise|propose) (?:le|la|les|un|une|des|l['’]|de|d['’])/u, ask: (m) => (NOT_NAMES.test(m[1]) ? undefined : `À quoi sert ${m[1]} ?`) },
    // « Vous pouvez configurer le système CUPS en pointant … » → « Comment configurer le système CUPS ? » (not
    // « être » or « avoir », which say no action; « en » only before a gerund: « revenir en arrière » is one verb)
    // The impersonal « On peut … » says the same (the French manual's « On peut obtenir … avec … »).
    { shape: /^(?:Vous pouvez|On peut) ((?:se |s['’])?\p{L}+(?:er|ir|re|oir)(?: [\p{L}\p{N}'’-]+){0,7}) (?:en \p{L}+ant|avec|à l['’]aide d|grâce à)\b/iu, ask: (m) => (/^(être|avoir)\b/i.test(m[1]) || POINTS_BACK.test(m[1]) ? undefined : `Comment ${m[1]} ?`) },
    // « Si vous voulez rechercher les dépendances d'un paquet de manière récursive, utilisez … » → « Comment rechercher
    // les dépendances d'un paquet de manière récursive ? »
    { shape: /^Si vous (?:voulez|souhaitez|désirez|devez) ((?:se |s['’])?\p{L}+(?:er|ir|re|oir)(?: [\p{L}\p{N}'’-]+){0,7}), (?!(?:lisez|consultez|voyez|voir|reportez-vous)\b)/iu, ask: (m) => (/^(être|avoir)\b/i.test(m[1]) || POINTS_BACK.test(m[1]) ? undefined : `Comment ${m[1]} ?`) },
  ],
  angleMaterial: [
    {
      angle: "problems",
      qualifiers: /^(courante?s?|fréquente?s?|classiques?|typiques?|principa(?:l|les|ux))$/iu,
      asks: /(?<![\p{L}])(erreurs?|pièges?|problèmes?|éviter|fautes?|jamais)(?![\p{L}])/iu,
      serves: /(?<![\p{L}])(trop|jamais|ne|n['’]\p{L}+|pas|éviter|évite\w*|sans|mal|abîm\p{L}*|endommag\p{L}*|risques?|excessi\p{L}*|excès)(?![\p{L}])/iu,
    },
    {
      angle: "start",
      asks: /(?<![\p{L}])(débuter|débutants?|commencer|premiers? pas|première fois|pour commencer|démarrer|démarrage|introduction|bases|(?:à partir )?de zéro)(?![\p{L}])/iu,
      placed: /(?<![\p{L}])(démarrage rapide|premiers pas|introduction|pour commencer|bien commencer|bases|aperçu|tutoriel|débutants?)(?![\p{L}])/iu,
      query: "démarrage rapide introduction premiers pas bases",
    },
  ],
  exampleMarkers: /(?<![\p{L}])(par exemple|p\. ex\.)/iu,
  asideOpener: /^(veuillez )?(notez|remarquez|rappelez-vous|gardez à l'esprit|sachez) que(?![\p{L}])|^(note|remarque)\s?:/iu,
  demonstratives: new Set("cet cette ces ceci cela".split(" ")),
  determiners: new Set("le la les l un une des du au aux ce cet cette ces son sa ses leur leurs votre vos notre nos chaque".split(" ")),
  sentences: {
    dependentOpeners: new Set(["il", "elle", "ils", "elles", "ce", "cela", "ceci", "ça", "ces", "cette", "leur", "leurs", "son", "sa", "ses", "c'est", "c’est", "c'était", "c’était"]),
    firstPerson: /(^|[^\p{L}])(je|j['’]\p{L}+|moi|moi-même|mon|ma|mes)(?![\p{L}-])/iu,
    infinitiveOpener: /^\p{Lu}\p{Ll}+(er|ir|re|oir)$/u,
    finite: /\b(est|sont|était|étaient|sera|seront|serait|a|ont|avait|peut|peuvent|pourrait|doit|doivent|devrait|permet|permettent|faut|fait|font|va|vont|reste|restent|devient|semble|rend|rendent|évite|garantit|suffit|demande|nécessite|consiste|signifie|vous|nous|on)\b/i,
    boilerplate: /\b(voici|ci-dessous|ci-dessus|suivant(e|es|s)?|comme suit|comme (indiqué|montré)|cliquez|ce (chapitre|document|manuel)|cette (section|page)|section \d|chapitre \d|voyons)|^voir\b/i,
    sendsTo: /^([^,]{0,80},\s*)?(veuillez\s+)?(lisez|lire|consultez|voyez|reportez-vous)\b|\bvous (devriez|pouvez|devez) (lire|consulter)\b|\b(est|sont) (décrite?s?|documentée?s?|expliquée?s?) dans\b|\bvous trouverez (plus de |davantage de |d'autres |d’autres |les )?(détails|informations|précisions)\b/i,
    announcesList: /^(il (existe|y a)|on (distingue|trouve)) (deux|trois|quatre|cinq|six|sept|huit|neuf|dix|plusieurs|quelques|\d+) /iu,
    documentation: /\b(documentation|manuel|guide|readme|howto|faq|norme|notes de publication)\b/i,
    // « ce dernier », « de cette manière », « l’exemple précédent », « ci-dessus »: what was said before.
    antecedent: /(?<![\p{L}])((ce|cette|ces) derni(er|ère|ers|ères)|de cette (manière|façon)|(l['’]|les? |la )(exemple|section|commande|étape|paragraphe|chapitre)s? précédente?s?|ci-dessus)(?![\p{L}])|^(?!.*(?<![\p{L}])(?:ne|n['’]|pas|jamais)(?![\p{L}])).*(?<![\p{L}])(à la place|au lieu de cela)(?! (de|du|des|d['’]))/iu,
    // « tel », « tels » point back as "such" does (« de tels privilèges »), except « tel que », which points forward.
    anaphora: new Set(["il", "elle", "ils", "elles", "eux", "celui", "celle", "ceux", "celles", "tel", "telle", "tels", "telles"]),
    forwardPhrases: /(?<![\p{L}])tel(?:le)?s? qu(?:e|['’])/giu,
    descriptionIsSentence: opensInUpperCase,
    notInfinitives: FRENCH_NOT_INFINITIVES,
    // « Les utiliser … », and « … avant de les installer. » with nothing plural before it.
    leansBack: (sentence) => objectPronounFirst(sentence) || pluralPronounWithoutAntecedent(sentence, "fr", PLURAL_PRONOUN),
    imperative: (sentence) => /^(?!Chez(?![\p{L}]))\p{Lu}\p{Ll}+ez(?![\p{L}])/u.test(sentence),
    afterSteps: /(?<![\p{L}])maintenant(?![\p{L}])/iu,
    answerOpeners: /^(?:(?:oui|non)(?=[,.!;:])|la (?:courte )?réponse(?![\p{L}])|eh bien\b)/u,
    connectiveOpeners: /^(de même|aussi|ou|alternativement|une autre|un autre|également|cependant|toutefois|pourtant|néanmoins|ainsi|donc|sinon|par ailleurs|en outre|de plus|qui plus est|par conséquent|en revanche|au contraire|dans ce cas|pour cette raison|d['’]autre part|d['’]un autre côté|de l['’]autre côté|enfin|alors|mais|et)(?![\p{L}\p{N}])/u,
    clausePointers: /^(ce(?! (que|qui|dont)\b)|cela|ceci|ça|ces|cette)(?![\p{L}\p{N}])/u,
    doingIt: /\b(le|l['’]) ?(faire|faites|fait|font|fais|ferez)\b(?! qu)/i,
    numberedSection: /(section|chapitre|annexe|tableau|figure) \d+(\.\d+)+|(?<![\p{L}])lignes? \d+(?![\p{L}\d])/iu,
    crossReference: /\b(voir|voyez|consultez|cf\.|section|chapitre|tableau|figure|annexe)\b/i,
  },
  phrases: {
    name: "French",
    conclusionHeading: "Conclusion",
    otherPointsHeading: "Autres points",
    and: "et",
    faqHeading: "Questions fréquentes",
    sourcesHeading: "Sources",
    knowledgeBaseLabel: "base de connaissances de la marque",
    overviewHeading: "{K} : vue d'ensemble",
    explained: /\s+expliqué(?:e|s|es)?$/iu,
    bodyHeadings: {
      informational: ["Pourquoi c'est important", "En pratique", "Les points essentiels", "Les erreurs à éviter", "Par où commencer", "À quoi s'attendre"],
      commercial: ["Les critères à vérifier", "Les options comparées", "Coûts et tarifs", "Comment choisir", "Les questions à poser avant de décider"],
      transactional: ["Ce que vous obtenez", "Coûts et formules", "Comment démarrer", "Ce qu'il faut préparer", "L'accompagnement après l'inscription"],
      navigational: ["Où le trouver", "Ce qu'il propose", "Comment obtenir de l'aide", "Prochaines étapes"],
    },
    titles: {
      informational: ["{K} : ce qu'il faut savoir", "{K} : un guide pratique", "{K} : les explications", "{K} : l'essentiel", "{K} : faits et conseils pratiques"],
      commercial: ["{K} : comment choisir", "{K} : options, coûts et compromis", "{K} : le guide d'achat", "{K} : le comparatif", "{K} : les critères qui comptent"],
      transactional: ["{K} : formules, coûts et démarrage", "Bien démarrer avec {K}", "{K} : ce que vous obtenez", "{K} : guide de démarrage rapide"],
      navigational: ["{K} : par où commencer", "{K} : vue d'ensemble", "{K} : l'essentiel", "{K} : s'y retrouver"],
    },
    // "Sujet de cet article : …" holds any noun phrase; "s'intéresse à {K}" would need "au", "aux" or an article.
    framing: "Sujet de cet article : {K}.",
    framingForAudience: "Sujet de cet article : {K}, pour {A}.",
    framingQuestion: "Cet article répond à la question : {K} ?",
    questions: {
      informational: ["Qu'est-ce que {K} ?", "Pourquoi {K} est-il important ?", "Comment fonctionne {K} ?", "Quels sont les avantages de {K} ?", "Comment débuter avec {K} ?"],
      commercial: ["Combien coûte {K} ?", "Quels critères pour choisir {K} ?", "Comment choisir {K} ?", "Quelles alternatives à {K} ?"],
      transactional: ["Comment démarrer avec {K} ?", "Combien coûte {K} ?", "Existe-t-il un essai gratuit de {K} ?", "Quel accompagnement pour {K} ?"],
      navigational: ["Qu'est-ce que {K} ?", "Où trouver {K} ?", "Comment obtenir de l'aide sur {K} ?"],
    },
    sectionQuestion: "Que faut-il savoir sur {H} ?",
    coverAltModel: "Illustration de l'article « {T} »",
    coverAltCard: "Visuel titre : « {T} »",
    keyPoints: "Points clés",
    threadOpener: "{T} — un fil",
    readMore: "Détails et sources dans l'article complet.",
  },
};
