import { splitSentences } from "../../shared/text/segment";

const texts = (text: string, lang: string) => splitSentences(text, lang).map((s) => s.text);

describe("sentences of a text", () => {
  it("keeps a German ordinal inside its sentence (read: \"… seit dem 1.\" quoted as a sentence)", () => {
    expect(texts("Datum der letzten Passwortänderung, ausgedrückt als Anzahl der Tage seit dem 1. Januar 1970. Das ist alles.", "de")).toEqual([
      "Datum der letzten Passwortänderung, ausgedrückt als Anzahl der Tage seit dem 1. Januar 1970.",
      "Das ist alles.",
    ]);
    expect(texts("Die Regel steht im 3. Kapitel des Handbuchs.", "de")).toEqual(["Die Regel steht im 3. Kapitel des Handbuchs."]);
  });

  it("still ends a sentence on a number, and never joins across a line break", () => {
    expect(texts("Die aktuelle Version ist 12. Debian ist frei.", "de")).toEqual(["Die aktuelle Version ist 12.", "Debian ist frei."]);
    expect(texts("Schritt 1.\nJanuar ist kalt.", "de")).toEqual(["Schritt 1.", "Januar ist kalt."]);
  });

  it("keeps an abbreviation that never ends a sentence inside it (read: \"Probleme wie z.B.\" quoted alone from the German manual)", () => {
    expect(texts("Das verursacht Probleme wie z.B. Abhängigkeiten zwischen Paketen. Danach geht es weiter.", "de")).toEqual(["Das verursacht Probleme wie z.B. Abhängigkeiten zwischen Paketen.", "Danach geht es weiter."]);
    expect(texts("Es gibt z. B. viele Pakete. Das ist gut.", "de")).toEqual(["Es gibt z. B. viele Pakete.", "Das ist gut."]);
    expect(texts("Limit the bandwidth for APT to e.g. 800Kib/sec with one option. Then go.", "en")).toEqual(["Limit the bandwidth for APT to e.g. 800Kib/sec with one option.", "Then go."]);
    // A name's initial (the Valgrind manual's DRD chapter) is no sentence end; a capital letter closing a sentence is.
    expect(texts("This concept was first defined by S. Adve and others. It is used here.", "en")).toEqual(["This concept was first defined by S. Adve and others.", "It is used here."]);
    expect(texts("Take vitamin C. The body needs it.", "en")).toEqual(["Take vitamin C.", "The body needs it."]);
    expect(texts("Utilisez un outil, p. ex. Synaptic, pour cela. Puis.", "fr")).toEqual(["Utilisez un outil, p. ex. Synaptic, pour cela.", "Puis."]);
    expect(texts("Use una herramienta, p. ej. Synaptic, para esto. Luego.", "es")).toEqual(["Use una herramienta, p. ej. Synaptic, para esto.", "Luego."]);
  });

  it("still ends a sentence on a letter, and never joins across a line break (a code block's example follows)", () => {
    expect(texts("We use Plan B. Then go.", "en")).toEqual(["We use Plan B.", "Then go."]);
    expect(texts("Es protokolliert den Aufruf, z.B.\nSiehe oben.", "de")).toEqual(["Es protokolliert den Aufruf, z.B.", "Siehe oben."]);
  });
});
