import type { LanguageProfile } from "./profile";

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
    réduire réduisez améliorer améliorez augmenter accélérer économiser gagner plus rapide rapidement`,
  faqShapes: [
    // « Pour installer un paquet, utilisez … » → « Comment installer un paquet ? »
    { shape: /^Pour ((?:[\p{L}\p{N}'’-]+ ){0,7}[\p{L}\p{N}'’-]+), /u, ask: (m) => `Comment ${m[1]} ?` },
    // « Le paquet est un … » → « Qu'est-ce que le paquet ? »
    { shape: /^((?:Le|La|Les|L['’]|Un|Une) ?(?:[\p{L}\p{N}'’-]+ ){0,3}[\p{L}\p{N}'’-]+) (?:est|sont) (?:un|une|le|la|les|l['’]|des) /u, ask: (m) => `Qu'est-ce que ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)} ?` },
  ],
};
