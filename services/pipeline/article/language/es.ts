import { wordsOf } from "../../../../shared/text/segment";
import { isStopword } from "../../../../shared/text/stopwords";
import { pluralPronounWithoutAntecedent, type PluralPronoun } from "./clitics";
import { opensInUpperCase, type LanguageProfile } from "./profile";

/** Capitalised sentence openers that are no name: pronouns, demonstratives and adverbs. */
const NOT_NAMES = /^(Esto|Este|Esta|Estos|Estas|Eso|Esa|Ese|Ello|Él|Ella|Ellos|Ellas|Aquí|Allí|Hay|Lo|Que|Quien|Todo|Cada|Nada|Uno|Una|Se|Si|No|También)$/;

/** Words that make a question point outside itself («¿Cómo deshacer estos cambios?»): an FAQ question must stand alone. */
const POINTS_BACK = /(?<![\p{L}])(este|esta|estos|estas|esto|ese|esa|esos|esas|eso|su|sus|ello|ellos|ellas|similar(?:es)?|parecid[oa]s?|mism[oa]s?)(?![\p{L}])/iu;


/** Words of an infinitive's shape (-ar, -er, -ir) that are none. */
const SPANISH_NOT_INFINITIVES: ReadonlySet<string> = new Set(
  "cualquier lugar par mar hogar ayer mujer primer tercer similar particular popular regular militar familiar nuclear modular singular titular circular polar solar escolar celular auxiliar".split(" "),
);

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
  const infinitive = (w: string, i: number) => /\p{L}{2,}(ar|er|ir)(se|la|lo|las|los|le|les)?$/u.test(w) && !SPANISH_NOT_INFINITIVES.has(w) && !SPANISH_PREPOSITIONS.has(words[i - 1] ?? "");
  return !words.slice(1, 9).some((w, i) => infinitive(w, i + 1));
}

/** What opens a verb's object ("reduce la evaporación", "estimula a la planta", "cambia su modo"). */
const SPANISH_OBJECT_OPENERS = new Set("el la los las un una unos unas a su sus este esta estos estas lo".split(" "));
/** Prepositions in -e the stopword list does not hold ("mediante un CD"). */
const SPANISH_E_PREPOSITIONS = new Set(["mediante", "durante", "ante", "excepto", "salvo"]);
/** Function words that stand before a verb ("no reduce", "ya permite"); every other one (an article: "la planta") stands before a noun. */
const SPANISH_VERB_ADVERBS = new Set(["no", "se", "nunca", "también", "ya", "más", "siempre"]);

/**
 * After an infinitive subject, a word in -a, -e, -an or -en that is no function word, infinitive or preposition,
 * stands after no function word but an adverb and before what opens an object: "Regar por la mañana temprano
 * reduce la evaporación …", "Cosechar los calabacines pequeños estimula a la planta …", "Escribir ":" en modo
 * NORMAL cambia su modo …". Over the Spanish manual it turns one heading-like line into a sentence; the labels
 * ("Iniciar el sistema mediante un CD …", "Cambiar la propiedad y los permisos …") stay labels.
 */
function spanishFiniteAt(words: readonly string[]): boolean {
  for (let i = 2; i < words.length - 1; i++) {
    const word = words[i];
    const lower = word.toLowerCase();
    if (!/^\p{Ll}+(a|e|an|en)$/u.test(word) || /(ar|er|ir)$/.test(lower) || SPANISH_E_PREPOSITIONS.has(lower) || isStopword(lower, "es")) continue;
    const before = words[i - 1].toLowerCase();
    if (isStopword(before, "es") && !SPANISH_VERB_ADVERBS.has(before)) continue;
    if (SPANISH_OBJECT_OPENERS.has(words[i + 1].toLowerCase())) return true;
  }
  return false;
}

/** "-los" and "-las" on an infinitive or a gerund ("usarlos", "configurándolas"). */
const PLURAL_PRONOUN: PluralPronoun = {
  pronoun: /(?<![\p{L}])\p{L}{2,}(?:ar|er|ir|ár|ér|ír|ando|iendo)(?:los|las)(?![\p{L}])/iu,
  notPlurals: new Set("antes después además menos través mientras entonces jamás apenas quizás detrás encima debajo".split(" ")),
};

export const SPANISH: LanguageProfile = {
  code: "es",
  name: "Spanish",
  angleWords: `cómo como qué que por porqué cuándo cuando dónde donde cuál cuáles quién puede pueden puedo poder debe deben
    debo hacer hace empezar empieza comenzar comienza iniciar principiante principiantes primero primeros primera primer
    paso pasos guía guías tutorial consejo consejos truco trucos idea ideas forma formas manera maneras mejor mejores
    buen buena buenas buenos práctica prácticas práctico error errores evitar común comunes frecuente frecuentes simple
    sencillo fácil rápido completo completa esencial básico básicos básica introducción resumen entender saber todo
    conocer aprender versus contra comparación comparar diferencia diferencias ventaja ventajas desventaja desventajas
    razón razones importante usar uso utilizar poner elegir escoger mantener tomar ayudar realmente siempre menudo
    ejemplo ejemplos lista pregunta preguntas respuesta respuestas nuevo nueva moderno
    mantenimiento cuidar cuidado correctamente bien visión general gestionar gestión administrar
    reducir mejore mejorar aumentar ahorrar acelerar rápido rápida fácilmente
    funciona funcionan funcionar funcionamiento necesitas necesita necesitan necesitar
    vez veces lidiar afrontar enfrentar combatir preparar explicado explicada explicados explicadas explicación explicar cero crear creando`,
  furtherReading: /^(más|otras) (lecturas|referencias|información|recursos)\b|^(lecturas adicionales|referencias|véase también|bibliografía|enlaces externos)$/iu,
  relationalQuestion: /^¿Qué (es|son) (el|la|los|las|lo) ([\p{L}\p{N}-]+ )?(parte|alternativa|diferencia|solución|problema|razón|motivo|resultado|resto|respuesta|idea|caso|situación|escenario|ejemplo|enfoque|forma|manera|opción|elección|otro|otra)(s|es)? ?\?$|(?<![\p{L}])(el|la|este|esta|ese|esa) (problema|situación|caso|cuestión|diferencia|alternativa|resto) ?\?$/iu,
  placeWords: /(?<![\p{L}])(segund[oa]s?|tercer[oa]?s?|cuart[oa]s?|quint[oa]s?|sext[oa]s?|séptim[oa]s?|octav[oa]s?|noven[oa]s?|décim[oa]s?)(?![\p{L}])/iu,
  faqShapes: [
    // «Para instalar un paquete, use …» → «¿Cómo instalar un paquete?»
    // (an infinitive only, "se" attached at most: «Para actualizaciones parciales, …» asks nothing, and
    // «Para configurarlo, …» asks about what "lo" stood for)
    { shape: /^Para (\p{L}+(?:ar|er|ir)(?:se)?(?: [\p{L}\p{N}'’-]+){0,7}), /iu, ask: (m) => `¿Cómo ${m[1]}?` },
    // «El paquete es un …» → «¿Qué es el paquete?»
    { shape: /^((?:El|La|Los|Las|Un|Una) (?:[\p{L}\p{N}'’-]+ ){0,3}[\p{L}\p{N}'’-]+) (es|son) (?:un|una|el|la|los|las) /u, ask: (m) => `¿Qué ${m[2]} ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)}?` },
    // «Aptitude es una herramienta …» → «¿Qué es Aptitude?» (a name: one capitalised word, not a pronoun)
    { shape: /^(\p{Lu}[\p{L}\p{N}._+-]*) (es|son) (?:un|una|el|la|los|las) /u, ask: (m) => (NOT_NAMES.test(m[1]) ? undefined : `¿Qué ${m[2]} ${m[1]}?`) },
    // «NSS ofrece un mecanismo …» → «¿Para qué sirve NSS?» (a name doing what it is for)
    { shape: /^(\p{Lu}[\p{L}\p{N}._+-]*(?:\(\d\))?) (?:proporciona|ofrece|permite|gestiona|crea|almacena|comprueba|controla|inicia|supervisa|cifra|instala|sincroniza) (?:el|la|los|las|un|una|al|a)\b/u, ask: (m) => (NOT_NAMES.test(m[1]) ? undefined : `¿Para qué sirve ${m[1]}?`) },
    // «Puede deshabilitar ibus usando im-config …» → «¿Cómo deshabilitar ibus?» (not «ser» or «estar», which say
    // no action; a gerund before the means belongs to another clause: «configurar su sistema accediendo mediante …»)
    // The impersonal «Se puede …» says the same.
    { shape: /^(?:Usted p|P|Se p)uede (\p{L}+(?:ar|er|ir)(?:se)?(?: [\p{L}\p{N}'’-]+){0,7}) (?:mediante|usando|utilizando|con|por medio de) /u, ask: (m) => (/^(ser|estar|haber|tener)\b/i.test(m[1]) || /ndo$/.test(m[1]) || POINTS_BACK.test(m[1]) ? undefined : `¿Cómo ${m[1]}?`) },
    // "Si quiere buscar las dependencias de un paquete de forma recursiva, use …" → "¿Cómo buscar las dependencias de
    // un paquete de forma recursiva?"
    // (Spanish spells more function words than English: up to nine words after the infinitive.)
    { shape: /^Si (?:usted )?(?:quiere|desea|necesita) (\p{L}+(?:ar|er|ir)(?:se)?(?: [\p{L}\p{N}'’-]+){0,9}), (?!(?:lea|consulte|vea|revise)\b)/u, ask: (m) => (/^(ser|estar|haber|tener)\b/i.test(m[1]) || POINTS_BACK.test(m[1]) ? undefined : `¿Cómo ${m[1]}?`) },
  ],
  angleMaterial: [
    {
      angle: "problems",
      qualifiers: /^(comunes|común|frecuentes?|típicos?|típicas?|habituales?|principales)$/iu,
      asks: /(?<![\p{L}])(errores?|problemas?|evitar|fallos?|nunca)(?![\p{L}])/iu,
      serves: /(?<![\p{L}])(demasiad\p{L}*|nunca|no|sin|evit\p{L}*|mal|dañ\p{L}*|riesgos?|rompe\p{L}*|fall\p{L}*)(?![\p{L}])/iu,
    },
    {
      angle: "start",
      asks: /(?<![\p{L}])(empezar|comenzar|principiantes?|primeros pasos|por primera vez|primera vez|desde cero|introducción|conceptos básicos|inicio rápido|iniciarse)(?![\p{L}])/iu,
      placed: /(?<![\p{L}])(inicio rápido|introducción|primeros pasos|conceptos básicos|empezando|guía rápida|para empezar|principiantes?)(?![\p{L}])/iu,
      query: "inicio rápido introducción primeros pasos conceptos básicos",
    },
  ],
  exampleMarkers: /(?<![\p{L}])(por ejemplo|p\.\s?ej\.)/iu,
  asideOpener: /^(tenga|ten|tengan) en cuenta|^(observ[ae]|f[íi]j[ae]te|n[óo]te(se)?|recuerd[ae]) que(?![\p{L}])/iu,
  demonstratives: new Set("este esta estos estas ese esa esos esas aquel aquella aquellos aquellas".split(" ")),
  determiners: new Set("el la los las un una unos unas del al este esta estos estas su sus cada".split(" ")),
  sentences: {
    // Spanish drops the subject: an opening object pronoun ("Nos permiten …") points back as well.
    // A verb in the third person opening the sentence has its subject in the one before ("Proporciona la oportunidad…").
    dependentOpeners: new Set(["esto", "esta", "este", "estos", "estas", "ello", "su", "sus", "ellos", "ellas", "nos", "les", "proporciona", "proporcionan", "permite", "permiten", "tiene", "tienen", "ofrece", "ofrecen", "incluye", "incluyen", "contiene", "contienen", "requiere", "requieren", "necesita", "necesitan", "funciona", "funcionan", "soporta", "soportan", "gestiona", "gestionan", "muestra", "muestran", "genera", "generan", "guarda", "guardan", "realiza", "realizan", "utiliza", "utilizan", "usa", "usan"]),
    // …and the first person singular of the future, which no other person shares ("Pasaré por encima …", "explicaré").
    firstPerson: /(^|[^\p{L}])(yo|mi|mis|me|conmigo|recomiendo|utilizo|prefiero|creo|pienso|sugiero|tengo|hago|necesito|instalo|reinstalo|\p{L}{2,}(?:aré|eré|iré))(?![\p{L}-])/iu,
    infinitiveOpener: /^\p{Lu}\p{Ll}+(ar|er|ir)$/u,
    finiteAt: spanishFiniteAt,
    finite: /\b(es|son|era|eran|será|serán|sería|está|están|puede|pueden|podría|debe|deben|debería|permite|permiten|hay|tiene|tienen|hace|hacen|requiere|requieren|resulta|ayuda|sirve|supone|implica|consiste|significa|evita|garantiza|basta)\b/i,
    boilerplate: /\b(a continuación|siguientes?|como sigue|véase|vea|haga clic|este (capítulo|documento|manual)|esta (sección|página)|sección \d|capítulo \d|como se muestra|(descrit[oa]s?|mencionad[oa]s?|explicad[oa]s?) anteriormente|más (abajo|arriba))|^(aquí (está|están|estan|esta|tiene|hay)|revisemos|veamos|permítanos|permitanos)(?![\p{L}])/iu,
    sendsTo: /^([^,]{0,80},\s*)?(consulte|lea|vea|revise)\b|\b(debería|puede) (leer|consultar)\b|\b(es|está|son|están) (descrit[oa]s?|documentad[oa]s?|explicad[oa]s?) en\b|\bse (describe|documenta|explica) en\b|(?<![\p{L}])encontrará (más |mayores )?(detalles|información)(?![\p{L}])/iu,
    announcesList: /^(existen|hay) (dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|varios|varias|algunos|algunas|\d+) /iu,
    documentation: /(?<![\p{L}])(documentación|documentos?|manual|guía|readme|howto|faq|estándar|especificación|notas de publicación)(?![\p{L}])/iu,
    // «este último», «de esta manera», «el ejemplo anterior», «más arriba»: what was said before.
    antecedent: /(?<![\p{L}])((est|es)[eao]s? últim[oa]s?|lo anterior|de (esta|esa) (manera|forma)|de (este|ese) modo|(el|los|la|las) (ejemplo|sección|orden|paso|capítulo)s? (anterior|previo)(es)?|(de|más) arriba)(?![\p{L}])|^(?!.*(?<![\p{L}])(?:no|nunca)(?![\p{L}])).*(?<![\p{L}])(en su lugar(?! de)|en lugar de (eso|ello))(?![\p{L}])/iu,
    anaphora: new Set(["él", "ella", "ellos", "ellas", "estos", "estas", "dicho", "dicha"]),
    descriptionIsSentence: opensInUpperCase,
    notInfinitives: SPANISH_NOT_INFINITIVES,
    // A copula without its subject, and "-los" / "-las" with nothing plural before them ("Compruebe BTS antes de usarlos.").
    leansBack: (sentence) => copulaWithoutSubject(sentence) || pluralPronounWithoutAntecedent(sentence, "es", PLURAL_PRONOUN),
    afterSteps: /(?<![\p{L}])ahora(?![\p{L}])/iu,
    answerOpeners: /^(?:(?:sí|no)(?=[,.!;:])|la (?:respuesta|contestación)(?![\p{L}]))/u,
    connectiveOpeners: /^(asimismo|también|tampoco|o|alternativamente|otra|otro|además|más aún|sin embargo|no obstante|por tanto|por lo tanto|por consiguiente|así|de lo contrario|igualmente|del mismo modo|de igual modo|por otra parte|por otro lado|en cambio|en ese caso|en este caso|por eso|por ello|entonces|aun así|pero|es decir|es más|y)(?![\p{L}\p{N}])/u,
    clausePointers: /^(esto|eso|ello|estos|estas|esos|esas)(?![\p{L}\p{N}])/u,
    doingIt: /\b(hacerlo|hacerla|haciéndolo|lo hace|lo hacen|lo haga|lo hizo)\b/i,
    numberedSection: /(sección|capítulo|apéndice|tabla|figura) \d+(\.\d+)+|(?<![\p{L}])líneas? \d+(?![\p{L}\d])/iu,
    crossReference: /\b(véase|vea|consulte|ver|cf\.|sección|capítulo|tabla|figura|apéndice)\b/i,
  },
  phrases: {
    name: "Spanish",
    conclusionHeading: "Conclusión",
    otherPointsHeading: "Otros puntos",
    and: "y",
    faqHeading: "Preguntas frecuentes",
    sourcesHeading: "Fuentes",
    knowledgeBaseLabel: "base de conocimiento de la marca",
    overviewHeading: "{K}: una visión general",
    explained: /\s+explicad[oa]s?$/iu,
    bodyHeadings: {
      informational: ["Por qué es importante", "En la práctica", "Aspectos clave", "Errores comunes que conviene evitar", "Cómo empezar", "Qué esperar"],
      commercial: ["Qué tener en cuenta", "Opciones comparadas", "Costes y precios", "Cómo elegir", "Preguntas antes de decidir"],
      transactional: ["Qué obtienes", "Costes y planes", "Cómo empezar", "Qué preparar", "Soporte después del alta"],
      navigational: ["Dónde encontrarlo", "Qué ofrece", "Cómo obtener ayuda", "Próximos pasos"],
    },
    titles: {
      informational: ["{K}: lo que necesitas saber", "{K}: una guía práctica", "{K} en detalle", "{K}: lo esencial", "{K}: datos clave y consejos prácticos"],
      commercial: ["{K}: cómo elegir", "{K}: opciones, costes y ventajas", "{K}: guía de compra", "{K}: comparativa", "{K}: qué tener en cuenta"],
      transactional: ["{K}: planes, costes y cómo empezar", "Cómo empezar con {K}", "{K}: qué obtienes", "{K}: guía de inicio rápido"],
      navigational: ["{K}: por dónde empezar", "{K}: una visión general", "{K}: lo esencial", "{K}: cómo orientarse"],
    },
    framing: "Este artículo trata sobre {K}.",
    framingForAudience: "Este artículo trata sobre {K} para {A}.",
    framingQuestion: "Este artículo responde a la pregunta: ¿{K}?",
    questions: {
      informational: ["¿Qué es {K}?", "¿Por qué es importante {K}?", "¿Cómo funciona {K}?", "¿Qué ventajas tiene {K}?", "¿Cómo empezar con {K}?"],
      commercial: ["¿Cuánto cuesta {K}?", "¿Qué tener en cuenta al elegir {K}?", "¿Cómo elegir {K}?", "¿Qué alternativas hay a {K}?"],
      transactional: ["¿Cómo empezar con {K}?", "¿Cuánto cuesta {K}?", "¿Hay una prueba gratuita de {K}?", "¿Qué soporte incluye {K}?"],
      navigational: ["¿Qué es {K}?", "¿Dónde encontrar {K}?", "¿Cómo obtener ayuda con {K}?"],
    },
    sectionQuestion: "¿Qué conviene saber sobre {H}?",
    coverAltModel: "Ilustración del artículo «{T}»",
    coverAltCard: "Imagen de portada con el título «{T}»",
    keyPoints: "Puntos clave",
    threadOpener: "{T}: un hilo",
    readMore: "Detalles y fuentes en el artículo completo.",
  },
};
