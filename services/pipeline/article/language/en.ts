import { isStopword } from "../../../../shared/text/stopwords";
import { opensInUpperCase, type LanguageProfile } from "./profile";

/** What follows a leading "To" without being a procedure. */
const NOT_PROCEDURES = /^(date|sum|conclude|summari[sz]e|be|this|that|these|those|the|a|an|some|my|our|your|its|their|me|us|them|him|her|what|which|whom)\b/i;


/** Sentence openers of an imperative's shape that are none: subordinators and adverbs the stopword list lacks. */
const NOT_IMPERATIVES = new Set(["although", "since", "despite", "sometimes", "generally", "once", "unless", "whereas", "though", "however", "therefore", "thus", "hence", "also", "often", "usually", "normally", "typically"]);

/**
 * What a question made of a sentence's words cannot carry: what they point back to ("this", "it"), or what is only
 * like it ("You can get similar information with …" is similar to what the sentence before said). French, German
 * and Spanish name theirs `POINTS_BACK` too.
 */
const POINTS_BACK = /\b(this|that|these|those|it|them|such|similar|same)\b/i;

/**
 * A verb in -s opening the sentence, before what its object opens with: the subject is the line before, a term
 * a reference manual defines ("--stacks=<yes|no> [default: no]" above "Specifies whether stack profiling should
 * be done.", a function's name above "Returns the number of errors found so far."). Read alone it names nothing
 * (readers of the Valgrind manual's articles, 2026-11-28). Not a plural noun ("Programs which …"), nor an adverb
 * in -s (`NOT_VERBS_IN_S`); counted over the English manuals of the benches, the openers were all verbs otherwise.
 */
const SUBJECTLESS = /^(\p{Lu}\p{Ll}{2,}(?<!s)s) (?:the|a|an|whether|how|what|if|its|their|all|any|each|every|one|two|more|less|no)\b/u;
const NOT_VERBS_IN_S = new Set(["sometimes", "besides", "perhaps", "this", "thus", "always", "unless", "whereas", "nevertheless", "afterwards", "towards", "regardless", "was", "has", "does", "is"]);
function opensWithoutSubject(sentence: string): boolean {
  const m = SUBJECTLESS.exec(sentence);
  return Boolean(m) && !NOT_VERBS_IN_S.has(m![1].toLowerCase());
}

/**
 * An English imperative has no form of its own, so its place tells: a capitalised word that is no function word,
 * gerund, participle, adverb or plural ("Edit", "Install", "Mount"; not "After", "Using", "Users"), followed by
 * what opens its object ("the", "your", a quoted path). Over the English manual this finds 82 usable sentences,
 * about one in ten a noun or a name ("Aptitude", "Microsoft"); such a miss only joins a "now" after it as a step's
 * result (`afterSteps`).
 */
function tellsToDo(sentence: string): boolean {
  // …or a two-word step of a numbered procedure ("Reboot system.", "Press Enter.").
  const m = /^(\p{Lu}\p{Ll}+) (?:the|a|an|your|its|their|this|these|that|those|all|each|every|["“/~.-]|[\p{L}-]+\.$)/u.exec(sentence);
  if (!m) return false;
  const word = m[1].toLowerCase();
  return !isStopword(word, "en") && !NOT_IMPERATIVES.has(word) && !/(ing|ed|ly)$/.test(word) && !/[^s]s$/.test(word);
}

export const ENGLISH: LanguageProfile = {
  code: "en",
  name: "English",
  angleWords: `how what why when where which who whom whose can could should would will may might must do does did
    is are was were be been being have has had get gets getting got start starts starting started begin beginning begins
    beginner beginners novice novices newcomer newcomers first step steps guide guides guideline guidelines tutorial
    tutorials tip tips trick tricks advice hint hints idea ideas way ways best better good great top practice practices
    practical mistake mistakes error errors pitfall pitfalls avoid avoiding common simple easy quick complete ultimate
    essential essentials basic basics fundamentals introduction intro overview explained explain explaining understand
    understanding everything thing things need needs know knowing learn learning vs versus compared compare comparison
    difference differences pros cons benefit benefits advantage advantages disadvantage disadvantages reason reasons
    important importance matter matters use using used put putting make making made choose choosing pick keep keeping
    go going take taking let work works working right wrong really actually ever never always often lot lots
    much many more most less least kind kinds type types sort example examples checklist list faq questions question
    answer answers new modern today year manage managing management instead maintain maintaining maintenance properly correctly
    prepare preparing deal dealing cope coping tackle tackling fight fighting cut cutting reduce reducing improve improving increase increasing boost boosting save saving speed lower lowering grow growing faster smarter easier cheaper scratch create creates creating created
    set sets setting setup`,
  // "Installing Debian for the first time" weighed "time" most, and drew the manual's section on the system clock.
  anglePhrases: /\b(?:first|last|next|every|each) times?\b/giu,
  furtherReading: /^(more|further|additional|other) (readings?|resources|information)\b|^(references|see also|bibliography|external links|resources)$/i,
  relationalQuestion: /^What (is|are) the ([\p{L}\p{N}-]+ )?(part|alternative|difference|solution|problem|reason|result|rest|remainder|answer|idea|point|catch|trick|case|situation|scenario|example|approach|way|option|choice|other)s? ?\?$|\bthe (issue|problem|situation|case|matter|difference|alternative|rest|other)s? ?\?$/iu,
  placeWords: /(?<![\p{L}])(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)(?![\p{L}])/iu,
  faqShapes: [
    // "To restore a backup, run …" → "How do you restore a backup?"
    // ("To date, …", "To sum up, …", "To this end, …" are no procedure)
    { shape: /^To ((?:[\p{L}\p{N}'’-]+ ){0,7}[\p{L}\p{N}'’-]+), /u, ask: (m) => (NOT_PROCEDURES.test(m[1]) ? undefined : `How do you ${m[1]}?`) },
    // "You can pin a package by …" → "How can you pin a package?"
    { shape: /^You can ((?:[\p{L}\p{N}'’-]+ ){1,7}[\p{L}\p{N}'’-]+) (?:by|with|using|through) /u, ask: (m) => (POINTS_BACK.test(m[1]) ? undefined : `How can you ${m[1]}?`) },
    // "If you wish to look up package dependency recursively, you should use apt-rdepends(8)." → "How do you look up
    // package dependency recursively?"
    { shape: /^If you (?:want|wish|need) to ((?:[\p{L}\p{N}'’-]+ ){0,7}[\p{L}\p{N}'’-]+), (?!(?:please |you should |you can )?(?:read|see|consult|refer to|check out)\b)/u, ask: (m) => (NOT_PROCEDURES.test(m[1]) || /\b(this|that|it)\b/i.test(m[1]) ? undefined : `How do you ${m[1]}?`) },
    // "A wormery is a …" → "What is a wormery?"
    { shape: /^((?:An?|The) (?:[\p{L}\p{N}'’-]+ ){0,3}[\p{L}\p{N}'’-]+) (is|are) (?:an?|the|one) /u, ask: (m) => `What ${m[2]} ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)}?` },
  ],
  angleMaterial: [
    {
      angle: "problems",
      qualifiers: /^(common|frequent|typical|usual|classic|biggest|top)$/i,
      asks: /\b(mistakes?|errors?|pitfalls?|problems?|avoid(ing)?|wrong|troubleshoot(ing)?|not to|never)\b/i,
      serves: /\b(too (much|little|many|few|long|hot|cold|fine|coarse|hard|often)|never|not|no longer|don't|doesn't|cannot|can't|avoid\w*|without|wrong\w*|mistakes?|problems?|damag\w*|harm\w*|ruin\w*|fail\w*)\b/i,
    },
    {
      angle: "start",
      asks: /\b(getting started|get started|start(?:ing)?|beginners?|newcomers?|novices?|first (?:time|steps)|from scratch|introduction|basics|quick ?start)\b/i,
      placed: /\b(quick ?start|getting started|starting|introduction|first steps|basics|overview|tutorial|beginners?)\b/i,
      query: "quick start introduction getting started first steps basics",
    },
  ],
  exampleMarkers: /\b(for example|for instance|e\.g\.)/i,
  asideOpener: /^(please )?(note|notice|remember|keep in mind|bear in mind|be aware)( that\b|:|,)/i,
  demonstratives: new Set("this these those".split(" ")),
  determiners: new Set("the a an this that these those its their your our each every".split(" ")),
  sentences: {
    dependentOpeners: new Set(["it", "its", "this", "that", "these", "those", "they", "their", "them", "he", "she", "his", "her", "such", "both", "there", "then", "thus"]),
    infinitiveOpener: /^\p{Lu}\p{Ll}+ing$/u,
    // The closed list, or any verb in -s followed by what an object or complement opens with: a gerund subject's
    // verb ("Reading a file changes the atime …", "Storing beans in the fridge exposes them …"), which the list
    // cannot hold; a plural noun is rarely followed by these ("Installing packages from …").
    finite: /\b(is|are|was|were|be|been|can|could|may|might|must|should|will|would|shall|has|have|had|does|do|did|helps?|makes?|requires?|gives?|lets?|allows?|means?|needs?|takes?|keeps?|provides?|involves?|saves?|protects?|remains?|becomes?)\b|\b[a-z]{3,}[^s\W]s (the|a|an|its|their|them|it|you|your|all|as|his|her|our|this|that|these|those|each|every)\b/i,
    boilerplate: /^(list|table|figure) of\b|\bfollowing (entries|lines|commands?|examples?|tables?|lists?|code|steps|settings|files?)\b|\b(let's|let us|as follows|the following|see (below|above)|(shown|described|explained|listed|mentioned) (below|above)|as shown|below is|here is|here are|click|this (chapter|section|page|document|manual|guide|tutorial)|in this (chapter|section|document|manual)|(see|in) (section|chapter) \d|chapter \d)|^see\b|\bfollowings?[.:]?$/i,
    sendsTo: /^([^,]{0,80},\s*)?(please\s+)?(also\s+)?(read|see|consult|refer to)\b|\byou (should|can|may|must) (read|consult|refer to)\b|\b(is|are) (described|documented|explained) in\b|\b(more |further |full )?details (are|can be found) (in|at|on)\b/i,
    announcesList: /^(there (are|were)|we have) (two|three|four|five|six|seven|eight|nine|ten|several|a few|\d+) /i,
    documentation: /\b(documentation|manual|guide|readme|howto|faq|standard|release notes)\b/i,
    // "this" before a stop or a comma is a pronoun, and points back: "The kbd package supports this, edit …".
    antecedent: /\bthe (latter|former|above)\b|\bthis(?=\s*[,.;!?)])|^(?!.*(?:\b(?:not|never|no)\b|n't\b)).*\binstead\b(?! of\b)/i,
    anaphora: new Set(["it", "they", "them", "those", "these", "he", "she", "him", "his", "her", "such"]),
    // "such as" and "such that" point forward: 161 sentences of the English manual say "such" only so, and were
    // taken as leaning on the sentence before ("Green material such as vegetable peelings … supplies nitrogen.").
    forwardPhrases: /(?<![\p{L}])such (?:as|that)(?![\p{L}])/giu,
    // "I" as the pronoun only, upper case, not the numeral of "Part I" or "I/O"; "my" in any case.
    firstPerson: /(?<!\b(?:Part|Chapter|Volume|Phase|Type|Class|Level) )(?<=^|[\s("“])(?:I|I'm|I’m|I've|I’ve|I'd|I’d|I'll|I’ll)(?=[\s,;.])|(?<![\p{L}\p{N}_])[Mm](?:y|yself|ine)(?![\p{L}\p{N}_])/u,
    descriptionIsSentence: opensInUpperCase,
    // A label with an infinitive is an instruction: "Try to upgrade step wise: oldstable → stable → …".
    instructionLabel: /\bto \p{L}/u,
    notInfinitives: new Set(["nothing", "everything", "something", "anything", "during", "string", "thing", "spring", "king", "according", "regarding", "concerning", "following"]),
    imperative: tellsToDo,
    // A contrast said at the end: "You always need password to boot the system, though." (what it stands against
    // is the sentence before). Not "… instead.": "Tea bags made with plastic mesh … should go in the bin instead."
    // carries its own contrast.
    leansBack: (sentence) => /,\s*though\.$/i.test(sentence.trim()) || opensWithoutSubject(sentence.trim()),
    afterSteps: /\bnow\b/i,
    answerOpeners: /^(?:(?:yes|no)(?=[,.!;:])|the (?:short )?answer(?![\p{L}])|well,)/u,
    connectiveOpeners: /^(however|also|or|alternatively|another|equally|likewise|similarly|otherwise|moreover|furthermore|additionally|in addition|what is more|besides|therefore|hence|thus|consequently|as a result|instead|nevertheless|nonetheless|still|yet|again|on the other hand|in contrast|by contrast|conversely|in that case|for this reason|for that reason|even so|then|but|and|nor|neither(?= (?:do|does|did|is|are|was|were|can|could|will|would|should|shall|has|have|had|must|may|might)\b)|so(?!-))(?![\p{L}\p{N}])/u,
    clausePointers: /^(this|these|those)(?![\p{L}\p{N}])/u,
    numberedSection: /(section|chapter|appendix|table|figure) \d+(\.\d+)+|\blines? \d+\b/i,
    crossReference: /\b(see|cf\.|refer to|section|chapter|table|figure|appendix)\b/i,
  },
  phrases: {
    name: "English",
    conclusionHeading: "Conclusion",
    otherPointsHeading: "Other points",
    and: "and",
    faqHeading: "Frequently asked questions",
    sourcesHeading: "Sources",
    knowledgeBaseLabel: "brand knowledge base",
    overviewHeading: "{K}: an overview",
    explained: /\s+explained$/iu,
    bodyHeadings: {
      informational: ["Why this matters", "In practice", "Key considerations", "Common mistakes to avoid", "Getting started", "What to expect"],
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
    framingQuestion: "This article answers the question: {K}?",
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
  },
};
