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
    frage fragen antwort antworten neu neue modern
    reduzieren verbessern verbessert senken steigern sparen beschleunigen schneller besser einfacher`,
  faqShapes: [
    // „Um ein Paket zu installieren, …" → „Wie kann man ein Paket installieren?"
    { shape: /^Um ((?:[\p{L}\p{N}'’-]+ ){0,6}?)zu ([\p{L}]+), /u, ask: (m) => `Wie kann man ${m[1]}${m[2]}?` },
    // „Ein Paket ist eine …" → „Was ist ein Paket?"
    { shape: /^((?:Der|Die|Das|Ein|Eine) (?:[\p{L}\p{N}'’-]+ ){0,2}[\p{L}\p{N}'’-]+) (ist|sind) (?:ein|eine|einer|der|die|das) /u, ask: (m) => `Was ${m[2]} ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)}?` },
  ],
};
