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
});
