import { languageProfile, type SupportedLanguage } from "./index";
import type { SearchIntent } from "../types";

/**
 * The words the pipeline itself adds to an article (headings, connectives, FAQ questions, labels), per
 * language. English, German, French and Spanish are written out; other languages fall back to English
 * for these few words (the model writer, when configured, writes headings and questions in any language,
 * and the language-consistency score reports what leaked).
 *
 * Templates: {K} the keyword, {T} the topic, {H} a heading, {A} the audience, {B} the brand.
 */
export interface LanguagePack {
  name: string;
  conclusionHeading: string;
  faqHeading: string;
  sourcesHeading: string;
  /** How a knowledge-base source without a public address is named in the source list. */
  knowledgeBaseLabel: string;
  /** Added before the first sentence of a paragraph that is not the first of its section. */
  connectives: string[];
  /** Added before the first sentence of the conclusion. */
  conclusionLead: string;
  /** Whether the sentence after a connective starts in lower case when its first word is a function word. */
  lowercaseAfterConnective: boolean;
  /** The first body heading: it carries the keyword (SEO) and opens the subject. */
  overviewHeading: string;
  /** Body headings by intent; those with {K} are used only when the keyword is a noun phrase (`keywordFitsTemplates`). */
  bodyHeadings: Record<SearchIntent, string[]>;
  titles: Record<SearchIntent, string[]>;
  /** The sentence that names the subject in the first paragraph when the evidence does not. No facts in it. */
  framing: string;
  framingForAudience: string;
  questions: Record<SearchIntent, string[]>;
  sectionQuestion: string;
  coverAltModel: string;
  coverAltCard: string;
  keyPoints: string;
  threadOpener: string;
  readMore: string;
}

const EN: LanguagePack = {
  name: "English",
  conclusionHeading: "Conclusion",
  faqHeading: "Frequently asked questions",
  sourcesHeading: "Sources",
  knowledgeBaseLabel: "brand knowledge base",
  connectives: ["In addition, ", "On top of this, "],
  conclusionLead: "In short, ",
  lowercaseAfterConnective: true,
  overviewHeading: "{K}: an overview",
  bodyHeadings: {
    informational: ["Why {K} matters", "How {K} works in practice", "Key considerations", "Common mistakes to avoid", "Getting started", "What to expect"],
    commercial: ["What to look for", "Options compared", "Costs and pricing", "How to choose", "What customers say", "Questions to ask before you decide"],
    transactional: ["What you get", "Costs and plans", "How to get started", "What to prepare", "Support after you sign up"],
    navigational: ["Where to find it", "What it offers", "How to get help", "Next steps"],
  },
  titles: {
    informational: ["{K}: what you need to know", "A practical guide to {K}", "{K} explained", "Understanding {K}: the essentials", "{K}: key facts and practical advice"],
    commercial: ["{K}: how to choose", "{K}: options, costs and trade-offs", "Choosing {K}: a buyer's guide", "{K} compared", "{K}: what to look for"],
    transactional: ["{K}: plans, costs and how to start", "Getting started with {K}", "{K}: what you get", "{K}: a quick start guide"],
    navigational: ["{K}: where to start", "{K}: an overview", "{K}: the essentials", "Finding your way around {K}"],
  },
  framing: "This article looks at {K}.",
  framingForAudience: "This article looks at {K} for {A}.",
  questions: {
    informational: ["What is {K}?", "Why does {K} matter?", "How does {K} work?", "What are the benefits of {K}?", "How do you get started with {K}?"],
    commercial: ["How much does {K} cost?", "What should you look for in {K}?", "How do you choose {K}?", "What are the alternatives for {K}?"],
    transactional: ["How do you get started with {K}?", "How much does {K} cost?", "Is there a free trial for {K}?", "What support comes with {K}?"],
    navigational: ["What is {K}?", "Where can you find {K}?", "How do you get help with {K}?"],
  },
  sectionQuestion: "What should you know about {H}?",
  coverAltModel: "Illustration for the article “{T}”",
  coverAltCard: "Title card reading “{T}”",
  keyPoints: "Key points",
  threadOpener: "{T} — a thread",
  readMore: "Read the full article for details and sources.",
};

const DE: LanguagePack = {
  name: "German",
  conclusionHeading: "Fazit",
  faqHeading: "Häufige Fragen",
  sourcesHeading: "Quellen",
  knowledgeBaseLabel: "Wissensbasis der Marke",
  // German puts the verb second after an adverb ("Zudem ist …"): a colon keeps the quoted sentence intact.
  connectives: ["Zudem gilt: ", "Darüber hinaus gilt: ", "Außerdem: "],
  conclusionLead: "Kurz gesagt: ",
  lowercaseAfterConnective: false,
  overviewHeading: "{K}: ein Überblick",
  bodyHeadings: {
    informational: ["Warum {K} wichtig ist", "So funktioniert {K} in der Praxis", "Worauf es ankommt", "Häufige Fehler", "Der Einstieg", "Was Sie erwarten können"],
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
};

const FR: LanguagePack = {
  name: "French",
  conclusionHeading: "Conclusion",
  faqHeading: "Questions fréquentes",
  sourcesHeading: "Sources",
  knowledgeBaseLabel: "base de connaissances de la marque",
  connectives: ["De plus, ", "Par ailleurs, ", "En outre, ", "À noter également : "],
  conclusionLead: "En résumé, ",
  lowercaseAfterConnective: true,
  overviewHeading: "{K} : vue d'ensemble",
  bodyHeadings: {
    informational: ["Pourquoi {K} compte", "{K} en pratique", "Les points essentiels", "Les erreurs à éviter", "Par où commencer", "À quoi s'attendre"],
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
};

const ES: LanguagePack = {
  name: "Spanish",
  conclusionHeading: "Conclusión",
  faqHeading: "Preguntas frecuentes",
  sourcesHeading: "Fuentes",
  knowledgeBaseLabel: "base de conocimiento de la marca",
  connectives: ["Además, ", "Por otra parte, ", "También conviene saber que "],
  conclusionLead: "En resumen, ",
  lowercaseAfterConnective: true,
  overviewHeading: "{K}: una visión general",
  bodyHeadings: {
    informational: ["Por qué importa {K}", "Cómo funciona {K} en la práctica", "Aspectos clave", "Errores comunes que conviene evitar", "Cómo empezar", "Qué esperar"],
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
};

const PACKS: Record<SupportedLanguage, LanguagePack> = { en: EN, de: DE, fr: FR, es: ES };

export function languagePack(lang: string): LanguagePack {
  return PACKS[languageProfile(lang).code];
}

/** Fills a template: {K} keyword, {T} topic/title, {H} heading, {A} audience, {B} brand. */
export function fill(template: string, values: Partial<Record<"K" | "T" | "H" | "A" | "B", string>>): string {
  return template.replace(/\{([KTHAB])\}/g, (_, key: "K" | "T" | "H" | "A" | "B") => values[key] ?? "");
}

/** A string with its first letter in upper case (templates that start with the keyword). */
export function capitalizeFirst(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

/** Question words that open a clause in the four languages: such a keyword is no noun phrase for a template. */
const CLAUSE_OPENERS = /^(how|why|what|when|where|which|who|can|should|is|are|do|does|wie|warum|was|wann|wo|welche[rsn]?|wer|kann|sollte|comment|pourquoi|quand|où|quel(le)?s?|qu'|qui|est-ce|c[oó]mo|por qu[eé]|qu[eé]|cu[aá]ndo|d[oó]nde|cu[aá]l(es)?|qui[eé]n)\b/i;

/**
 * Whether a keyword reads as a noun phrase that a template can hold ("{K}: an overview", "What is {K}?"):
 * not a clause or question in any of the four languages, not over six words. Otherwise templates would say
 * "How How retailers…" or "Why How … matters".
 */
export function keywordFitsTemplates(keyword: string): boolean {
  const k = keyword.trim();
  return !CLAUSE_OPENERS.test(k) && !/[?¿]/.test(k) && k.split(/\s+/).length <= 6;
}

/** A word written twice in a row ("How How …"), with its repeats. */
const DOUBLED_WORD = /\b(\p{L}+)(\s+\1\b)+/iu;
const DOUBLED_WORDS = new RegExp(DOUBLED_WORD.source, "giu");

/** Whether a text writes a word twice in a row ("How How …"): what `tidyHeading` removes. */
export function hasDoubledWord(text: string): boolean {
  return DOUBLED_WORD.test(text);
}

/** A heading without doubled words ("How How …") or trailing punctuation. */
export function tidyHeading(heading: string): string {
  return heading
    .replace(DOUBLED_WORDS, "$1")
    .replace(/\s+/g, " ")
    .replace(/[\s.:;,]+$/, "")
    .trim();
}
