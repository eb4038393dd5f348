import type { LanguageProfile } from "./profile";

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
    go going take taking let work works working help helps right wrong really actually ever never always often lot lots
    much many more most less least kind kinds type types sort example examples checklist list faq questions question
    answer answers new modern today year manage managing instead
    cut cutting reduce reducing improve improving increase increasing boost boosting save saving speed lower lowering grow growing faster smarter easier cheaper`,
  faqShapes: [
    // "To restore a backup, run …" → "How do you restore a backup?"
    { shape: /^To ((?:[\p{L}\p{N}'’-]+ ){0,7}[\p{L}\p{N}'’-]+), /u, ask: (m) => `How do you ${m[1]}?` },
    // "You can pin a package by …" → "How can you pin a package?"
    { shape: /^You can ((?:[\p{L}\p{N}'’-]+ ){1,7}[\p{L}\p{N}'’-]+) (?:by|with|using|through) /u, ask: (m) => `How can you ${m[1]}?` },
    // "A wormery is a …" → "What is a wormery?"
    { shape: /^((?:An?|The) (?:[\p{L}\p{N}'’-]+ ){0,3}[\p{L}\p{N}'’-]+) (is|are) (?:an?|the|one) /u, ask: (m) => `What ${m[2]} ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)}?` },
  ],
};
