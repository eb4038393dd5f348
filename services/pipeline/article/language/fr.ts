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
    exemples liste question questions réponse réponses nouveau nouvelle moderne`,
};
