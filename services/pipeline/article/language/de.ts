import type { LanguageProfile } from "./profile";

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
    frage fragen antwort antworten neu neue modern`,
};
